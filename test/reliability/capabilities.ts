// One request per capability, as a client of the running stack sends it, classified by what the
// client saw: the HTTP status, or for a stream whether it was well-formed and finished. The load,
// the faults and the usage-log check all send through here.
import { randomUUID } from 'node:crypto';
import { CAPABILITIES, type Capability } from '@tessera/contracts';

export { CAPABILITIES, type Capability };

/**
 * `ok`: a 200 with a complete, well-formed answer. `stream_error`: a 200 stream that ended with
 * an OpenAI error event (what a client of a dying upstream must get). `cut`: a 200 whose body
 * the server aborted before its end (what a client reading raw audio from a dying upstream
 * must get: it has no error event, see speech-audio.body.ts). `malformed`: anything else after
 * a 200 (an unparsable or unfinished stream: never acceptable). `network`: no HTTP answer at
 * all. Otherwise the HTTP status as text ('429', '503', …).
 */
export type OutcomeKind = 'ok' | 'stream_error' | 'cut' | 'malformed' | 'network' | `${number}`;

export interface Outcome {
  capability: Capability;
  kind: OutcomeKind;
  requestId: string;
  /** When the answer finished, ms since the epoch. */
  at: number;
  /** For a non-2xx: its Retry-After header and whether the body was the OpenAI error body. */
  retryAfter?: string | null;
  openAIErrorBody?: boolean;
  detail?: string;
}

export interface Client {
  baseURL: string;
  key: string;
  /** A short WAV clip for transcriptions. */
  audio: Buffer;
}

/** Checks a chat SSE body: JSON chunks, then `[DONE]`; or an error event as the last event. */
export function classifyChatStream(text: string): { kind: OutcomeKind; detail?: string } {
  const events = text
    .split('\n\n')
    .map((event) => event.trim())
    .filter((event) => event !== '');
  if (events.length === 0) return { kind: 'malformed', detail: 'empty stream' };
  for (const [index, event] of events.entries()) {
    if (!event.startsWith('data: ')) return { kind: 'malformed', detail: `not data: ${event}` };
    const data = event.slice('data: '.length);
    const last = index === events.length - 1;
    if (data === '[DONE]') {
      return last ? { kind: 'ok' } : { kind: 'malformed', detail: 'events after [DONE]' };
    }
    let parsed: { object?: string; choices?: unknown; error?: unknown };
    try {
      parsed = JSON.parse(data) as typeof parsed;
    } catch {
      return { kind: 'malformed', detail: `not JSON: ${data.slice(0, 200)}` };
    }
    if (parsed.error !== undefined) {
      return last
        ? { kind: 'stream_error', detail: data.slice(0, 300) }
        : { kind: 'malformed', detail: 'events after an error event' };
    }
    if (parsed.object !== 'chat.completion.chunk' || !Array.isArray(parsed.choices)) {
      return { kind: 'malformed', detail: `not a chunk: ${data.slice(0, 200)}` };
    }
  }
  return { kind: 'malformed', detail: 'ended without [DONE]' };
}

function isOpenAIErrorBody(text: string): boolean {
  try {
    const body = JSON.parse(text) as { error?: Record<string, unknown> };
    const error = body.error;
    return (
      Object.keys(body).length === 1 &&
      typeof error === 'object' &&
      error !== null &&
      Object.keys(error).sort().join() === 'code,message,param,type' &&
      typeof error.message === 'string'
    );
  } catch {
    return false;
  }
}

function request(capability: Capability, client: Client): { path: string; init: RequestInit } {
  const json = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  switch (capability) {
    case 'chat':
      return {
        path: '/chat/completions',
        init: json({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'Say something reliable.' }],
          max_tokens: 16,
          stream: true,
        }),
      };
    case 'embeddings':
      return {
        path: '/embeddings',
        init: json({ model: 'text-embedding-3-small', input: ['one', 'two words', 'three'] }),
      };
    case 'moderation':
      return {
        path: '/moderations',
        init: json({ model: 'omni-moderation-latest', input: 'Is this fine?' }),
      };
    case 'speech':
      return {
        path: '/audio/speech',
        init: json({
          model: 'tts-1',
          voice: 'alloy',
          input: 'Hello there.',
          response_format: 'wav',
        }),
      };
    case 'transcription': {
      const form = new FormData();
      form.append('model', 'whisper-1');
      form.append('file', new Blob([new Uint8Array(client.audio)]), 'clip.wav');
      return { path: '/audio/transcriptions', init: { method: 'POST', body: form } };
    }
  }
}

/** Sends one request of `capability` and waits for its whole answer. */
export async function send(
  capability: Capability,
  client: Client,
  timeoutMs = 190_000,
): Promise<Outcome> {
  const requestId = `rel-${capability}-${randomUUID()}`;
  const { path, init } = request(capability, client);
  const outcome = (kind: OutcomeKind, extra: Partial<Outcome> = {}): Outcome => ({
    capability,
    kind,
    requestId,
    at: Date.now(),
    ...extra,
  });
  let response: Response;
  try {
    response = await fetch(`${client.baseURL}${path}`, {
      ...init,
      headers: {
        ...(init.headers as Record<string, string>),
        authorization: `Bearer ${client.key}`,
        'x-request-id': requestId,
      },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return outcome('network', { detail: (error as Error).message });
  }
  let text: string;
  try {
    // Binary audio read as text is fine: only its completeness matters here.
    text = await response.text();
  } catch (error) {
    const kind = response.status === 200 ? 'cut' : 'network';
    return outcome(kind, { detail: (error as Error).message });
  }
  if (response.status !== 200) {
    return outcome(`${response.status}`, {
      retryAfter: response.headers.get('retry-after'),
      openAIErrorBody: isOpenAIErrorBody(text),
      detail: text.slice(0, 300),
    });
  }
  if (capability === 'chat') {
    const { kind, detail } = classifyChatStream(text);
    return outcome(kind, { detail });
  }
  return text.length > 0 ? outcome('ok') : outcome('malformed', { detail: 'empty body' });
}
