// The OpenAI error body as the e2e tests expect it: the status, exactly the four fields, the
// spec's ErrorResponse, the `param` and `code` named, and a message written for API users.
import { expectSchema } from './openai-schemas';

export interface ExpectedOpenAIError {
  param: string | null;
  code: string | null;
  type?: string;
  message?: RegExp;
}

export function expectOpenAIError(
  response: { status: number; body: unknown },
  status: number,
  error: ExpectedOpenAIError,
): void {
  expect(response.status).toBe(status);
  expectSchema('ErrorResponse', response.body);
  const body = response.body as { error: Record<string, unknown> };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).sort()).toEqual(['code', 'message', 'param', 'type']);
  expect(body.error.param).toBe(error.param);
  expect(body.error.code).toBe(error.code);
  expect(body.error.type).toBe(error.type ?? 'invalid_request_error');
  expect(typeof body.error.message).toBe('string');
  // Written for API users: never the validator's own text ("Invalid input: expected number,
  // received string").
  expect(body.error.message).not.toMatch(/Invalid input|received/);
  if (error.message) expect(body.error.message).toMatch(error.message);
}
