// Decode step time against context: one step of `batch` sequences, each with `past` positions
// already cached, timed at each past length (median of `steps` steps after one warm-up). The
// engine's stepper is the figure the target reads; the bare graph's naive step (whole cache in,
// whole cache out, so its cost grows with the context) is measured beside it on the same file.
import { round } from '../lib/latency.stats';
import type { StepTimes } from './chat.report';

export interface BatchedStepper {
  readonly name: string;
  /** Median ms of one decode step of `batch` sequences after `pastLength` cached positions. */
  decodeStepMs(batch: number, pastLength: number, steps: number): Promise<number>;
}

export async function measureStepTimes(
  stepper: BatchedStepper,
  batch: number,
  contexts: readonly number[],
  steps: number,
  log: (line: string) => void,
): Promise<StepTimes> {
  const msByContext: Record<string, number> = {};
  for (const context of contexts) {
    msByContext[String(context)] = round(await stepper.decodeStepMs(batch, context, steps));
    log(
      `  ${stepper.name}: batch ${batch}, past ${context}: ${msByContext[String(context)]} ms/step`,
    );
  }
  return { stepper: stepper.name, batch, msByContext };
}
