// Further models an entry's `options` name besides its own `source`: moderation's `classifiers`
// (`{ source, file }` each: several classifiers behind one public id). They are pulled and
// resolved like the entry's own source, under the entry's id, so `npm run models -- pull` and
// the launcher fetch them too. Read loosely here: the capability's options schema validates
// them when its service starts.
import type { ModelSpec } from './model-spec';
import { toModelSource } from './model-source.parser';

/** The companion models of `spec`, in the order its options list them. */
export function companionSpecs(spec: ModelSpec, modelsFileDir: string): ModelSpec[] {
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
