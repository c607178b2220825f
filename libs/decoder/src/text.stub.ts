// TEMPORARY stand-in for @tessera/text's loadChatTokenizer until wt-text lands; deleted before the final commit.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChatTokenizer, SequenceDetokenizer } from '@tessera/text';
import { loadLocalTokenizer } from '../../encoder/src/tokenizer.loader';

export async function loadChatTokenizer(modelDir: string): Promise<ChatTokenizer> {
  const tok = await loadLocalTokenizer(modelDir);
  const tplPath = join(modelDir, 'chat_template.jinja');
  const chat_template = existsSync(tplPath) ? readFileSync(tplPath, 'utf8') : undefined;
  const render = (messages: readonly { role: string; content: string | null }[]) =>
    tok.apply_chat_template(
      messages.map((m) => ({
        role: m.role === 'developer' ? 'system' : m.role,
        content: m.content ?? '',
      })),
      { tokenize: false, add_generation_prompt: true, chat_template },
    ) as string;
  return {
    vocabSize: 49152,
    renderChat: render,
    encodeChat: (messages) => tok.encode(render(messages), { add_special_tokens: false }),
    tokenInfo: (id) => {
      const token = tok.decode([id]);
      return { token, bytes: [...Buffer.from(token)] };
    },
    detokenizer(stop): SequenceDetokenizer {
      const ids: number[] = [];
      let sent = 0;
      let done = false;
      const text = () => tok.decode(ids, { skip_special_tokens: true });
      return {
        push(id) {
          if (done) return { text: '', stopped: true };
          ids.push(id);
          const all = text();
          for (const s of stop) {
            const at = all.indexOf(s, Math.max(0, sent - s.length));
            if (at >= 0) {
              done = true;
              const out = all.slice(sent, at);
              sent = at;
              return { text: out, stopped: true };
            }
          }
          if (all.endsWith('\uFFFD')) return { text: '', stopped: false };
          let safe = all.length;
          for (const s of stop) {
            for (let k = Math.min(s.length - 1, all.length); k > 0; k--) {
              if (all.endsWith(s.slice(0, k))) {
                safe = Math.min(safe, all.length - k);
                break;
              }
            }
          }
          const out = all.slice(sent, Math.max(sent, safe));
          sent = Math.max(sent, safe);
          return { text: out, stopped: false };
        },
        flush() {
          if (done) return '';
          const all = text();
          const out = all.slice(sent);
          sent = all.length;
          return out;
        },
      };
    },
  };
}
