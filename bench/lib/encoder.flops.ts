// Useful work of one BERT-style encoder forward pass, for "% of the FLOP ceiling": the matrix
// multiplications of every layer on the real (unpadded) tokens, which is what both sides must
// compute; padding a batch adds work that is not counted.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface EncoderShape {
  readonly layers: number;
  readonly hidden: number;
  readonly intermediate: number;
}

export function readEncoderShape(modelDir: string): EncoderShape {
  const config = JSON.parse(readFileSync(join(modelDir, 'config.json'), 'utf8')) as {
    num_hidden_layers: number;
    hidden_size: number;
    intermediate_size: number;
  };
  return {
    layers: config.num_hidden_layers,
    hidden: config.hidden_size,
    intermediate: config.intermediate_size,
  };
}

/**
 * FLOPs (multiply + add = 2) of one sequence of `tokens`: per layer the Q, K, V and output
 * projections (4·2·n·h²), the feed-forward pair (2·2·n·h·i) and attention scores and
 * weighted values (2·2·n²·h).
 */
export function encoderFlops(shape: EncoderShape, tokens: number): number {
  const { layers, hidden: h, intermediate: i } = shape;
  const n = tokens;
  return layers * (8 * n * h * h + 4 * n * h * i + 4 * n * n * h);
}
