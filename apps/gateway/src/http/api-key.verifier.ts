// Bearer-key authentication. Keys are compared as SHA-256 digests with timingSafeEqual against
// every configured key (no early exit), so neither a key's content nor its length leaks through
// timing. Keys are never logged or echoed.
import { createHash, timingSafeEqual } from 'node:crypto';
import { OpenAIError } from '../errors/openai-error';

const digest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

export class ApiKeyVerifier {
  private readonly digests: Buffer[];

  constructor(
    keys: string[],
    private readonly disabled: boolean,
  ) {
    this.digests = keys.map(digest);
  }

  /** Returns the 401 to send, or null when the request may proceed. */
  check(authorization: string | undefined): OpenAIError | null {
    if (this.disabled) return null;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      return unauthorized(
        "You didn't provide an API key. You need to provide your API key in an Authorization " +
          'header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).',
      );
    }
    const presented = digest(match[1]);
    let found = false;
    for (const known of this.digests) found = timingSafeEqual(presented, known) || found;
    return found ? null : unauthorized('Incorrect API key provided.');
  }
}

const unauthorized = (message: string) =>
  new OpenAIError(401, message, 'invalid_request_error', null, 'invalid_api_key');
