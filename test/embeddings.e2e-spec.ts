// /v1/embeddings end to end: official SDK and raw HTTP → gateway → gRPC → embeddings service →
// ONNX Runtime on the tiny fixture encoders.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { AutoTokenizer } from '@huggingface/transformers';
import { fixtureModelDir } from '@tessera/testing';
import { post, useStack } from './support/test-stack';

const stack = useStack();

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
const maxDiff = (a: number[], b: number[]) => Math.max(...a.map((x, i) => Math.abs(x - b[i])));

async function embedFloat(input: string | string[] | number[] | number[][], extra = {}) {
  const response = await stack().gateway.client.embeddings.create({
    model: 'tiny-bert',
    input,
    encoding_format: 'float',
    ...extra,
  });
  return response;
}

/** Model runs and inputs so far for tiny-bert, from the embeddings service's /metrics. */
async function batchStats(): Promise<{ runs: number; inputs: number }> {
  const metrics = await (await fetch(`${await stack().embeddings.app.getUrl()}/metrics`)).text();
  const value = (series: string) => {
    const line = metrics
      .split('\n')
      .find(
        (l) =>
          l.startsWith(`tessera_embeddings_batch_items_${series}{`) && l.includes('"tiny-bert"'),
      );
    return line ? Number(line.split(' ').pop()) : 0;
  };
  return { runs: value('count'), inputs: value('sum') };
}

