// Bearer-key authentication. The presented key's SHA-256 digest is compared with timingSafeEqual
// against every configured digest (no early exit), so neither a key's content nor its length
// leaks through timing; the configuration holds digests only (api-keys.config.ts). Keys are never
// logged or echoed: from here on a request carries the key's spec, whose `id` is what is shown.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiKeySpec } from '@tessera/config';
import { OpenAIError } from '../errors/openai-error';

export type KeyCheck = { key: ApiKeySpec | null; error?: undefined } | { error: OpenAIError };

export class ApiKeyVerifier {
  private readonly known: { spec: ApiKeySpec; digest: Buffer }[];

  constructor(
    keys: ApiKeySpec[],
    private readonly disabled: boolean,
  ) {
    this.known = keys.map((spec) => ({ spec, digest: Buffer.from(spec.sha256, 'hex') }));
  }

  /** The key the request authenticates with (null when auth is disabled), or the 401 to send. */
  check(authorization: string | undefined): KeyCheck {
    if (this.disabled) return { key: null };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      return {
        error: unauthorized(
          "You didn't provide an API key. You need to provide your API key in an Authorization " +
            'header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).',
        ),
      };
    }
    const presented = createHash('sha256').update(match[1], 'utf8').digest();
    let found: ApiKeySpec | null = null;
    for (const { spec, digest } of this.known) {
      if (timingSafeEqual(presented, digest) && found === null) found = spec;
    }
    return found ? { key: found } : { error: unauthorized('Incorrect API key provided.') };
  }
}

const unauthorized = (message: string) =>
  new OpenAIError(401, message, 'invalid_request_error', null, 'invalid_api_key');
