// multipart/form-data (the audio uploads) through @fastify/multipart: its parser only marks the
// request; the route reads the parts as they arrive (request.parts(), with that route's limits)
// instead of the body being read here. Registered after the JSON parser, which first removes
// every default parser.
import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';

const MULTIPART_MEDIA_TYPE = /^multipart\/form-data\s*(?:;|$)/i;

export function isMultipartContentType(header: string | undefined): boolean {
  return header !== undefined && MULTIPART_MEDIA_TYPE.test(header.trim());
}

export async function registerMultipartParser(fastify: FastifyInstance): Promise<void> {
  await fastify.register(fastifyMultipart, {
    // Each route passes its own limits; these are for a route that forgets (none does).
    limits: { fileSize: 0, files: 0, fields: 0, parts: 0 },
  });
}
