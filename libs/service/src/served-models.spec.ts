// What every capability's models class inherits: the models file's entries of its capability
// opened in order with their options checked, the lookup by id or alias, and close() freeing
// everything opened, a model that failed half-way included.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { z } from 'zod';
import { ServedModels, type ModelToOpen } from './served-models';
import type { ServedModel } from './capability-service';

const OptionsSchema = z.strictObject({
  size: z.number().int().default(1),
  fail: z.boolean().default(false),
});

interface FakeModel extends ServedModel {
  readonly size: number;
}

class FakeModels extends ServedModels<FakeModel, typeof OptionsSchema> {
  protected readonly capability = 'embeddings';
  protected readonly optionsSchema = OptionsSchema;
  readonly events: string[] = [];

  protected async open(entry: ModelToOpen<z.infer<typeof OptionsSchema>>): Promise<FakeModel> {
    const { spec, options, created } = entry;
    for (const part of ['runtime', 'batcher']) {
      this.closesWithService({
        close: async () => void this.events.push(`close ${spec.id} ${part}`),
      });
      if (options.fail) throw new Error(`${spec.id} failed after its ${part}`);
    }
    return { spec, created, size: options.size };
  }
}

describe('ServedModels', () => {
  let dir: string;
  const models = (entries: string) => {
    const file = join(dir, 'models.yaml');
    writeFileSync(file, `models:\n${entries}`);
    return new FakeModels(
      { host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile: file },
      new Registry(),
    );
  };
  const entry = (id: string, extra = '') =>
    `  - {id: ${id}, capability: embeddings, source: ./${id}, file: model.onnx${extra}}\n`;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'served-models-spec-'));
    for (const id of ['a', 'b', 'c']) {
      mkdirSync(join(dir, id));
      writeFileSync(join(dir, id, 'model.onnx'), '');
    }
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("opens its capability's entries, finds them by id or alias, closes them last first", async () => {
    const served = models(
      entry('a', ', aliases: [first], options: {size: 4}') +
        entry('b') +
        '  - {id: c, capability: chat, source: ./c, file: model.onnx}\n',
    );
    await served.load();

    expect(served.all().map((model) => [model.spec.id, model.size])).toEqual([
      ['a', 4],
      ['b', 1],
    ]);
    expect(served.find('first')?.spec.id).toBe('a');
    expect(served.find('b')?.spec.id).toBe('b');
    expect(served.find('c')).toBeUndefined(); // another capability's
    await served.close();
    expect(served.events).toEqual([
      'close b batcher',
      'close b runtime',
      'close a batcher',
      'close a runtime',
    ]);
  });

  it('a model that fails half-way stops the load; close() still frees what it opened', async () => {
    const served = models(entry('a') + entry('b', ', options: {fail: true}'));
    await expect(served.load()).rejects.toThrow('b failed after its runtime');
    await served.close();
    expect(served.events).toEqual(['close b runtime', 'close a batcher', 'close a runtime']);
  });

  it('a bad option stops the load, naming the model and the file', async () => {
    const served = models(entry('a', ', options: {size: 1.5}'));
    await expect(served.load()).rejects.toThrow(
      /invalid options for embeddings model 'a' in .*models\.yaml: size: /,
    );
  });
});
