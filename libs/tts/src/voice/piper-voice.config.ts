// A Piper voice's `<voice>.onnx.json`: what the engine needs of it, validated once when the voice
// loads (a file piper-tts would refuse, or one Tessera cannot speak, stops the service naming the
// file). Read as piper-tts's PiperConfig.from_dict reads it, with the same defaults.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

/** piper-tts's defaults (config.py) for a file without an `inference` block or `hop_length`. */
const DEFAULT_NOISE_SCALE = 0.667;
const DEFAULT_LENGTH_SCALE = 1;
const DEFAULT_NOISE_W = 0.8;
const DEFAULT_HOP_LENGTH = 256;

const PhonemeIdMapSchema = z
  .record(z.string().min(1), z.array(z.number().int().min(0)).min(1))
  .refine((map) => ['^', '_', '$'].every((symbol) => symbol in map), {
    error: 'must map the BOS "^", PAD "_" and EOS "$" symbols',
  });

export const PiperVoiceConfigSchema = z
  .object({
    audio: z.object({ sample_rate: z.number().int().min(1000).max(192_000) }),
    espeak: z.object({ voice: z.string().min(1) }),
    // Piper's other phonemisers (text, pinyin, …) are not part of Tessera.
    phoneme_type: z
      .literal('espeak', { error: 'must be "espeak" (the only phonemiser Tessera runs)' })
      .default('espeak'),
    phoneme_id_map: PhonemeIdMapSchema,
    num_symbols: z.number().int().min(1).optional(),
    num_speakers: z.number().int().min(1),
    speaker_id_map: z.record(z.string(), z.number().int().min(0)).default({}),
    inference: z
      .object({
        noise_scale: z.number().min(0).default(DEFAULT_NOISE_SCALE),
        length_scale: z.number().positive().default(DEFAULT_LENGTH_SCALE),
        noise_w: z.number().min(0).default(DEFAULT_NOISE_W),
      })
      .default({
        noise_scale: DEFAULT_NOISE_SCALE,
        length_scale: DEFAULT_LENGTH_SCALE,
        noise_w: DEFAULT_NOISE_W,
      }),
    hop_length: z.number().int().min(1).default(DEFAULT_HOP_LENGTH),
    default_speaker_id: z.number().int().min(0).default(0),
  })
  .superRefine((config, ctx) => {
    for (const [name, id] of Object.entries(config.speaker_id_map)) {
      if (id >= config.num_speakers) {
        ctx.addIssue({
          code: 'custom',
          path: ['speaker_id_map', name],
          message: `id ${id} is not below num_speakers (${config.num_speakers})`,
        });
      }
    }
  });

export type PiperVoiceConfig = z.infer<typeof PiperVoiceConfigSchema>;

/** Parses a voice config; the error names `where` (the file) and every offending field. */
export function parsePiperVoiceConfig(json: unknown, where: string): PiperVoiceConfig {
  const parsed = PiperVoiceConfigSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map(
    (issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`,
  );
  throw new Error(`invalid Piper voice config ${where}: ${issues.join('; ')}`);
}

/** The config beside a voice graph: `<voice>.onnx.json`, as piper-tts looks for it. */
export async function readPiperVoiceConfig(onnxPath: string): Promise<PiperVoiceConfig> {
  const path = `${onnxPath}.json`;
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new Error(`cannot read the Piper voice config ${path}: ${error.code ?? error.message}`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the Piper voice config ${path} is not JSON: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return parsePiperVoiceConfig(json, path);
}

/**
 * The speaker id (`sid`) for a voice-map entry's speaker: a name of `speaker_id_map` or an id
 * below `num_speakers`; none for a single-speaker voice. The error says what the voice has.
 */
export function speakerIdOf(
  config: PiperVoiceConfig,
  speaker: string | number | undefined,
): number | undefined {
  if (config.num_speakers <= 1) {
    if (speaker !== undefined) {
      throw new Error(`speaker ${JSON.stringify(speaker)} given, but the voice has one speaker`);
    }
    return undefined;
  }
  if (speaker === undefined) return config.default_speaker_id;
  if (typeof speaker === 'number') {
    if (Number.isInteger(speaker) && speaker >= 0 && speaker < config.num_speakers) return speaker;
    throw new Error(
      `speaker ${speaker} is not an id of the voice (it has ids 0 to ${config.num_speakers - 1})`,
    );
  }
  const id = config.speaker_id_map[speaker];
  if (id !== undefined) return id;
  const names = Object.keys(config.speaker_id_map);
  const some = names.slice(0, 12).join(', ') + (names.length > 12 ? `, … (${names.length})` : '');
  throw new Error(
    `speaker '${speaker}' is not in the voice's speaker_id_map (` +
      (names.length > 0 ? `its speakers: ${some}` : 'which is empty: use an id') +
      ')',
  );
}
