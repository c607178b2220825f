// Worker-thread entry: imports the pool's engine module, creates the engine (which opens its
// sessions) and serves jobs and cancels from OrtWorkerPool. Everything here may block: that is
// why it is a thread.
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { EngineFactory, EngineTypes, JobContext, WorkerEngine } from './engine.contract';
import {
  serializeError,
  type OrtWorkerCommand,
  type OrtWorkerInit,
  type OrtWorkerReply,
} from './ort-worker.protocol';
import { sessionFactory } from './session.factory';
import { WebGpuTurns } from './webgpu.turns';
import { WorkCancelledError, WorkDeadlineError } from './work.errors';

function send(port: MessagePort, reply: OrtWorkerReply, transfer: readonly ArrayBuffer[] = []) {
  try {
    port.postMessage(reply, [...transfer]);
  } catch {
    // A buffer the runtime will not let go of (e.g. externally owned) is copied instead.
    port.postMessage(reply);
  }
}

/** Runs one job and always answers it: a job's failure must never take the worker down. */
async function serve(
  port: MessagePort,
  engine: WorkerEngine<EngineTypes>,
  job: Extract<OrtWorkerCommand, { type: 'job' }>,
  controller: AbortController,
): Promise<void> {
  const { id } = job;
  const transfer: ArrayBuffer[] = [];
  let timer: NodeJS.Timeout | undefined;
  if (job.deadline !== undefined) {
    // The reason is what the engine throws (signal.throwIfAborted), revived by the pool.
    const abort = () => controller.abort(new WorkDeadlineError('the deadline passed'));
    timer = setTimeout(abort, Math.max(0, job.deadline - Date.now()));
  }
  const context: JobContext<EngineTypes> = {
    signal: controller.signal,
    emit: (chunk, buffers) => send(port, { type: 'chunk', id, chunk }, buffers),
    transfer: (...buffers) => transfer.push(...buffers),
  };
  try {
    controller.signal.throwIfAborted();
    const result = await engine.run(job.request, context);
    send(port, { type: 'result', id, result }, transfer);
  } catch (error) {
    send(port, { type: 'error', id, error: serializeError(error) });
  } finally {
    clearTimeout(timer);
  }
}

async function main(port: MessagePort): Promise<void> {
  const init = workerData as OrtWorkerInit;
  const warn = (message: string) => send(port, { type: 'warning', message });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createEngine } = require(init.enginePath) as {
    createEngine?: EngineFactory<EngineTypes>;
  };
  if (typeof createEngine !== 'function') {
    throw new Error(`${init.enginePath} does not export a createEngine function`);
  }
  const progress = new Int32Array(init.progress);
  const engine = await createEngine({
    modelDir: init.modelDir,
    options: init.engineOptions,
    worker: init.worker,
    sessions: sessionFactory(
      init.modelDir,
      init.session,
      (opened) => send(port, { type: 'session', opened }),
      new WebGpuTurns(init.webgpuTurn),
    ),
    warn,
    progress: () => Atomics.add(progress, 0, 1),
  });

  const running = new Map<number, AbortController>();
  port.on('message', (command: OrtWorkerCommand) => {
    if (command.type === 'cancel') {
      running.get(command.id)?.abort(new WorkCancelledError('cancelled by the caller'));
      return;
    }
    const controller = new AbortController();
    running.set(command.id, controller);
    void serve(port, engine, command, controller).finally(() => running.delete(command.id));
  });
  send(port, { type: 'ready', info: engine.info });
}

if (parentPort) {
  const port = parentPort;
  main(port).catch((error: unknown) => {
    // Rethrown outside the promise chain so it becomes the worker's 'error' event: the pool
    // reports it as the reason the worker could not start.
    process.nextTick(() => {
      throw error;
    });
  });
}
