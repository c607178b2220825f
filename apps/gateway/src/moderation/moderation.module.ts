// POST /v1/moderations: the request schema (moderation.request.ts), the Classify call to the
// moderation service (moderation.controller.ts) and the OpenAI response (moderation.response.ts).
import { Module } from '@nestjs/common';
import { ModerationController } from './moderation.controller';

@Module({ controllers: [ModerationController] })
export class ModerationModule {}
