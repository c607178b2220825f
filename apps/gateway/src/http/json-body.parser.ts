// JSON bodies are parsed here rather than by Nest's parser so that a malformed body becomes the
// OpenAI 400 directly (Nest would re-wrap Fastify's parse error and lose what it was).
// Fastify's own parser still does the parsing, with prototype-poisoning protection.
import type { FastifyInstance } from 'fastify';
import { OpenAIError } from '../errors/openai-error';

export function registerJsonBodyParser(fastify: FastifyInstance, bodyLimit: number): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    /^application\/(?:[\w.+-]+\+)?json$/i,
    { parseAs: 'string', bodyLimit },
    (request, raw, done) => {
      const body = raw.toString(); // a string already, as parseAs says
      if (body === '') {
        done(OpenAIError.badRequest('The request body is empty; send a JSON object.'), undefined);
        return;
      }
      parseJson(request, body, (error, parsed) => {
        if (!error) return done(null, parsed);
        done(
          OpenAIError.badRequest(
            'We could not parse the JSON body of your request. The OpenAI API expects a JSON ' +
              'payload; check that it is valid JSON.',
          ),
          undefined,
        );
      });
    },
  );
}
