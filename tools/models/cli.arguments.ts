import * as path from 'node:path';
import { parseArgs } from 'node:util';

export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'pull'; readonly modelsFile: string; readonly models: readonly string[] }
  | { readonly kind: 'list'; readonly modelsFile: string };

/** The command line is wrong; the runner prints the message and points at --help. */
export class CliUsageError extends Error {
  override readonly name = 'CliUsageError';
}

const DEFAULT_MODELS_FILE = 'config/models.yaml';

export function parseCliArguments(argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        models: { type: 'string' },
        model: { type: 'string', multiple: true },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new CliUsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help === true || positionals[0] === 'help') return { kind: 'help' };
  const [command, ...extra] = positionals;
  if (command === undefined) throw new CliUsageError('no command given (pull or list)');
  if (extra.length > 0) throw new CliUsageError(`unexpected argument "${extra[0]}"`);
  const modelsFile = path.resolve(values.models ?? env.TESSERA_MODELS_FILE ?? DEFAULT_MODELS_FILE);
  switch (command) {
    case 'pull':
      return { kind: 'pull', modelsFile, models: values.model ?? [] };
    case 'list':
      if (values.model !== undefined) throw new CliUsageError('--model only applies to pull');
      return { kind: 'list', modelsFile };
    default:
      throw new CliUsageError(`unknown command "${command}" (pull or list)`);
  }
}
