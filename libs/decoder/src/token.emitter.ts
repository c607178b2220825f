// One choice's sampled tokens turned into its events, in the decoder worker: text deltas as the
// detokenizer lets text go (held back while it may be a stop string or part of a UTF-8
// character), each with the logprobs of the tokens that made it and how many tokens it accounts
// for; then the choice's one finish — 'stop' at an end-of-sequence token or a stop string,
// 'length' at max tokens.
import type { ChatTokenizer, SequenceDetokenizer } from '@tessera/text';
import type { GenerationEvent, FinishReason, GenerateJob, TokenLogprob } from './decoder.protocol';
import type { SampledToken } from './sampling/sampler.contract';

export interface TokenEmitterInit {
  readonly choice: number;
  readonly job: Pick<GenerateJob, 'stop' | 'logprobs' | 'maxTokens'>;
  readonly tokenizer: Pick<ChatTokenizer, 'detokenizer' | 'tokenInfo'>;
  readonly eos: ReadonlySet<number>;
  readonly emit: (event: GenerationEvent) => void;
}

export class TokenEmitter {
  private readonly detokenizer: SequenceDetokenizer;
  /** Logprobs of tokens whose text is still held back by the detokenizer. */
  private readonly pending: TokenLogprob[] = [];
  /** Tokens generated since the last delta (their text held back, or none yet). */
  private unreported = 0;
  private count = 0;
  private ended = false;

  constructor(private readonly init: TokenEmitterInit) {
    this.detokenizer = init.tokenizer.detokenizer(init.job.stop);
  }

  /** Tokens generated so far (the finish's count once the choice has ended). */
  get generated(): number {
    return this.count;
  }

  get finished(): boolean {
    return this.ended;
  }

  /**
   * A sampled token: end of sequence, a stop string, the length limit, or text to stream.
   * True when it ended the choice (its finish emitted).
   */
  accept(sampled: SampledToken): boolean {
    const { job, eos } = this.init;
    this.count++;
    this.unreported++;
    if (eos.has(sampled.tokenId)) {
      // What the detokenizer held back is not a stop string, so it is text.
      this.emitText(this.detokenizer.flush());
      return this.finish('stop');
    }
    if (job.logprobs) this.pending.push(this.logprob(sampled));
    const { text, stopped } = this.detokenizer.push(sampled.tokenId);
    if (stopped) {
      this.emitText(text);
      return this.finish('stop');
    }
    if (this.count >= job.maxTokens) {
      this.emitText(text + this.detokenizer.flush());
      return this.finish('length');
    }
    this.emitText(text);
    return false;
  }

  private logprob(sampled: SampledToken): TokenLogprob {
    const { tokenizer } = this.init;
    return {
      ...tokenizer.tokenInfo(sampled.tokenId),
      logprob: sampled.logprob,
      topLogprobs: sampled.top.map((top) => ({
        ...tokenizer.tokenInfo(top.tokenId),
        logprob: top.logprob,
      })),
    };
  }

  /** Text with the logprobs of the tokens that made it (held-back tokens wait for their text). */
  private emitText(text: string): void {
    if (text === '') return;
    const { choice, job, emit } = this.init;
    const logprobs = job.logprobs ? this.pending.splice(0) : undefined;
    const tokens = this.unreported;
    this.unreported = 0;
    emit({ type: 'delta', choice, text, logprobs, tokens });
  }

  private finish(reason: FinishReason): true {
    this.ended = true;
    const { choice, emit } = this.init;
    emit({ type: 'finish', choice, reason, completionTokens: this.count });
    return true;
  }
}
