// An upstream stream that shows each message to `observe` as it goes by (to fill the request's
// usage meter), unchanged; cancel() still ends the call.
import type { UpstreamStream } from '../upstream/upstream.streams';

export function meteredStream<T>(
  source: UpstreamStream<T>,
  observe: (message: T) => void,
): UpstreamStream<T> {
  return {
    cancel: () => source.cancel(),
    async *[Symbol.asyncIterator]() {
      for await (const message of source) {
        observe(message);
        yield message;
      }
    },
  };
}
