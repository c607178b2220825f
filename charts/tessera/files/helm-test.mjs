// `helm test`: calls one capability through the gateway, as an OpenAI client would, and fails
// (exit 1) unless the answer has the shape of a real result. Runs in the Tessera image itself
// (Node's fetch, FormData and Blob), so a test needs no image that the release did not pull.
//   node helm-test.mjs <capability> <model> [voice]
// TESSERA_URL: the gateway; the API key is the first of the mounted keys file.
/* global process, fetch, FormData, Blob, Buffer, AbortSignal, console */
import { readFileSync } from 'node:fs';

const [capability, model, voice] = process.argv.slice(2);
const base = process.env.TESSERA_URL;
const key = readFileSync(process.env.TESSERA_API_KEYS_FILE, 'utf8')
  .split(/[\n,]/)
  .map((k) => k.trim())
  .find(Boolean);

/** One second of a 440 Hz tone: 16 kHz mono 16-bit PCM in a WAV container. */
function toneWav() {
  const rate = 16000;
  const samples = rate;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  for (let i = 0; i < samples; i++) {
    wav.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / rate)), 44 + i * 2);
  }
  return wav;
}

const json = (body) => ({
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json' },
});

// capability → [path, request, check of the response]
const calls = {
  embeddings: [
    '/v1/embeddings',
    () => json({ model, input: 'helm test' }),
    async (res) => (await res.json()).data[0].embedding.length > 0,
  ],
  chat: [
    '/v1/chat/completions',
    () => json({ model, messages: [{ role: 'user', content: 'Say hello.' }], max_tokens: 8 }),
    async (res) => typeof (await res.json()).choices[0].message.content === 'string',
  ],
  moderation: [
    '/v1/moderations',
    () => json({ model, input: 'I like tea.' }),
    async (res) => typeof (await res.json()).results[0].flagged === 'boolean',
  ],
  speech: [
    '/v1/audio/speech',
    () => json({ model, input: 'Hello from helm test.', voice, response_format: 'wav' }),
    async (res) => {
      const audio = Buffer.from(await res.arrayBuffer());
      return audio.length > 44 && audio.toString('latin1', 0, 4) === 'RIFF';
    },
  ],
  transcription: [
    '/v1/audio/transcriptions',
    () => {
      const form = new FormData();
      form.append('model', model);
      form.append('file', new Blob([toneWav()], { type: 'audio/wav' }), 'tone.wav');
      return { body: form, headers: {} };
    },
    async (res) => typeof (await res.json()).text === 'string',
  ],
};

const [path, request, check] = calls[capability];
const { body, headers } = request();
const res = await fetch(base + path, {
  method: 'POST',
  body,
  headers: { ...headers, authorization: `Bearer ${key}` },
  signal: AbortSignal.timeout(300_000),
}).catch((error) => {
  // No answer at all: the gateway unreachable, or it closed the upload it refused.
  console.error(`${capability}: ${path} failed: ${error.cause?.message ?? error.message}`);
  process.exit(1);
});
if (!res.ok) {
  console.error(`${capability}: ${path} answered ${res.status}: ${await res.text()}`);
  process.exit(1);
}
if (!(await check(res))) {
  console.error(`${capability}: ${path} answered ${res.status} without the expected result`);
  process.exit(1);
}
console.log(`${capability}: ${path} with model ${model} answered ${res.status} as expected`);
