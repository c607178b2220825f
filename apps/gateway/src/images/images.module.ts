// Image inputs read at the gateway (image-inputs.service.ts); imported by each capability
// module that takes images (chat today, moderation's image inputs later).
import { Module } from '@nestjs/common';
import type { GatewayConfig } from '@tessera/config';
import { GATEWAY_CONFIG } from '../gateway.injection';
import { ImageInputs } from './image-inputs.service';

@Module({
  providers: [
    {
      provide: ImageInputs,
      useFactory: (config: GatewayConfig) => new ImageInputs(config.images),
      inject: [GATEWAY_CONFIG],
    },
  ],
  exports: [ImageInputs],
})
export class ImagesModule {}
