import { status, type ServiceError } from '@grpc/grpc-js';
import { GrpcStatusError, grpcErrorDetails, modelNotServed } from './grpc-error';

describe('GrpcStatusError', () => {
  it("sends its param, code and wait in the trailers, which the caller's side reads back", () => {
    const sent = new GrpcStatusError(status.RESOURCE_EXHAUSTED, 'busy', {
      param: 'input',
      code: 'rate_limit_exceeded',
      retryAfterMs: 1_200.4,
    }).toServiceError();
    expect([sent.code, sent.message]).toEqual([status.RESOURCE_EXHAUSTED, 'busy']);
    expect(grpcErrorDetails(sent as ServiceError)).toEqual({
      param: 'input',
      code: 'rate_limit_exceeded',
      retryAfterMs: 1_201,
    });
  });

  it('reads null param and code, and no wait, from trailers that carry none', () => {
    const sent = new GrpcStatusError(status.INVALID_ARGUMENT, 'bad').toServiceError();
    expect(grpcErrorDetails(sent as ServiceError)).toEqual({ param: null, code: null });
  });

  it("names a model no service serves as NOT_FOUND with OpenAI's model_not_found", () => {
    const error = modelNotServed('gpt-x', 'embeddings');
    expect(error.code).toBe(status.NOT_FOUND);
    expect(error.details).toEqual({ param: 'model', code: 'model_not_found' });
  });
});
