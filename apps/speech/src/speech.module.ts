import { Module, type DynamicModule } from '@nestjs/common';
import type { ServiceConfig } from '@tessera/config';
import { capabilityServiceModule } from '@tessera/service';
import { SPEECH_ENCODE, ffmpegSpeechEncode } from './speech.encoder';
import { SPEECH_FRONT_END, espeakFrontEnd } from './speech.front-end';
import { SpeechModels } from './speech-models';
import { SpeechGrpcService } from './speech.grpc';
import { SynthesizeHandler } from './synthesize.handler';

@Module({})
export class SpeechModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    return capabilityServiceModule(SpeechModule, {
      capability: 'speech',
      config,
      service: SpeechGrpcService,
      providers: [
        SpeechModels,
        SynthesizeHandler,
        { provide: SPEECH_FRONT_END, useFactory: espeakFrontEnd },
        { provide: SPEECH_ENCODE, useValue: ffmpegSpeechEncode },
      ],
    });
  }
}
