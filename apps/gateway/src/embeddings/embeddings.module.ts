// POST /v1/embeddings: the request schema (embeddings.request.ts), the call to the embeddings
// service (embeddings.controller.ts) and the OpenAI response (embeddings.response.ts).
import { Module } from '@nestjs/common';
import { EmbeddingsController } from './embeddings.controller';

@Module({ controllers: [EmbeddingsController] })
export class EmbeddingsModule {}
