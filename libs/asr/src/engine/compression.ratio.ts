// openai-whisper's compression_ratio: UTF-8 bytes of the (stripped) text over its
// zlib-compressed size. A ratio above 2.4 means the decoder looped (repeated text compresses
// well). pako, not node:zlib: Node bundles Chromium's zlib fork, whose output differs by a byte
// here and there from the reference zlib Python uses (82 vs 81 bytes for a 89-byte sentence),
// while pako's matches it, so the fallback decisions are openai-whisper's and faster-whisper's.
import { deflate } from 'pako';

export function compressionRatio(text: string): number {
  const bytes = Buffer.from(text.trim(), 'utf8');
  if (bytes.length === 0) return 0;
  return bytes.length / deflate(bytes).length;
}
