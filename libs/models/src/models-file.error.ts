/** One thing wrong with a models file, located as precisely as the YAML allows. */
export interface ModelsFileProblem {
  /** 1-based line in the models file. */
  readonly line?: number;
  /** The entry, e.g. `models[2] (id "whisper")`. */
  readonly entry?: string;
  /** The field inside the entry (or at the top level), e.g. `aliases[1]`. */
  readonly field?: string;
  readonly message: string;
}

/** The models file cannot be read or is invalid; the message names the file, entry and field. */
export class ModelsFileError extends Error {
  override readonly name = 'ModelsFileError';

  constructor(
    readonly file: string,
    readonly problems: readonly ModelsFileProblem[],
  ) {
    super(ModelsFileError.describe(file, problems));
  }

  private static describe(file: string, problems: readonly ModelsFileProblem[]): string {
    const lines = problems.map((problem) => {
      const where = [
        problem.line === undefined ? undefined : `line ${problem.line}`,
        problem.entry,
        problem.field === undefined ? undefined : `field "${problem.field}"`,
      ].filter((part) => part !== undefined);
      return where.length > 0 ? `${where.join(', ')}: ${problem.message}` : problem.message;
    });
    if (lines.length === 1) return `invalid models file ${file}: ${lines[0]}`;
    return [`invalid models file ${file}:`, ...lines.map((line) => `  - ${line}`)].join('\n');
  }
}
