import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import type { GatewayConfig } from '@tessera/config';
import { OpenAIError } from '../errors/openai-error';
import { GatewayDrain } from './gateway.drain';

/** What the drain reads of a response: its close, whether its head went out, keep-alive. */
function response(headersSent = false) {
  return Object.assign(new EventEmitter(), { headersSent, shouldKeepAlive: true });
}
type FakeResponse = ReturnType<typeof response>;
const raw = (r: FakeResponse) => r as unknown as ServerResponse;

const drainFor = (drainTimeoutMs?: number) => new GatewayDrain({ drainTimeoutMs } as GatewayConfig);

it('is over at once with nothing in flight', async () => {
  const drain = drainFor(60_000);
  await drain.beforeApplicationShutdown();
  expect(drain.isDraining).toBe(true);
});

it('waits for the requests it holds, and their answers end the connection', async () => {
  const drain = drainFor(60_000);
  const [unanswered, streaming] = [response(), response(true)];
  drain.admit(raw(unanswered));
  drain.admit(raw(streaming));
  const signal = drain.signal(raw(streaming), new AbortController().signal);
  let over = false;
  const draining = drain.beforeApplicationShutdown().then(() => (over = true));
  expect(unanswered.shouldKeepAlive).toBe(false);
  expect(streaming.shouldKeepAlive).toBe(true); // its head is out: nothing to change
  unanswered.emit('close');
  await new Promise((resolve) => setImmediate(resolve));
  expect(over).toBe(false);
  streaming.emit('close');
  await draining;
  expect(signal.aborted).toBe(false);
});

it('ends what still runs when the drain time is up, with the 503 as the reason', async () => {
  const drain = drainFor(10);
  const held = response(true);
  drain.admit(raw(held));
  const signal = drain.signal(raw(held), new AbortController().signal);
  signal.addEventListener('abort', () => held.emit('close'));
  await drain.beforeApplicationShutdown();
  expect(signal.reason).toBeInstanceOf(OpenAIError);
  expect(signal.reason).toMatchObject({ status: 503, code: 'server_shutting_down' });

  // A request admitted before, whose handler starts only now, is ended at once.
  const late = response();
  drain.admit(raw(late));
  expect(drain.signal(raw(late), new AbortController().signal).reason).toMatchObject({
    status: 503,
  });
});

it('aborts a request whose client went away, with that reason', () => {
  const drain = drainFor(10);
  const held = response();
  drain.admit(raw(held));
  const gone = new AbortController();
  const signal = drain.signal(raw(held), gone.signal);
  gone.abort('gone');
  expect(signal.reason).toBe('gone');
});
