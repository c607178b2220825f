// Entry point of `npm run models -- <command>` (built to dist/tools/models/cli.js).
import { runModelsCli } from './cli.runner';

const interrupt = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => interrupt.abort(new Error('interrupted')));
}

void runModelsCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
}).then((code) => {
  process.exitCode = code;
});
