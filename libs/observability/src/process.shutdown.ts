// The end of a served process. On SIGTERM or SIGINT the app closes (its shutdown hooks drain: a
// service turns NOT_SERVING and lets its calls in flight finish, the gateway answers the requests
// it holds), the spans still buffered are exported, and the process exits 0 (1 if closing
// failed). Nest's own enableShutdownHooks re-raises the signal once closed (status 143, which
// container runtimes report as a failure), and a process ended by a signal never reaches
// 'beforeExit', so the spans of the drained requests were lost.
import { stopTracing } from './tracing';

export function closeOnSignals(app: { close(): Promise<void> }): void {
  let closing = false;
  const close = async (): Promise<void> => {
    if (closing) return; // a second signal while draining changes nothing
    closing = true;
    let code = 0;
    try {
      await app.close();
    } catch (error) {
      console.error('shutdown failed:', error instanceof Error ? error.message : error);
      code = 1;
    }
    await stopTracing().catch(() => undefined);
    process.exit(code);
  };
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => void close());
}
