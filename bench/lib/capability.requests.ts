// One small, valid request per capability against a gateway (in-process or launched), for the
// overload bench and the overload and fault tests: each answer's status, headers and body (JSON
// parsed when it is JSON).
import type { Capability } from '@tessera/contracts';

export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

export interface CapabilityModels {
  embeddings: string;
  chat: string;
  moderation: string;
  speech: string;
  transcription: string;
}

async function answerOf(response: Response): Promise<Answer> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.startsWith('application/json');
  return {
    status: response.status,
    headers: response.headers,
    body: json ? JSON.parse(bytes.toString('utf8')) : bytes,
  };
}

/** `url`: the gateway's origin; `audio`: a short WAV clip for the transcription request. */
export function capabilityRequests(
  url: string,
  apiKey: string,
  models: CapabilityModels,
  audio: Buffer,
): Record<Capability, (init?: { signal?: AbortSignal }) => Promise<Answer>> {
  const authorization = `Bearer ${apiKey}`;
  const postJson = (path: string, body: unknown, signal?: AbortSignal) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    }).then(answerOf);
  return {
    embeddings: (init) =>
      postJson(
        '/v1/embeddings',
        {
          model: models.embeddings,
          input: Array.from({ length: 8 }, (_, i) => `sentence number ${i} `.repeat(8)),
        },
        init?.signal,
      ),
    chat: (init) =>
      postJson(
        '/v1/chat/completions',
        {
          model: models.chat,
          messages: [{ role: 'user', content: 'Tell me a story.' }],
          max_tokens: 30,
        },
        init?.signal,
      ),
    moderation: (init) =>
      postJson(
        '/v1/moderations',
        {
          model: models.moderation,
          input: Array.from({ length: 8 }, (_, i) => `text number ${i} `.repeat(8)),
        },
        init?.signal,
      ),
    speech: (init) =>
      postJson(
        '/v1/audio/speech',
        {
          model: models.speech,
          voice: 'alloy',
          input: 'One sentence here. Another one there. And a third to finish.',
          response_format: 'pcm',
        },
        init?.signal,
      ),
    transcription: (init) => {
      const form = new FormData();
      form.append('model', models.transcription);
      form.append('file', new Blob([new Uint8Array(audio)]), 'clip.wav');
      return fetch(`${url}/v1/audio/transcriptions`, {
        method: 'POST',
        headers: { authorization },
        body: form,
        signal: init?.signal,
      }).then(answerOf);
    },
  };
}
