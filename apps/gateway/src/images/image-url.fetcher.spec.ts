// The guarded fetcher against a real local HTTP server. A resolver of the test's own stands in
// for DNS (the machine has none): it maps invented names to addresses, so that "a name that
// resolves to a private address" and "an allowed name" are tested on the real connect path.
import type { LookupAddress } from 'node:dns';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { repoRoot, startImageServer, type ImageServer } from '@tessera/testing';
import { AddressPolicy } from './address.policy';
import { ImageUrlFetcher, type Lookup } from './image-url.fetcher';

const SETTINGS = {
  connectTimeoutMs: 2_000,
  timeoutMs: 2_000,
  maxRedirects: 3,
  maxBytes: 64 * 1024,
};

const NAMES: Record<string, LookupAddress[]> = {
  'images.test': [{ address: '127.0.0.1', family: 4 }],
  'private.test': [{ address: '10.0.0.7', family: 4 }],
  'mapped.test': [{ address: '::ffff:127.0.0.1', family: 6 }],
  // One public and one loopback address: the connection is refused whichever would be used.
  'rebind.test': [
    { address: '93.184.216.34', family: 4 },
    { address: '127.0.0.1', family: 4 },
  ],
};

let server: ImageServer;
const lookups: string[] = [];
const lookup: Lookup = (hostname, _options, callback) => {
  lookups.push(hostname);
  if (hostname === 'hang.test') return; // a resolver that never answers
  const addresses = NAMES[hostname];
  if (addresses) setImmediate(() => callback(null, addresses));
  else
    setImmediate(() => callback(Object.assign(new Error('not found'), { code: 'ENOTFOUND' }), []));
};
const fetcher = (allow: string[] = ['images.test'], settings = SETTINGS) =>
  new ImageUrlFetcher(settings, new AddressPolicy(allow), lookup);
let allowed: ImageUrlFetcher;

const at = (host: string, path: string) => `http://${host}:${server.port}${path}`;
const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => {
      throw new Error('fetched');
    },
    (e: unknown) => e as { message: string; code: string },
  );
  return { message: error.message, code: error.code };
};

beforeAll(async () => {
  server = await startImageServer();
  allowed = fetcher();
});
afterAll(async () => {
  await allowed.close();
  await server.close();
});
beforeEach(() => {
  server.hits.clear();
  lookups.length = 0;
});

