// The voice map of a speech model resolved against its loaded voices: each name the model
// answers to → the Piper voice and the speaker id it speaks with. A speaker the voice does not
// have, or one given for a single-speaker voice, stops the service naming the model, the name
// and the file.
import { speakerIdOf, type PiperVoice } from '@tessera/tts';
import type { VoiceMap } from './speech-model.options';

export interface MappedVoice<V = PiperVoice> {
  readonly voice: V;
  /** `sid` for a multi-speaker voice, else undefined. */
  readonly speakerId?: number;
}

/** The voice file each name of the map uses (its own `file`, else the model's). */
export function voiceFileOf(entry: VoiceMap[string], modelFile: string | undefined): string {
  const file = entry.file ?? modelFile;
  if (file === undefined) {
    throw new Error('names no `file`, and the model has none: set the voice file');
  }
  return file;
}

export function resolveVoiceMap<V extends Pick<PiperVoice, 'config'>>(
  map: VoiceMap,
  modelFile: string | undefined,
  voiceOf: (file: string) => V,
  where: string,
): Map<string, MappedVoice<V>> {
  const resolved = new Map<string, MappedVoice<V>>();
  for (const [name, entry] of Object.entries(map)) {
    try {
      const file = voiceFileOf(entry, modelFile);
      const voice = voiceOf(file);
      try {
        resolved.set(name, {
          voice,
          speakerId: speakerIdOf(voice.config, entry.speaker),
        });
      } catch (error) {
        throw new Error(`${(error as Error).message}, in ${file}`, { cause: error });
      }
    } catch (error) {
      throw new Error(`${where}: voice '${name}': ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  return resolved;
}

/** The model's voice names as ListModels and an unknown-voice error list them. */
export function voiceNames(voices: ReadonlyMap<string, unknown>): string[] {
  return [...voices.keys()].sort();
}
