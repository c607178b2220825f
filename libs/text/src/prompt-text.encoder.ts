// Token ids of a rendered chat prompt: special tokens only where the template wrote them, the
// text between them (client text included) tokenized as text, as Hugging Face tokenizers do
// with split_special_tokens=True.
//
// A prompt whose client strings hold no special-token text (nearly all of them) is tokenized
// whole, as before: ids equal Python's apply_chat_template(tokenize=True). Otherwise each text
// piece between the template's special tokens is tokenized alone by a second tokenizer that has
// no special tokens (built on first need: it holds its own copy of the vocabulary). The pieces
// are the ones the whole-string tokenizer would cut there too, so byte-level BPE tokenizers
// (Qwen, SmolLM, Llama 3) give what the whole string would with the client's specials read as
// text; a SentencePiece tokenizer whose pre-tokenizer prepends "▁" to the first piece only
// (`prepend_scheme: "first"`) may get one more "▁" where a piece follows a template token.
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { SpecialTextEscape, sectionsText, type PromptSection } from './special-text.escape';

interface AddedTokenJson {
  readonly id: number;
  readonly content: string;
  readonly special?: boolean;
  readonly lstrip?: boolean;
  readonly rstrip?: boolean;
}

export class PromptTextEncoder {
  readonly escape: SpecialTextEscape;
  private readonly specials = new Map<string, AddedTokenJson>();
  private plain?: PreTrainedTokenizer;

  constructor(private readonly tokenizer: PreTrainedTokenizer) {
    const json = tokenizer._tokenizerJSON as { added_tokens?: AddedTokenJson[] };
    for (const token of json.added_tokens ?? []) {
      if (token.special === true) this.specials.set(token.content, token);
    }
    this.escape = new SpecialTextEscape([...this.specials.keys()]);
  }

  encode(sections: readonly PromptSection[]): number[] {
    const text = sectionsText(sections);
    const placed = sections.filter((s) => 'special' in s).length;
    // The plain text holds no special tokens other than the template's: tokenized whole. The
    // template already writes the BOS/role tokens: adding special tokens again would double
    // them (SmolLM2 adds <|im_start|> as BOS), as apply_chat_template(tokenize=True) also avoids.
    if (this.escape.count(text) === placed) {
      return this.tokenizer.encode(text, { add_special_tokens: false });
    }
    return this.encodeSections(sections);
  }

  private encodeSections(sections: readonly PromptSection[]): number[] {
    // The whitespace a special token strips beside it (lstrip/rstrip), as the tokenizer would.
    const texts = sections.map((s) => ('text' in s ? s.text : undefined));
    sections.forEach((section, i) => {
      if (!('special' in section)) return;
      const token = this.specials.get(section.special)!;
      if (token.lstrip && texts[i - 1] !== undefined) texts[i - 1] = texts[i - 1]!.trimEnd();
      if (token.rstrip && texts[i + 1] !== undefined) texts[i + 1] = texts[i + 1]!.trimStart();
    });
    const plain = this.plainTokenizer();
    return sections.flatMap((section, i) => {
      if ('special' in section) return [this.specials.get(section.special)!.id];
      const text = texts[i]!;
      return text === '' ? [] : plain.encode(text, { add_special_tokens: false });
    });
  }

  /** The same tokenizer without its special tokens: they are text to it. */
  private plainTokenizer(): PreTrainedTokenizer {
    if (this.plain === undefined) {
      const json = this.tokenizer._tokenizerJSON as { added_tokens?: AddedTokenJson[] };
      // Its own class (LlamaTokenizer, Qwen2Tokenizer, …), so it behaves as the loaded one.
      const Tokenizer = this.tokenizer.constructor as new (
        json: unknown,
        config: unknown,
      ) => PreTrainedTokenizer;
      this.plain = new Tokenizer(
        { ...json, added_tokens: (json.added_tokens ?? []).filter((t) => t.special !== true) },
        this.tokenizer._tokenizerConfig,
      );
    }
    return this.plain;
  }
}
