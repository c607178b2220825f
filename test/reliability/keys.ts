// The keys the reliability stack serves, as a YAML keys file: a full key (limits far above what
// the load sends, so the limiter runs on every request without refusing any) and a key limited
// to one embeddings model. The raw keys are what the leak check looks for afterwards.
import * as fs from 'node:fs';
import * as path from 'node:path';

export const FULL_KEY = 'tsk-reliability-full-9f3c2a7d41e8';
export const EMBED_KEY = 'tsk-reliability-embed-5b0e6c19d7a2';
/** Never configured: what a client with a wrong key sends (it must not leak either). */
export const WRONG_KEY = 'tsk-reliability-wrong-2d8a4f60b3c5';
export const EMBED_ONLY_MODEL = 'tiny-bert';

/** Writes the keys file into `dir` and returns its path. */
export function writeKeysFile(dir: string): string {
  const file = path.join(dir, 'keys.yaml');
  fs.writeFileSync(
    file,
    [
      'keys:',
      '  - id: reliability-full',
      `    key: ${FULL_KEY}`,
      '    limits:',
      '      requests_per_minute: 10000000',
      '      tokens_per_minute: 1000000000',
      '      audio_seconds_per_minute: 10000000',
      '      characters_per_minute: 1000000000',
      '      max_concurrent_streams: 10000',
      '  - id: reliability-embed-only',
      `    key: ${EMBED_KEY}`,
      `    models: [${EMBED_ONLY_MODEL}]`,
      '',
    ].join('\n'),
  );
  return file;
}
