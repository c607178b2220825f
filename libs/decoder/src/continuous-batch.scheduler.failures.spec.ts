/** @jest-environment ./libs/decoder/test/ort.environment.ts */
// An error in any stage of one job — admission, prefill, joining the batch, a decode step,
// emitting an event — fails that job alone: a job beside it completes, and every sequence and
// KV token the failed job held is given back (a job as wide as the whole batch still runs).
import { SchedulerHarness, text, until, type StartedJob } from '../test/scheduler.harness';
import type { ContinuousBatchScheduler } from './continuous-batch.scheduler';
import type { GenerateJob } from './decoder.protocol';
import * as sampling from './sampling';

const MAX_SEQUENCES = 8;

describe('ContinuousBatchScheduler when one job fails', () => {
  let harness: SchedulerHarness;
  let target: ContinuousBatchScheduler;
  /** Its own prompt ids (no chat template), so a spy can tell its prefill chunks apart. */
  let doomed: GenerateJob;
  let other: GenerateJob;

  beforeAll(async () => (harness = await SchedulerHarness.load()));
  afterAll(() => harness.session.release());
  beforeEach(() => {
    // Chunks of 8: the two prompts are prefilled one chunk at a time, not packed together.
    target = harness.scheduler({ maxSequences: MAX_SEQUENCES, prefillChunkTokens: 8 });
    doomed = harness.job('', {
      promptIds: Array.from({ length: 20 }, (_, i) => 1000 + i),
      n: 3,
      maxTokens: 8,
    });
    other = harness.job('What is the capital of France?', { n: 2, maxTokens: 8 });
  });
  afterEach(() => jest.restoreAllMocks());

  /** The doomed job rejects with `message`, the other completes, and nothing stays reserved. */
  async function expectOnlyDoomedFailed(
    failing: StartedJob,
    running: StartedJob,
    message: string,
  ): Promise<void> {
    await expect(running.done).resolves.toMatchObject({ completionTokens: 16 });
    await expect(failing.done).rejects.toThrow(message);
    expect(text(running.events, 1)).not.toBe('');
    await until(() => target.activeSequences === 0);
    expect(target.reserved).toEqual({ sequences: 0, tokens: 0 });
    const widest = harness.start(target, harness.job('Hi', { n: MAX_SEQUENCES, maxTokens: 2 }));
    await expect(widest.done).resolves.toMatchObject({ completionTokens: 2 * MAX_SEQUENCES });
  }

  it('at admission (no cache for its prompt)', async () => {
    jest.spyOn(harness.session, 'newSequence').mockImplementationOnce(() => {
      throw new Error('no memory for a cache');
    });
    // Admitted together, the doomed job first.
    const failing = harness.start(target, doomed);
    const running = harness.start(target, other);
    await expectOnlyDoomedFailed(failing, running, 'no memory for a cache');
  });

  it('in a prefill chunk', async () => {
    const { session } = harness;
    const prefill = session.prefill.bind(session);
    jest
      .spyOn(session, 'prefill')
      .mockImplementation((cache, ids, images) =>
        ids[0] === doomed.promptIds[8]
          ? Promise.reject(new Error('prefill failed'))
          : prefill(cache, ids, images),
      );
    const failing = harness.start(target, doomed);
    const running = harness.start(target, other);
    await expectOnlyDoomedFailed(failing, running, 'prefill failed');
  });

  it('when its sequences join the batch (its sampler cannot be made)', async () => {
    const real = sampling.createSequenceSampler;
    jest.spyOn(sampling, 'createSequenceSampler').mockImplementation((init) => {
      if (init.promptIds === doomed.promptIds && init.choice === 1) {
        throw new RangeError('seed must be an integer');
      }
      return real(init);
    });
    const failing = harness.start(target, doomed);
    const running = harness.start(target, other);
    await expectOnlyDoomedFailed(failing, running, 'seed must be an integer');
  });

  it('in a decode step (every job in that step fails; the one still prefilling goes on)', async () => {
    const failing = harness.start(target, doomed);
    await until(() => failing.events.length > 0);
    // The next step decodes the doomed job alone: the other is admitted and prefilled after it.
    jest.spyOn(harness.session, 'decode').mockRejectedValueOnce(new Error('decode failed'));
    const running = harness.start(target, other);
    await expectOnlyDoomedFailed(failing, running, 'decode failed');
  });

  it('when an event cannot be emitted', async () => {
    const failing = harness.start(target, doomed, 'doomed', (event) => {
      if (event.type === 'delta') throw new Error('the stream is gone');
    });
    const running = harness.start(target, other);
    await expectOnlyDoomedFailed(failing, running, 'the stream is gone');
  });
});
