// The one error of rendering a prompt that is the request's fault: the model's chat template
// refused the conversation (a `raise_exception(...)` such as "Conversation roles must alternate
// user/assistant/user/assistant/...", or a message the template cannot print). The chat service
// answers it with 400 on `messages`; a template that cannot render at all fails at load instead.
export class ChatTemplateError extends Error {
  constructor(cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`The model's chat template rejected the messages: ${reason}`, { cause });
    this.name = 'ChatTemplateError';
  }
}
