// One voice run inside a worker: Piper's feeds (train/export_onnx.py's signature), the graph,
// and piper-tts's per-sentence normalisation to int16 — written against the session it is
// handed, so it runs without a thread in tests.
import * as ort from 'onnxruntime-node';
import { piperSentencePcm } from '../voice/sentence.audio';
import type { SynthesizeJob, SynthesizeResult } from './piper.protocol';

export async function runSynthesizeJob(
  session: Pick<ort.InferenceSession, 'run' | 'outputNames'>,
  job: SynthesizeJob,
): Promise<SynthesizeResult> {
  const length = job.ids.length;
  const feeds: Record<string, ort.Tensor> = {
    input: new ort.Tensor('int64', BigInt64Array.from(job.ids, BigInt), [1, length]),
    input_lengths: new ort.Tensor('int64', BigInt64Array.of(BigInt(length)), [1]),
    scales: new ort.Tensor('float32', Float32Array.from(job.scales), [3]),
  };
  if (job.speakerId !== undefined) {
    feeds.sid = new ort.Tensor('int64', BigInt64Array.of(BigInt(job.speakerId)), [1]);
  }
  // The audio is the first output (a voice patched for alignments has a second one).
  const name = session.outputNames[0];
  const output = (await session.run(feeds, [name]))[name];
  // [1, 1, 1, T] or [1, 1, T] depending on the export: the samples are the flat data.
  return { pcm: piperSentencePcm(output.data as Float32Array) };
}
