// The `npm run models` command line, as a function of its arguments and streams so that it can
// be tested without a child process. Errors are printed as their message: they are written for
// the person at the terminal, and a stack trace would bury them.
import { loadModelsFile } from '@tessera/models';
import { ModelStore } from '@tessera/models/store';
import { CliUsageError, parseCliArguments } from './cli.arguments';
import { USAGE } from './cli.usage';
import { listModels } from './list.command';
import { pullModels } from './pull.command';
import type { ProgressStream } from './pull-progress.reporter';

export interface CliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: ProgressStream;
  readonly stderr: NodeJS.WritableStream;
  /** Aborted on Ctrl-C: the download in progress stops and leaves no partial file. */
  readonly signal?: AbortSignal;
}

export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

export async function runModelsCli(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const command = parseCliArguments(argv, io.env);
    if (command.kind === 'help') {
      io.stdout.write(USAGE);
      return 0;
    }
    const file = loadModelsFile(command.modelsFile);
    const store = new ModelStore(io.env);
    if (command.kind === 'list') {
      io.stdout.write(`${await listModels(file, store)}\n`);
      return 0;
    }
    return await pullModels(file, command.models, store, io);
  } catch (error) {
    if (io.signal?.aborted) {
      io.stderr.write('interrupted\n');
      return EXIT_INTERRUPTED;
    }
    io.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (error instanceof CliUsageError) {
      io.stderr.write('Run "npm run models -- --help" for usage.\n');
      return EXIT_USAGE;
    }
    return EXIT_FAILURE;
  }
}
