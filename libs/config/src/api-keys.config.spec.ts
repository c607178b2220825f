import { ConfigError } from './env.schema';
import { createHmac } from 'node:crypto';
import {
  apiKeyFromRaw,
  checkDistinctKeys,
  keyIdOf,
  parseKeysFile,
  sha256Hex,
} from './api-keys.config';

const SECRET = 'a-secret-of-the-replicas';
const idOf = (key: string) => keyIdOf(key, SECRET);

describe('keyIdOf', () => {
  it('is 48 bits of the HMAC-SHA-256 under the secret, never of the plain digest', () => {
    const hmac = createHmac('sha256', SECRET).update('sk-one').digest('hex');
    expect(keyIdOf('sk-one', SECRET)).toBe(`key-${hmac.slice(0, 12)}`);
    expect(keyIdOf('sk-one', SECRET)).not.toBe(`key-${sha256Hex('sk-one').slice(0, 12)}`);
    expect(keyIdOf('sk-one', 'another-secret-entirely')).not.toBe(keyIdOf('sk-one', SECRET));
  });
});

describe('parseKeysFile', () => {
  it('reads one raw key per line, with ids that do not show the key', () => {
    const keys = parseKeysFile('sk-one\n\n  sk-two  \n', 'keys', idOf);
    expect(keys).toEqual([
      apiKeyFromRaw('sk-one', idOf('sk-one')),
      apiKeyFromRaw('sk-two', idOf('sk-two')),
    ]);
    expect(keys[0].id).toMatch(/^key-[0-9a-f]{12}$/);
    expect(keys[0].id).not.toContain('sk-one');
  });

  it('names a YAML entry with a raw key and no id as a raw key, and needs an id with a digest', () => {
    const [key] = parseKeysFile('keys:\n  - key: sk-one\n', 'keys.yaml', idOf);
    expect(key.id).toBe(idOf('sk-one'));
    expect(() =>
      parseKeysFile(`keys:\n  - sha256: ${'0'.repeat(64)}\n`, 'keys.yaml', idOf),
    ).toThrow(/needs an id/);
  });

  it('reads ids, raw keys or SHA-256 digests, models and limits from YAML', () => {
    const digest = sha256Hex('sk-team-b');
    const keys = parseKeysFile(
      [
        'keys:',
        '  - id: team-a',
        '    key: sk-team-a',
        '    models: [tts-1, whisper-1]',
        '    limits: { requests_per_minute: 60, tokens_per_minute: 1000,',
        '              audio_seconds_per_minute: 600, characters_per_minute: 5000,',
        '              max_concurrent_streams: 2 }',
        `  - id: team-b`,
        `    sha256: ${digest.toUpperCase()}`,
      ].join('\n'),
      'keys.yaml',
      idOf,
    );
    expect(keys).toEqual([
      {
        id: 'team-a',
        sha256: sha256Hex('sk-team-a'),
        models: ['tts-1', 'whisper-1'],
        limits: {
          requestsPerMinute: 60,
          tokensPerMinute: 1000,
          audioSecondsPerMinute: 600,
          charactersPerMinute: 5000,
          maxConcurrentStreams: 2,
        },
      },
      { id: 'team-b', sha256: digest, models: undefined, limits: expect.any(Object) },
    ]);
  });

  it.each([
    ['neither key nor sha256', 'keys:\n  - id: a\n', /exactly one of key and sha256/],
    [
      'both key and sha256',
      `keys:\n  - id: a\n    key: k\n    sha256: ${'0'.repeat(64)}\n`,
      /exactly one/,
    ],
    ['a short digest', 'keys:\n  - id: a\n    sha256: abc\n', /SHA-256 digest/],
    ['an unknown limit', 'keys:\n  - id: a\n    key: k\n    limits: { rpm: 5 }\n', /rpm/],
    [
      'a zero limit',
      'keys:\n  - id: a\n    key: k\n    limits: { requests_per_minute: 0 }\n',
      /requests_per_minute/,
    ],
    ['an id with spaces', 'keys:\n  - id: team a\n    key: k\n', /id/],
    ['bad YAML', 'keys: [\n', /not valid YAML/],
  ])('refuses %s, naming the file', (_, text, message) => {
    expect(() => parseKeysFile(text, 'keys.yaml', idOf)).toThrow(ConfigError);
    expect(() => parseKeysFile(text, 'keys.yaml', idOf)).toThrow(message);
    expect(() => parseKeysFile(text, 'keys.yaml', idOf)).toThrow(/keys\.yaml/);
  });

  it('refuses an id or a key given twice', () => {
    expect(() => checkDistinctKeys([apiKeyFromRaw('a', 'x'), apiKeyFromRaw('b', 'x')])).toThrow(
      /id 'x' is used twice/,
    );
    expect(() => checkDistinctKeys([apiKeyFromRaw('a', 'x'), apiKeyFromRaw('a', 'y')])).toThrow(
      /'y' is the same key/,
    );
  });
});
