// The chat service's readiness: one part per model, down while the model's scheduler is wedged
// (the host turns any part that is down into NOT_SERVING and a 503 /readyz).
import { Logger } from '@nestjs/common';
import type { DecoderModel } from '@tessera/decoder';
import { Registry } from 'prom-client';
import { ChatModels, type ChatModel } from './chat-models';

describe('ChatModels readiness', () => {
  it('reports each model progressing, and a stalled one not ready until it moves again', () => {
    const models = new ChatModels(
      { host: '127.0.0.1', grpcPort: 0, httpPort: 0, modelsFile: 'unused.yaml' },
      new Registry(),
    );
    const stalled = { a: false, b: false };
    const served = (['a', 'b'] as const).map(
      (id) =>
        ({
          spec: { id },
          decoder: { stalled: () => stalled[id] } as Partial<DecoderModel>,
        }) as ChatModel,
    );
    jest.spyOn(models, 'all').mockReturnValue(served);
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);

    expect(models.readiness()).toEqual({ 'a progressing': true, 'b progressing': true });
    stalled.b = true;
    expect(models.readiness()).toEqual({ 'a progressing': true, 'b progressing': false });
    expect(models.readiness()).toEqual({ 'a progressing': true, 'b progressing': false });
    expect(logged).toHaveBeenCalledTimes(1); // once per change, not once per check
    stalled.b = false;
    expect(models.readiness()).toEqual({ 'a progressing': true, 'b progressing': true });
  });
});
