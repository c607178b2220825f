// Further models an entry's `options` name besides its own `source`: moderation's `classifiers`
// (`{ source, file }` each: several classifiers behind one public id), and the voice files of a
// speech model's voice map (`voices: { name: { file } }`, in the entry's own source) other than
// its own `file`. They are pulled and resolved like the entry's own source, under the entry's
// id, so `npm run models -- pull` and the launcher fetch them too. Read loosely here: the
// capability's options schema validates them when its service starts.
import type { ModelSpec } from './model-spec';
import { toModelSource } from './model-source.parser';

/** The companion models of `spec`, in the order its options list them. */
export function companionSpecs(spec: ModelSpec, modelsFileDir: string): ModelSpec[] {
  return [...classifierSpecs(spec, modelsFileDir), ...voiceFileSpecs(spec)];
}

function classifierSpecs(spec: ModelSpec, modelsFileDir: string): ModelSpec[] {
  const listed = spec.options.classifiers;
  if (!Array.isArray(listed)) return [];
  return listed.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const { source, file } = entry as { source?: unknown; file?: unknown };
    if (typeof source !== 'string' || source === '') return [];
    return [
      {
        ...spec,
        source: toModelSource(source, modelsFileDir),
        file: typeof file === 'string' ? file : undefined,
        dtype: undefined,
      },
    ];
  });
}

/** One spec per distinct voice file of the map that is not the entry's own `file`. */
function voiceFileSpecs(spec: ModelSpec): ModelSpec[] {
  const voices = spec.options.voices;
  if (typeof voices !== 'object' || voices === null) return [];
  const files = new Set<string>();
  for (const entry of Object.values(voices)) {
    const file = (entry as { file?: unknown } | null)?.file;
    if (typeof file === 'string' && file !== '' && file !== spec.file) files.add(file);
  }
  return [...files].map((file) => ({ ...spec, file, dtype: undefined }));
}
