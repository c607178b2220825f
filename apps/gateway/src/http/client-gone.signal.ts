// Whether the HTTP client went away before its answer was complete, as an AbortSignal: the one
// test (the connection closed, the response not written in full) that cancels upstream work.
import type { ServerResponse } from 'node:http';

/** Aborts when the response's connection closes before the response was sent in full. */
export function clientGoneSignal(response: ServerResponse): AbortSignal {
  const abort = new AbortController();
  const closed = () => {
    if (!response.writableFinished) abort.abort();
  };
  if (response.closed) closed();
  else response.once('close', closed);
  return abort.signal;
}
