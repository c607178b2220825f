// POST /v1/chat/completions: the request schema (chat.request.ts, chat-messages.request.ts,
// chat-parameters.policy.ts), the Generate call (chat.controller.ts) and the OpenAI response,
// whole (chat-completion.aggregate.ts) or streamed (chat-chunks.ts).
import { Module } from '@nestjs/common';
import { ImagesModule } from '../images/images.module';
import { ChatContextLengths } from './chat-context.lengths';
import { ChatController } from './chat.controller';

@Module({ imports: [ImagesModule], controllers: [ChatController], providers: [ChatContextLengths] })
export class ChatModule {}