describe('POST /v1/embeddings', () => {
  // reference.json: token ids and embeddings computed by sentence-transformers on the PyTorch
  // weights the fixture was exported from (tools/fixtures).
  it.each(['tiny-bert', 'tiny-roberta-cls'])(
    'matches sentence-transformers on the %s fixture',
    async (model) => {
      const reference = JSON.parse(
        fs.readFileSync(path.join(fixtureModelDir(model), 'reference.json'), 'utf8'),
      ) as { sentences: string[]; input_ids: number[][]; embeddings: number[][] };
      const response = await stack().gateway.client.embeddings.create({
        model,
        input: reference.sentences,
        encoding_format: 'float',
      });
      const tokens = reference.input_ids.reduce((sum, ids) => sum + ids.length, 0);
      expect(response.usage.prompt_tokens).toBe(tokens);
      reference.embeddings.forEach((expected, i) => {
        // OpenAI embeddings are unit length, so Tessera normalises even where the model's own
        // sentence-transformers config does not.
        const unit = expected.map((x) => x / norm(expected));
        expect(maxDiff(response.data[i].embedding, unit)).toBeLessThan(1e-5);
      });
    },
  );

  it('embeds a string as floats with the OpenAI response shape', async () => {
    const response = await embedFloat('hello world');
    expect(response.object).toBe('list');
    expect(response.model).toBe('tiny-bert');
    expect(response.data).toHaveLength(1);
    expect(response.data[0].object).toBe('embedding');
    expect(response.data[0].index).toBe(0);
    expect(response.data[0].embedding).toHaveLength(32);
    expect(norm(response.data[0].embedding)).toBeCloseTo(1, 5);
    expect(response.usage.prompt_tokens).toBeGreaterThan(2);
    expect(response.usage.total_tokens).toBe(response.usage.prompt_tokens);
  });

  it('returns the same vector as base64 (the SDK default) and as float', async () => {
    const asFloat = await embedFloat('the quick brown fox');
    const viaSdkDefault = await stack().gateway.client.embeddings.create({
      model: 'tiny-bert',
      input: 'the quick brown fox',
    });
    expect(viaSdkDefault.data[0].embedding).toEqual(asFloat.data[0].embedding);

    const raw = await post(stack().gateway, '/v1/embeddings', {
      model: 'tiny-bert',
      input: 'the quick brown fox',
      encoding_format: 'base64',
    });
    expect(raw.status).toBe(200);
    const b64 = (raw.body as { data: Array<{ embedding: string }> }).data[0].embedding;
    expect(typeof b64).toBe('string');
    const bytes = Buffer.from(b64, 'base64');
    const decoded = Array.from({ length: bytes.length / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    expect(decoded).toEqual(asFloat.data[0].embedding);
  });

  it('embeds an array of strings in order, each as if alone', async () => {
    const texts = ['first sentence', 'a second, rather longer sentence about the weather', 'third'];
    const batch = await embedFloat(texts);
    expect(batch.data.map((d) => d.index)).toEqual([0, 1, 2]);
    for (const [i, text] of texts.entries()) {
      const alone = await embedFloat(text);
      expect(maxDiff(batch.data[i].embedding, alone.data[0].embedding)).toBeLessThan(1e-5);
    }
    const distinct = maxDiff(batch.data[0].embedding, batch.data[1].embedding);
    expect(distinct).toBeGreaterThan(1e-3);
  });

  it('accepts token ids and arrays of token ids, equal to the text they encode', async () => {
    const tokenizer = await AutoTokenizer.from_pretrained(fixtureModelDir('tiny-bert'), {
      local_files_only: true,
    });
    const ids = Array.from(tokenizer.encode('hello world')) as number[];
    const text = await embedFloat('hello world');
    const tokens = await embedFloat(ids);
    expect(tokens.usage.prompt_tokens).toBe(ids.length);
    expect(maxDiff(tokens.data[0].embedding, text.data[0].embedding)).toBeLessThan(1e-6);
    const many = await embedFloat([ids, ids.slice(0, 3)]);
    expect(many.data).toHaveLength(2);
    expect(maxDiff(many.data[0].embedding, text.data[0].embedding)).toBeLessThan(1e-5);
  });

  it('truncates to `dimensions` and re-normalises', async () => {
    const full = await embedFloat('dimensions test');
    const short = await embedFloat('dimensions test', { dimensions: 8 });
    expect(short.data[0].embedding).toHaveLength(8);
    expect(norm(short.data[0].embedding)).toBeCloseTo(1, 5);
    const prefix = full.data[0].embedding.slice(0, 8);
    const scaled = prefix.map((x) => x / norm(prefix));
    expect(maxDiff(short.data[0].embedding, scaled)).toBeLessThan(1e-5);
  });

  it('routes an alias to its model and echoes the requested name', async () => {
    const response = await stack().gateway.client.embeddings.create({
      model: 'text-embedding-3-small',
      input: 'alias',
      encoding_format: 'float',
    });
    const direct = await embedFloat('alias');
    expect(response.model).toBe('text-embedding-3-small');
    expect(response.data[0].embedding).toEqual(direct.data[0].embedding);
  });

  it('serves a CLS-pooled encoder without token_type_ids', async () => {
    const response = await stack().gateway.client.embeddings.create({
      model: 'tiny-roberta-cls',
      input: ['hello world', 'something else entirely'],
      encoding_format: 'float',
    });
    expect(response.data).toHaveLength(2);
    for (const d of response.data) expect(norm(d.embedding)).toBeCloseTo(1, 5);
  });

  it('batches concurrent requests with results identical to running each alone', async () => {
    const texts = Array.from({ length: 24 }, (_, i) =>
      Array.from({ length: 1 + ((i * 7) % 20) }, (_, j) => `word${(i + j) % 50}`).join(' '),
    );
    const alone: number[][] = [];
    for (const text of texts) alone.push((await embedFloat(text)).data[0].embedding);
    const before = await batchStats();
    const together = await Promise.all(texts.map((text) => embedFloat(text)));
    const after = await batchStats();
    together.forEach((response, i) =>
      expect(maxDiff(response.data[0].embedding, alone[i])).toBeLessThan(1e-5),
    );
    // The service's batch histogram: every input ran, in fewer model runs than requests.
    expect(after.inputs - before.inputs).toBe(texts.length);
    expect(after.runs - before.runs).toBeLessThan(texts.length);
  });

  it('accepts `user` and null optional fields', async () => {
    const raw = await post(stack().gateway, '/v1/embeddings', {
      model: 'tiny-bert',
      input: 'x',
      user: 'user-123',
      dimensions: null,
      encoding_format: null,
    });
    expect(raw.status).toBe(200);
    expect((raw.body as { data: Array<{ embedding: number[] }> }).data[0].embedding).toHaveLength(
      32,
    );
  });
});
