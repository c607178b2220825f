// JSON bodies are parsed here rather than by Nest's parser so that a malformed body becomes the
// OpenAI 400 directly (Nest would re-wrap Fastify's parse error and lose what it was).
// Fastify's own parser still does the parsing, with prototype-poisoning protection.
import type { FastifyInstance } from 'fastify';
import { OpenAIError } from '../errors/openai-error';

/**
 * `application/json` and `application/<x>+json`, with or without media-type parameters
 * (`; charset=utf-8`, what .NET, Java and many HTTP clients send). Fastify matches a parser's
 * pattern against the normalised header, parameters included.
 */
const JSON_MEDIA_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

export function isJsonContentType(header: string | undefined): boolean {
  return header !== undefined && JSON_MEDIA_TYPE.test(header.trim());
}

// JSON is UTF-8 (RFC 8259 §8.1): bytes that are not say so, rather than being replaced.
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

export function registerJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    JSON_MEDIA_TYPE,
    // As bytes: with 'string', Fastify decodes invalid UTF-8 to U+FFFD, then reports the
    // changed length as "Request body size did not match Content-Length".
    { parseAs: 'buffer', bodyLimit },
    (request, bytes, done) => {
      // Nothing here decompresses: a compressed body would otherwise be reported as not UTF-8
      // or not JSON, which is not what is wrong with it (RFC 7694: 415).
      const encoding = request.headers['content-encoding']?.trim().toLowerCase();
      if (encoding && encoding !== 'identity') {
        done(
          new OpenAIError(
            415,
            `Content-Encoding '${encoding}' is not supported; send the request body uncompressed.`,
            'invalid_request_error',
            null,
            'unsupported_media_type',
          ),
          undefined,
        );
        return;
      }
      if (bytes.length === 0) {
        done(OpenAIError.badRequest('The request body is empty; send a JSON object.'), undefined);
        return;
      }
      let body: string;
      try {
        body = utf8.decode(bytes as Buffer);
      } catch {
        done(
          OpenAIError.badRequest(
            'The request body is not valid UTF-8. JSON bodies must be encoded as UTF-8.',
          ),
          undefined,
        );
        return;
      }
      parseJson(request, body, (error, parsed) => {
        if (!error) return done(null, parsed);
        // Fastify's parser refuses prototype keys (poisoning protection) with the same error as
        // broken JSON; only on this error path, tell the two apart.
        done(
          OpenAIError.badRequest(
            isJson(body)
              ? "The request body holds a '__proto__' key or a 'constructor' key with " +
                  "'prototype', which the API does not accept; remove it."
              : 'We could not parse the JSON body of your request. The OpenAI API expects a ' +
                  'JSON payload; check that it is valid JSON.',
          ),
          undefined,
        );
      });
    },
  );
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
