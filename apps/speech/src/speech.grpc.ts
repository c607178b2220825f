// The speech capability as the shared service host runs it: its Synthesize handler (a server
// stream), and its models' load (with warm-up), list (with their voices) and close. The host
// adds ListModels, health and the drain.
import { Inject, Injectable } from '@nestjs/common';
import { spawnHelper } from '@tessera/audio';
import type { SpeechHandlers } from '@tessera/contracts';
import { GrpcServerMetrics } from '@tessera/observability';
import { GrpcHandlerWrapper, type CapabilityService, type ServedModel } from '@tessera/service';
import { SPEECH_FRONT_END, type SpeechFrontEnd } from './speech.front-end';
import { SpeechModels } from './speech-models';
import { SynthesizeHandler } from './synthesize.handler';

@Injectable()
export class SpeechGrpcService implements CapabilityService {
  readonly handlers: Omit<SpeechHandlers, 'ListModels'>;

  constructor(
    private readonly speechModels: SpeechModels,
    @Inject(SPEECH_FRONT_END) private readonly frontEnd: SpeechFrontEnd,
    synthesizeHandler: SynthesizeHandler,
    metrics: GrpcServerMetrics,
  ) {
    const wrap = new GrpcHandlerWrapper(metrics);
    this.handlers = {
      Synthesize: wrap.serverStream((request, ctx) => synthesizeHandler.synthesize(request, ctx)),
    };
  }

  load(): Promise<void> {
    // The encoder's ffmpeg children are started by the spawn helper: fork it now, while this
    // process is small and no request waits (spawn.helper.ts).
    spawnHelper().start();
    return this.speechModels.load();
  }

  models(): readonly ServedModel[] {
    return this.speechModels.all();
  }

  async close(): Promise<void> {
    await this.speechModels.close();
    await this.frontEnd.close();
    await spawnHelper().close();
  }
}
