// What DecoderModel.generate refuses before any work is queued; the chat service maps each to
// a 400 with the OpenAI error body (by class, never by message).

/** Prompt + requested output do not fit the model's context (never silently truncated). */
export class ContextLengthExceededError extends Error {
  override readonly name = 'ContextLengthExceededError';

  constructor(
    readonly promptTokens: number,
    /** The requested max tokens; undefined when the prompt alone fills the context. */
    readonly maxTokens: number | undefined,
    readonly contextLength: number,
    /** 'at least': promptTokens is a lower bound (a prompt refused from its length alone). */
    count: 'exact' | 'at least' = 'exact',
  ) {
    const prompt = count === 'exact' ? `${promptTokens}` : `at least ${promptTokens}`;
    super(
      maxTokens === undefined
        ? `This model's maximum context length is ${contextLength} tokens. However, your ` +
            `messages resulted in ${prompt} tokens, which leaves no room for a completion.`
        : `This model's maximum context length is ${contextLength} tokens. However, you ` +
            `requested ${promptTokens + maxTokens} tokens (${promptTokens} in the messages, ` +
            `${maxTokens} in the completion). Please reduce the length of the messages or ` +
            `completion.`,
    );
  }
}

/** A logit_bias key that is not a token id of the model. */
export class LogitBiasTokenError extends Error {
  override readonly name = 'LogitBiasTokenError';

  constructor(
    readonly tokenId: number,
    readonly vocabSize: number,
  ) {
    super(
      `Invalid key in 'logit_bias': ${tokenId}. Token ids must be integers from 0 to ` +
        `${vocabSize - 1} for this model.`,
    );
  }
}

/**
 * A response_format schema (or a tool's parameters) the grammar engine cannot turn into a
 * grammar: an unsupported type, an unresolvable $ref, an invalid pattern. Thrown in the worker;
 * it comes back to the main thread as an Error with this name (worker errors keep only name and
 * message), so callers test it with `GrammarCompileError.is` and know from the request which
 * field it was about (toolsActive).
 */
export class GrammarCompileError extends Error {
  static readonly errorName = 'GrammarCompileError';
  override readonly name = GrammarCompileError.errorName;

  constructor(reason: string, subject: 'response_format' | 'tools') {
    super(
      subject === 'tools'
        ? `Invalid 'tools': the tools' parameters cannot be enforced: ${reason}`
        : `Invalid schema for 'response_format': ${reason}`,
    );
  }

  static is(error: unknown): error is Error {
    return error instanceof Error && error.name === GrammarCompileError.errorName;
  }
}
/** An image part the image processor cannot read (not an image, truncated, unsupported). */
export class ImageDecodeError extends Error {
  override readonly name = 'ImageDecodeError';

  constructor(
    /** The part, as OpenAI names it: `messages[i].content[j].image_url`. */
    readonly param: string,
    cause: unknown,
  ) {
    super(`${param} is not an image this model can read: ${(cause as Error).message ?? cause}`, {
      cause,
    });
  }
}

/**
 * An image part refused from its header, before anything is decoded: more pixels than one image
 * may have, or than the request's images may have together.
 */
export class ImageTooLargeError extends Error {
  override readonly name = 'ImageTooLargeError';

  constructor(
    /** The part, as OpenAI names it: `messages[i].content[j].image_url`. */
    readonly param: string,
    reason: string,
  ) {
    super(`Invalid '${param}': ${reason}.`);
  }
}

/** The chat template did not place one image placeholder per image part of the messages. */
export class ImagePlaceholderError extends Error {
  override readonly name = 'ImagePlaceholderError';
}
