import { status, type ServiceError } from '@grpc/grpc-js';
import { GrpcStatusError, grpcErrorDetails } from '@tessera/contracts';
import * as runtime from '@tessera/runtime';
import { grpcStatusErrorOf, knownGrpcStatusErrorOf } from './runtime-error.status';

describe('grpcStatusErrorOf', () => {
  it.each([
    [new runtime.QueueFullError('3 jobs are waiting'), status.RESOURCE_EXHAUSTED],
    [new runtime.WorkCancelledError('cancelled by the caller'), status.CANCELLED],
    [new runtime.WorkDeadlineError('the deadline passed'), status.DEADLINE_EXCEEDED],
    [new runtime.MicroBatcherClosedError('batcher is closed'), status.UNAVAILABLE],
    [new runtime.OrtWorkerPoolUnavailableError('pool is closed'), status.UNAVAILABLE],
  ])('maps the runtime refusal %p to its status', (thrown, code) => {
    expect(grpcStatusErrorOf(thrown).code).toBe(code);
  });

  it('tells a caller of a full queue to retry, with the rate-limit code', () => {
    const error = grpcStatusErrorOf(new runtime.QueueFullError('3 jobs are waiting'));
    expect(error.message).toBe('The model is busy: 3 jobs are waiting; retry shortly.');
    expect(error.details.code).toBe('rate_limit_exceeded');
  });

  it('carries the wait a refusal knows to the caller in the trailers, and none when unknown', () => {
    const timed = grpcStatusErrorOf(new runtime.QueueFullError('work ahead', 2_400.2));
    expect(grpcErrorDetails(timed.toServiceError() as ServiceError)).toEqual({
      param: null,
      code: 'rate_limit_exceeded',
      retryAfterMs: 2_401,
    });
    const plain = grpcStatusErrorOf(new runtime.QueueFullError('3 jobs are waiting'));
    expect(grpcErrorDetails(plain.toServiceError() as ServiceError)).not.toHaveProperty(
      'retryAfterMs',
    );
  });

  it('keeps a GrpcStatusError as thrown, and hides anything unknown behind INTERNAL', () => {
    const own = new GrpcStatusError(status.NOT_FOUND, 'no such model');
    expect(grpcStatusErrorOf(own)).toBe(own);
    const unknown = grpcStatusErrorOf(new Error('worker exited with code 1'));
    expect([unknown.code, unknown.message]).toEqual([status.INTERNAL, 'internal error']);
    expect(knownGrpcStatusErrorOf(new Error('boom'))).toBeUndefined();
  });

  it("answers an unknown error thrown after the call was aborted with the abort's status", () => {
    const abort = new AbortController();
    abort.abort(new GrpcStatusError(status.CANCELLED, 'cancelled by the caller'));
    expect(grpcStatusErrorOf(new Error('stream closed'), abort.signal).code).toBe(status.CANCELLED);
  });
});
