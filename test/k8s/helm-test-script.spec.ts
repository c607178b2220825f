// The chart's `helm test` script (charts/tessera/files/helm-test.mjs) run against the real
// gateway and services on the fixture models, as its pods run it against a release: one
// capability per run, the key from a keys file. A real cluster runs the same file (helm test).
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { CHAT_MODEL, startChatStack } from '../support/chat-stack';
import { startModerationStack } from '../support/moderation-stack';
import { SPEECH_MODEL, startSpeechStack } from '../support/speech-stack';
import { TEST_API_KEY, startStack } from '../support/test-stack';
import { WHISPER_MODEL, startTranscriptionStack } from '../support/transcription-stack';
import { ROOT } from './support/chart';

const SCRIPT = path.join(ROOT, 'charts/tessera/files/helm-test.mjs');

function keysFile(...keys: string[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-keys-')), 'api-keys');
  fs.writeFileSync(file, keys.join('\n') + '\n');
  return file;
}

/** The script in its own process (the stack answers from this one). */
async function runScript(url: string, keys: string, args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, ...args], {
      env: { PATH: process.env.PATH, TESSERA_URL: url, TESSERA_API_KEYS_FILE: keys },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, output: e.stdout + e.stderr };
  }
}

const CASES: [string, () => Promise<{ gateway: { url: string }; close(): Promise<void> }>, string[]][] = [
  ['embeddings', () => startStack(), ['embeddings', 'tiny-bert']],
  ['chat', () => startChatStack(), ['chat', CHAT_MODEL]],
  ['moderation', () => startModerationStack(), ['moderation', 'tiny-moderation']],
  ['speech', () => startSpeechStack(), ['speech', SPEECH_MODEL, 'alloy']],
  ['transcription', () => startTranscriptionStack(), ['transcription', WHISPER_MODEL]],
];

describe.each(CASES)('helm test script for %s', (_, start, args) => {
  // Loading a stack's models takes minutes on a busy machine. A start that outlives the hook is
  // still awaited and closed, so no server is left keeping jest alive.
  let starting: ReturnType<typeof start>;
  let stack: Awaited<ReturnType<typeof start>>;
  beforeAll(async () => {
    starting = start();
    stack = await starting;
  }, 600_000);
  afterAll(async () => {
    const started = await starting?.catch(() => undefined);
    await started?.close();
  }, 120_000);

  // 300 s: random-weight Whisper falls back through every temperature, slow on a loaded machine.
  it('passes against the real gateway with the first key of the keys file', async () => {
    const res = await runScript(stack.gateway.url, keysFile(TEST_API_KEY, 'another'), args);
    expect(res.output).toContain(`${args[0]}: `);
    expect(res.output).toContain('as expected');
    expect(res.code).toBe(0);
  }, 300_000);

  it('fails on a key the gateway refuses', async () => {
    const res = await runScript(stack.gateway.url, keysFile('not-a-key'), args);
    expect(res.code).toBe(1);
    // An upload the gateway refuses may be cut off before the 401 is read (EPIPE).
    expect(res.output).toMatch(new RegExp(`^${args[0]}: .*(answered 401|failed: write EPIPE)`, 'm'));
  });
});
