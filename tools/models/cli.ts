// Entry point of `npm run models -- <command>` (built to dist/tools/models/cli.js).
import { runModelsCli } from './cli.runner';

const interrupt = new AbortController();
process.once('SIGINT', () => interrupt.abort(new Error('interrupted')));

void runModelsCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
  signal: interrupt.signal,
}).then((code) => {
  process.exitCode = code;
});
