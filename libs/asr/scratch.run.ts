import { readFileSync } from 'node:fs';
import { WhisperModel } from './src';
async function main() {
  const [dir, file, ...rest] = process.argv.slice(2);
  const model = await WhisperModel.load({
    modelDir: dir,
    runtime: { workers: 1, intra_op_threads: 1 },
    options: {},
  });
  console.log(model.info);
  const buf = readFileSync(file);
  const audio = new Float32Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength));
  const t = Date.now();
  const result = await model.transcribe(
    {
      audio,
      task: 'transcribe',
      temperature: 0,
      wordTimestamps: rest.includes('words'),
      language: rest.includes('auto') ? undefined : 'en',
    },
    { onSegment: (s) => console.log('seg', s.start, s.end, JSON.stringify(s.text)) },
  );
  console.log(JSON.stringify(result, null, 0), Date.now() - t, 'ms');
  await model.close();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
