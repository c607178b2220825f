// The transcription engine's log-mel graph is built in memory (whisper.logmel.graph.ts) on the
// model's session options, so it runs on `webgpu` too: this writes it to a file for the probe,
// with the window and mel filters of the tiny-whisper fixture's feature extractor.
import { readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logMelGraph } from '../../libs/asr/src/engine/whisper.logmel.graph';

export async function writeLogMelGraph(root: string): Promise<string> {
  const { WhisperFeatureExtractor } = await import('@huggingface/transformers');
  const config = JSON.parse(
    readFileSync(join(root, 'test/fixtures/models/tiny-whisper/preprocessor_config.json'), 'utf8'),
  ) as Record<string, unknown>;
  const extractor = new WhisperFeatureExtractor(config) as unknown as {
    config: { mel_filters: number[][] };
    window: Float64Array;
  };
  const file = join(tmpdir(), 'tessera-whisper-logmel.onnx');
  writeFileSync(
    file,
    logMelGraph({ window: extractor.window, melFilters: extractor.config.mel_filters }),
  );
  return file;
}
