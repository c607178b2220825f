// A raw multipart POST for the transcription tests: the parts in the order given (the SDK sends
// them in its own), a Blob value as a file part; the answer parsed when it is JSON.
export type FormPart = [name: string, value: string | Blob, filename?: string];

export async function postForm(
  url: string,
  apiKey: string,
  parts: readonly FormPart[],
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const form = new FormData();
  for (const [name, value, filename] of parts) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, filename ?? 'clip.wav');
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, ...headers },
    body: form,
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a plain body (text, srt, vtt)
  }
  return { status: response.status, headers: response.headers, body };
}
