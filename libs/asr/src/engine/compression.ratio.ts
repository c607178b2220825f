// openai-whisper's compression_ratio: UTF-8 bytes of the text over its zlib-compressed size. A
// ratio above 2.4 means the decoder looped (repeated text compresses well).
import { deflateSync } from 'node:zlib';

export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length === 0) return 0;
  return bytes.length / deflateSync(bytes).length;
}
