// The OpenAI error body, `{"error": {"message", "type", "param", "code"}}`, and the one class
// every gateway error becomes before it is sent.
export type OpenAIErrorType =
  | 'invalid_request_error'
  | 'authentication_error'
  | 'not_found_error'
  | 'rate_limit_error'
  | 'server_error'
  | 'service_unavailable_error'
  | 'timeout_error'
  // A per-key rate limit: OpenAI names the exhausted budget (limits/rate-limit.dimensions.ts).
  | 'requests'
  | 'tokens'
  | 'audio-seconds'
  | 'characters'
  | 'concurrent_streams';

export interface OpenAIErrorBody {
  error: { message: string; type: OpenAIErrorType; param: string | null; code: string | null };
}

export class OpenAIError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: OpenAIErrorType,
    readonly param: string | null = null,
    readonly code: string | null = null,
    /** When the client may try again, if known (429, 503); else the status' default applies. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'OpenAIError';
  }

  toBody(): OpenAIErrorBody {
    return {
      error: { message: this.message, type: this.type, param: this.param, code: this.code },
    };
  }

  static badRequest(message: string, param: string | null = null, code: string | null = null) {
    return new OpenAIError(400, message, 'invalid_request_error', param, code);
  }

  static modelNotFound(model: string) {
    return new OpenAIError(
      404,
      `The model '${model}' does not exist or you do not have access to it.`,
      'invalid_request_error',
      'model',
      'model_not_found',
    );
  }

  static unsupportedMediaType(expected = 'application/json') {
    return new OpenAIError(
      415,
      `Unsupported content type: this endpoint expects '${expected}'.`,
      'invalid_request_error',
      null,
      'unsupported_media_type',
    );
  }

  static requestTooLarge(limitBytes: number) {
    return new OpenAIError(
      413,
      `The request body is larger than the limit of ${limitBytes} bytes.`,
      'invalid_request_error',
      null,
      'request_too_large',
    );
  }

  static unknownUrl(method: string, path: string) {
    return new OpenAIError(
      404,
      `Unknown request URL: ${method} ${path}.`,
      'invalid_request_error',
      null,
      'unknown_url',
    );
  }

  static shuttingDown() {
    return new OpenAIError(
      503,
      'The server is shutting down and takes no new requests; try again shortly.',
      'service_unavailable_error',
      null,
      'server_shutting_down',
    );
  }

  /** A request in flight when the gateway's drain time ran out. */
  static endedByShutdown() {
    return new OpenAIError(
      503,
      'The server shut down before the request completed; try again.',
      'service_unavailable_error',
      null,
      'server_shutting_down',
    );
  }

  static internal() {
    return new OpenAIError(500, 'The server had an error processing your request.', 'server_error');
  }
}
