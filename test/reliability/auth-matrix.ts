// Every route Tessera serves, streaming and multipart included, as the auth matrix sends it: the
// request a client of `model` would send. A key that may not use `model` must get 404
// model_not_found, as OpenAI answers for models a key cannot see.
type Body = NonNullable<RequestInit['body']>;

export interface RouteCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  /** A fresh body each time (a FormData or a stream cannot be sent twice). */
  body?: () => Promise<{ body: Body; headers: Record<string, string> }>;
}

const json = (value: unknown) => async () => ({
  body: JSON.stringify(value),
  headers: { 'content-type': 'application/json' },
});

/**
 * A multipart body serialized up front: sent with a content-length in one piece with its headers.
 * A FormData body is streamed after the headers, and the gateway answers a 401 before reading a
 * body and then closes the connection unread (gateway.hooks.ts `refuse`), so the upload races
 * the close and the client may see EPIPE instead of the 401.
 */
const form = (fields: Record<string, string>, audio: Buffer) => async () => {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  data.append('file', new Blob([new Uint8Array(audio)]), 'clip.wav');
  const encoded = new Response(data);
  return {
    body: Buffer.from(await encoded.arrayBuffer()) as Body,
    headers: { 'content-type': encoded.headers.get('content-type')! },
  };
};

const chat = { model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4 };
const speech = { model: 'tts-1', voice: 'alloy', input: 'Hello.' };

/** The routes, each naming a model the embeddings-only key may not use. */
export function routeCases(audio: Buffer): RouteCase[] {
  return [
    { name: 'GET /v1/models', method: 'GET', path: '/models' },
    { name: 'GET /v1/models/{model}', method: 'GET', path: '/models/gpt-4o-mini' },
    { name: 'chat', method: 'POST', path: '/chat/completions', body: json(chat) },
    {
      name: 'chat stream',
      method: 'POST',
      path: '/chat/completions',
      body: json({ ...chat, stream: true }),
    },
    {
      name: 'embeddings (another embeddings model)',
      method: 'POST',
      path: '/embeddings',
      body: json({ model: 'tiny-roberta-cls', input: 'hi' }),
    },
    {
      name: 'moderations',
      method: 'POST',
      path: '/moderations',
      body: json({ model: 'omni-moderation-latest', input: 'hi' }),
    },
    { name: 'speech', method: 'POST', path: '/audio/speech', body: json(speech) },
    {
      name: 'speech stream (sse)',
      method: 'POST',
      path: '/audio/speech',
      body: json({ ...speech, stream_format: 'sse' }),
    },
    {
      name: 'transcriptions (multipart)',
      method: 'POST',
      path: '/audio/transcriptions',
      body: form({ model: 'whisper-1' }, audio),
    },
    {
      name: 'transcriptions stream (multipart)',
      method: 'POST',
      path: '/audio/transcriptions',
      body: form({ model: 'whisper-1', stream: 'true' }, audio),
    },
    {
      name: 'translations (multipart)',
      method: 'POST',
      path: '/audio/translations',
      body: form({ model: 'whisper-1' }, audio),
    },
  ];
}

/** Sends `route` with `authorization` (or none) and returns the status and the parsed body. */
export async function sendRoute(
  baseURL: string,
  route: RouteCase,
  authorization: string | null,
): Promise<{ status: number; body: unknown; text: string }> {
  const payload = await route.body?.();
  const response = await fetch(`${baseURL}${route.path}`, {
    method: route.method,
    headers: {
      ...payload?.headers,
      ...(authorization === null ? {} : { authorization }),
    },
    body: payload?.body,
    signal: AbortSignal.timeout(60_000),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the assertions on the body say so
  }
  return { status: response.status, body, text };
}