describe('ImageUrlFetcher', () => {
  it('fetches a real png from a host on the allow-list, resolved through the guarded lookup', async () => {
    const image = await allowed.fetch(at('images.test', '/image.png'));
    expect(image).toEqual({ data: server.png, mimeType: 'image/png' });
    expect(lookups).toContain('images.test');
  });

  it('refuses a name that resolves to a private address, without a request', async () => {
    expect(await refusal(allowed.fetch(at('private.test', '/image.png')))).toEqual({
      code: 'invalid_image_url',
      message: expect.stringMatching(
        /^cannot fetch http:\/\/private\.test:\d+\/image\.png: it resolves to a private address/,
      ),
    });
  });

  it('refuses a name when any of its addresses is refused', async () => {
    expect((await refusal(allowed.fetch(at('rebind.test', '/image.png')))).message).toMatch(
      /resolves to a loopback address/,
    );
    expect(server.hits.size).toBe(0);
  });

  it('refuses loopback literals, IPv4-mapped ones included, before connecting', async () => {
    for (const host of ['127.0.0.1', '[::ffff:127.0.0.1]', '[::1]', '0x7f.1', '2130706433']) {
      expect((await refusal(allowed.fetch(at(host, '/image.png')))).message).toMatch(
        /resolves to a loopback address/,
      );
    }
    expect(server.hits.size).toBe(0);
    expect(lookups).toEqual([]);
  });

  it('refuses a name resolving to an IPv4-mapped loopback address', async () => {
    expect((await refusal(allowed.fetch(at('mapped.test', '/image.png')))).message).toMatch(
      /resolves to a loopback address/,
    );
  });

  it('refuses the metadata service by address and by name, without resolving the name', async () => {
    expect((await refusal(allowed.fetch('http://169.254.169.254/latest/meta-data/'))).message).toBe(
      'cannot fetch http://169.254.169.254/latest/meta-data/: it resolves to a cloud metadata ' +
        'address, which this server does not fetch images from',
    );
    expect((await refusal(allowed.fetch('http://metadata.google.internal/x'))).message).toMatch(
      /cloud metadata address/,
    );
    expect(lookups).toEqual([]);
  });

  it('checks every redirect: one to a loopback address is refused', async () => {
    const to = encodeURIComponent(at('127.0.0.1', '/image.png'));
    const { message } = await refusal(allowed.fetch(at('images.test', `/redirect?to=${to}`)));
    expect(message).toMatch(
      /^cannot fetch http:\/\/127\.0\.0\.1:\d+\/image\.png \(redirected from http:\/\/images\.test:\d+\/redirect\?to=.*\): it resolves to a loopback address/,
    );
    expect(server.hits.get('/redirect')).toBe(1);
    expect(server.hits.get('/image.png')).toBeUndefined();
  });

  it('follows up to the redirect limit, and refuses the one past it', async () => {
    const image = await allowed.fetch(
      at('images.test', `/redirect?to=${encodeURIComponent('/image.png')}`),
    );
    expect(image.mimeType).toBe('image/png');
    expect((await refusal(allowed.fetch(at('images.test', '/loop/0')))).message).toMatch(
      /: too many redirects \(more than 3\)$/,
    );
    expect(server.hits.get('/loop/3')).toBe(1);
    expect(server.hits.get('/loop/4')).toBeUndefined();
  });

  it('refuses a redirect to another scheme', async () => {
    const { message } = await refusal(
      allowed.fetch(at('images.test', `/redirect?to=${encodeURIComponent('file:///etc/passwd')}`)),
    );
    expect(message).toMatch(
      /it redirects to file:\/\/\/etc\/passwd: the URL scheme must be http or https, not 'file'$/,
    );
  });

  it('refuses a scheme other than http(s) and an unparsable URL', async () => {
    expect(await refusal(allowed.fetch('ftp://images.test/a.png'))).toEqual({
      code: 'invalid_image_url',
      message: "the URL scheme must be http or https, not 'ftp'",
    });
    expect((await refusal(allowed.fetch('not a url'))).message).toMatch(/is not a valid URL/);
  });

  it('refuses a body over the cap from its Content-Length, and stops reading one without', async () => {
    expect(await refusal(allowed.fetch(at('images.test', '/big?bytes=70000')))).toEqual({
      code: 'invalid_image',
      message: expect.stringMatching(/: the image is larger than 65536 bytes$/),
    });
    expect((await refusal(allowed.fetch(at('images.test', '/endless')))).message).toMatch(
      /: the image is larger than 65536 bytes$/,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(server.abandoned.has('/endless')).toBe(true);
  });

  it('checks the Content-Type and then the bytes', async () => {
    expect(await refusal(allowed.fetch(at('images.test', '/page.html')))).toEqual({
      code: 'invalid_image_format',
      message: expect.stringMatching(/: it is not an image \(content-type text\/html\)$/),
    });
    expect((await refusal(allowed.fetch(at('images.test', '/image-as-html')))).code).toBe(
      'invalid_image_format',
    );
    expect((await refusal(allowed.fetch(at('images.test', '/not-a-format')))).message).toMatch(
      /: the bytes are not a supported image; supported formats are png, jpeg, webp and gif$/,
    );
  });

  it('states upstream failures: HTTP status, unknown host, refused connection', async () => {
    expect((await refusal(allowed.fetch(at('images.test', '/missing.png')))).message).toMatch(
      /: the server answered HTTP 404$/,
    );
    expect((await refusal(allowed.fetch('http://nowhere.test/a.png'))).message).toBe(
      'cannot fetch http://nowhere.test/a.png: its host name could not be resolved',
    );
    const closed = fetcher(['127.0.0.1']);
    try {
      expect((await refusal(closed.fetch('http://127.0.0.1:1/a.png'))).message).toBe(
        'cannot fetch http://127.0.0.1:1/a.png: the connection was refused',
      );
    } finally {
      await closed.close();
    }
  });

  it('gives up on a server that never answers after the total timeout', async () => {
    const quick = fetcher(['images.test'], { ...SETTINGS, timeoutMs: 300 });
    try {
      expect((await refusal(quick.fetch(at('images.test', '/silent')))).message).toMatch(
        /: timed out after 0\.3 s$/,
      );
    } finally {
      await quick.close();
    }
  });

  it('gives up connecting after the connect timeout (here, a resolver that never answers)', async () => {
    const quick = fetcher(['hang.test'], { ...SETTINGS, connectTimeoutMs: 200 });
    try {
      expect(await refusal(quick.fetch('http://hang.test/a.png'))).toEqual({
        code: 'invalid_image_url',
        message: 'cannot fetch http://hang.test/a.png: the connection timed out after 0.2 s',
      });
    } finally {
      await quick.close();
    }
  });

  it('resolves through the guard on TLS connections too; an untrusted certificate is a 400', async () => {
    const tls = path.join(repoRoot(), 'test', 'fixtures', 'tls');
    const secure = https.createServer(
      {
        key: fs.readFileSync(path.join(tls, 'images.test.key')),
        cert: fs.readFileSync(path.join(tls, 'images.test.crt')),
      },
      (_, response) => response.writeHead(200, { 'content-type': 'image/png' }).end(server.png),
    );
    await new Promise<void>((resolve) => secure.listen(0, '127.0.0.1', resolve));
    const { port } = secure.address() as AddressInfo;
    try {
      expect((await refusal(allowed.fetch(`https://private.test:${port}/a.png`))).message).toMatch(
        /resolves to a private address/,
      );
      expect(await refusal(allowed.fetch(`https://images.test:${port}/a.png`))).toEqual({
        code: 'invalid_image_url',
        message:
          `cannot fetch https://images.test:${port}/a.png: its TLS certificate was not ` +
          'accepted (DEPTH_ZERO_SELF_SIGNED_CERT)',
      });
      expect(lookups).toEqual(['private.test', 'images.test']);
    } finally {
      secure.closeAllConnections();
      await new Promise((resolve) => secure.close(resolve));
    }
  });

  it('lets an allow-listed address through whatever name (or none) led to it', async () => {
    const byAddress = fetcher(['127.0.0.1']);
    try {
      expect((await byAddress.fetch(at('127.0.0.1', '/image.png'))).data).toEqual(server.png);
      expect((await byAddress.fetch(at('[::ffff:127.0.0.1]', '/image.png'))).mimeType).toBe(
        'image/png',
      );
    } finally {
      await byAddress.close();
    }
  });
});
