// Rules zod cannot see entry by entry: names are one namespace across the whole file (a request
// names a model by id or alias, so any overlap would make routing ambiguous), and an ONNX file is
// chosen either by name or by dtype.
import type { ModelsFileProblem } from './models-file.error';
import { entryName, locate } from './models-file.issues';
import type { ModelEntry } from './models-file.schema';
import type { YamlPositions } from './yaml-positions.locator';

interface NameUse {
  readonly index: number;
  readonly path: readonly PropertyKey[];
  readonly role: 'id' | 'alias';
}

export function crossEntryProblems(
  entries: readonly ModelEntry[],
  data: unknown,
  positions: YamlPositions,
): ModelsFileProblem[] {
  const problems: ModelsFileProblem[] = [];
  const uses = new Map<string, NameUse>();
  const claim = (name: string, use: NameUse): void => {
    const earlier = uses.get(name);
    if (earlier === undefined) {
      uses.set(name, use);
      return;
    }
    const owner =
      earlier.index === use.index
        ? 'this model'
        : `${entryName(earlier.index, data)} (line ${positions.lineOf(earlier.path) ?? '?'})`;
    const message = `"${name}" is already the ${earlier.role === 'id' ? 'id' : 'alias'} of ${owner}; ids and aliases must be unique across the file`;
    problems.push(locate(use.path, data, positions, message));
  };

  entries.forEach((entry, index) => {
    if (entry.file !== undefined && entry.dtype !== undefined) {
      problems.push(
        locate(
          ['models', index, 'dtype'],
          data,
          positions,
          'cannot be combined with "file": choose the ONNX file either by name or by dtype',
        ),
      );
    }
    claim(entry.id, { index, path: ['models', index, 'id'], role: 'id' });
    entry.aliases.forEach((alias, position) =>
      claim(alias, { index, path: ['models', index, 'aliases', position], role: 'alias' }),
    );
  });
  return problems;
}
