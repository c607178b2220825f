// A grammar worker: XGrammar with the model's vocabulary, its compiled grammars (the LRU of
// grammar.compiler.ts) and the matchers of the sequences constrained by them. Compiling a
// grammar can take seconds in one call that cannot be sliced; here it blocks this thread only,
// never the decode loop (grammar-worker.pool.ts sends no compile to a worker whose matchers
// are in use). Messages are served in order, one at a time.
import { parentPort, workerData } from 'node:worker_threads';
import type { GrammarMatcher } from '@mlc-ai/web-xgrammar';
import { XGrammarCompiler } from './grammar.compiler';
import type { GrammarReply, GrammarRequest, GrammarWorkerData } from './grammar-worker.protocol';
import { readEncodedVocab } from './tokenizer-vocab.reader';

const port = parentPort!;
const { modelDir, vocabSize, eosTokenIds } = workerData as GrammarWorkerData;
const matchers = new Map<number, GrammarMatcher>();
let nextMatcher = 0;

const send = (reply: GrammarReply, transfer: ArrayBuffer[] = []) =>
  port.postMessage(reply, transfer);

async function serve(compiler: XGrammarCompiler, request: GrammarRequest): Promise<void> {
  switch (request.type) {
    case 'matchers': {
      const { id, constraint, count } = request;
      if (!request.compile && !compiler.has(constraint)) return send({ type: 'miss', id });
      const made = await compiler.matchers(constraint, count);
      const ids = made.matchers.map((matcher) => {
        matchers.set(nextMatcher, matcher);
        return nextMatcher++;
      });
      const { heapBytes } = compiler;
      return send({ type: 'matchers', id, matchers: ids, info: made.info, heapBytes });
    }
    case 'mask': {
      const matcher = matchers.get(request.matcher);
      if (!matcher) throw new Error(`grammar matcher ${request.matcher} is gone`);
      for (const token of request.accepted) {
        // Cannot happen for a token the mask allowed; a bug must not produce invalid output.
        if (!matcher.acceptToken(token))
          throw new Error(`token ${token} does not match the grammar`);
      }
      const mask = await matcher.getNextTokenBitmask();
      return send({ type: 'mask', id: request.id, mask }, [mask.buffer as ArrayBuffer]);
    }
    case 'dispose':
      for (const id of request.matchers) {
        matchers.get(id)?.dispose();
        matchers.delete(id);
      }
  }
}

async function main(): Promise<void> {
  const vocab = await readEncodedVocab(modelDir);
  // No UTF-8 guard here: the pool applies it beside the mask, where the tokenizer is.
  const compiler = await XGrammarCompiler.create({ vocab, vocabSize, eosTokenIds });
  // One at a time, in arrival order: a mask never interleaves with a compile's awaits.
  let queue = Promise.resolve();
  port.on('message', (request: GrammarRequest) => {
    queue = queue.then(() =>
      serve(compiler, request).catch((error: unknown) => {
        if (request.type === 'dispose') return;
        const { name, message } = error instanceof Error ? error : new Error(String(error));
        send({ type: 'error', id: request.id, name, message });
      }),
    );
  });
  send({ type: 'ready', heapBytes: compiler.heapBytes });
}

void main();
