// A test engine with what real engines need from the runtime: state kept between jobs (a
// history per sequence, like a KV cache), several replies streamed per job (one per step, each
// a real forward pass of the fixture encoder), several jobs in flight in one worker, and steps
// that stop when the job's signal aborts. It also counts its model runs, so specs can prove
// that dropped work never ran.
import { Tensor } from 'onnxruntime-node';
import type { EngineFactory } from '../src/engine.contract';

export type SteppingRequest =
  | {
      readonly kind: 'steps';
      /** Whose history the steps extend. */
      readonly sequence: string;
      readonly steps: number;
      /** Pause between steps, so specs can act mid-job. */
      readonly pauseMs?: number;
    }
  | { readonly kind: 'runs' }
  /** Doubles `data` in place and hands it back: buffers moved both ways, not copied. */
  | { readonly kind: 'double'; readonly data: Float32Array }
  /** One forward pass over `ids`: the whole `last_hidden_state`, to compare providers. */
  | { readonly kind: 'encode'; readonly ids: readonly number[] }
  | { readonly kind: 'crash' }
  /** Holds its worker without a step (no progress) until its signal aborts: a hung engine. */
  | { readonly kind: 'hang' };

export interface SteppingChunk {
  readonly sequence: string;
  /** Position in the sequence's history: continues across jobs. */
  readonly position: number;
  /** First value of the step's `last_hidden_state`: a real output. */
  readonly value: number;
}

export interface SteppingEngineTypes {
  readonly options: { readonly onnxFile: string };
  readonly info: {
    readonly inputNames: readonly string[];
    readonly worker: number;
    readonly sessions: number;
  };
  readonly request: SteppingRequest;
  readonly result: { readonly runs: number; readonly steps: number; readonly data?: Float32Array };
  readonly chunk: SteppingChunk;
}

export const createEngine: EngineFactory<SteppingEngineTypes> = async (init) => {
  // Two sessions, as an encoder-decoder engine has: steps alternate between them.
  const sessions = [
    await init.sessions.create(init.options.onnxFile),
    await init.sessions.create(init.options.onnxFile),
  ];
  const histories = new Map<string, number[]>();
  let runs = 0;

  async function step(ids: readonly number[]): Promise<Float32Array> {
    const dims = [1, ids.length];
    const output = await sessions[runs % 2].run({
      input_ids: new Tensor('int64', BigInt64Array.from(ids, BigInt), dims),
      attention_mask: new Tensor('int64', new BigInt64Array(ids.length).fill(1n), dims),
      token_type_ids: new Tensor('int64', new BigInt64Array(ids.length), dims),
    });
    runs++;
    return output.last_hidden_state.data as Float32Array;
  }

  return {
    info: {
      inputNames: [...sessions[0].inputNames],
      worker: init.worker,
      sessions: sessions.length,
    },
    async run(request, job) {
      if (request.kind === 'runs') return { runs, steps: 0 };
      if (request.kind === 'crash') process.exit(3);
      if (request.kind === 'hang') {
        return new Promise((_, reject) =>
          job.signal.addEventListener('abort', () => reject(job.signal.reason as Error)),
        );
      }
      if (request.kind === 'encode') {
        const data = await step(request.ids);
        return { runs, steps: 1, data };
      }
      if (request.kind === 'double') {
        for (let i = 0; i < request.data.length; i++) request.data[i] *= 2;
        job.transfer(request.data.buffer as ArrayBuffer);
        return { runs, steps: 0, data: request.data };
      }
      const history = histories.get(request.sequence) ?? [2];
      histories.set(request.sequence, history);
      for (let i = 0; i < request.steps; i++) {
        // Between steps: the point where a stepping engine gives up on a gone caller.
        job.signal.throwIfAborted();
        history.push(5 + (history.length % 100));
        const [value] = await step([...history, 3]);
        init.progress();
        job.emit({ sequence: request.sequence, position: history.length - 1, value });
        if (request.pauseMs) await new Promise((resolve) => setTimeout(resolve, request.pauseMs));
      }
      return { runs, steps: request.steps };
    },
  };
};
