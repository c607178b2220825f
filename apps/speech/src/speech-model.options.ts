// The per-model `options` a speech entry of the models file may set: the shared runtime options,
// the phoneme bound of one voice run, and the voice map — each voice name a client may send
// (OpenAI's alloy, echo, …, or the model's own) → the Piper voice file and, for a multi-speaker
// voice, the speaker. Speakers are checked against the voice's config when it loads
// (voice.map.ts), since only the file knows its speakers.
import { RuntimeOptionsSchema } from '@tessera/runtime';
import { z } from 'zod';

/** One name of the voice map. */
export const VoiceEntrySchema = z.strictObject({
  /**
   * The voice graph (`<voice>.onnx`, its config beside it), relative to the model's source;
   * default: the entry's own `file`.
   */
  file: z
    .string()
    .regex(/\.onnx$/, { error: 'must name a Piper voice .onnx file' })
    .optional(),
  /** A name of the voice's speaker_id_map or a speaker id; only for a multi-speaker voice. */
  speaker: z.union([z.string().min(1), z.number().int().min(0)]).optional(),
});

/** Names clients send as `voice`: the OpenAI ones are lower-case words; allow the models' own. */
const VoiceNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, { error: 'must be a word of letters and digits' });

export const VoiceMapSchema = z
  .record(VoiceNameSchema, VoiceEntrySchema)
  .refine((map) => Object.keys(map).length > 0, { error: 'must name at least one voice' });

export const SpeechModelOptionsSchema = RuntimeOptionsSchema.extend({
  voices: VoiceMapSchema,
  /**
   * Most phonemes one voice run takes: a longer sentence is cut at a clause or word break, so
   * one run's time and memory stay bounded (piper-tts runs any sentence whole).
   */
  max_phonemes_per_run: z.number().int().min(16).max(4096).default(400),
  /**
   * Most seconds of synthesis (at the voice's measured rate) a voice file takes on: a request
   * that would bring what it holds over this is refused with 429 and a Retry-After instead of
   * slowing every request it holds (synthesis.backlog.ts). A voice with nothing to do takes any
   * request.
   */
  max_backlog_seconds: z.number().positive().max(3600).default(60),
  /**
   * Characters per second one worker is assumed to synthesise until its first run is measured;
   * keep it low (a CPU voice of piper's "medium" quality makes 200–400).
   */
  initial_chars_per_second: z.number().positive().max(1_000_000).default(100),
  /**
   * Instead of each voice config's `inference.noise_scale` (the phoneme noise) and
   * `inference.noise_w` (the duration noise). Piper draws that noise inside its graph, so no
   * seed repeats it: 0 for both makes a voice's audio a function of its input (to compare two
   * providers or machines), at the cost of a flatter voice.
   */
  noise_scale: z.number().min(0).optional(),
  noise_w: z.number().min(0).optional(),
}).strict();

export type SpeechModelOptions = z.infer<typeof SpeechModelOptionsSchema>;
export type VoiceMap = z.infer<typeof VoiceMapSchema>;
