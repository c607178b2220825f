// What stops `npm start` when a capability's models can be had from nowhere: every model and
// source tried, why each failed, and what to do, because it is the last thing the user reads.
import type { Capability } from '@tessera/contracts';

export interface TriedSource {
  readonly model: string;
  /** As written in its models file (`hf:org/name`, a registry source, a directory). */
  readonly source: string;
}

export interface StarterAttempt {
  /** Why the starter set could not serve the capability either. */
  readonly problem: string;
  /** The starter models tried (none when the starter file has none for the capability). */
  readonly tried?: readonly TriedSource[];
  readonly file?: string;
}

export class ModelsUnobtainableError extends Error {
  override readonly name = 'ModelsUnobtainableError';

  constructor(
    readonly capability: Capability,
    tried: readonly TriedSource[],
    reason: string,
    starter: StarterAttempt,
  ) {
    const starterModels = (starter.tried ?? [])
      .map(({ model, source }) => `${model} (${source})`)
      .join(', ');
    super(
      [
        `cannot serve ${capability}: none of its sources could provide the models.`,
        `  default models file: ${tried.map(({ model, source }) => `${model} (${source})`).join(', ')}: not cached and ${reason}`,
        starterModels === ''
          ? `  starter models: ${starter.problem}`
          : `  starter models from ${starter.file ?? 'the starter file'}: ${starterModels}: ${starter.problem}`,
        'To serve it: make the Hugging Face Hub reachable (or set HF_ENDPOINT to a mirror that has ' +
          'these repositories) and run `npm run models -- pull`; or fix what stopped the starter ' +
          'models above and start again. `npm run start:fixtures` serves random-weight fixture ' +
          'models, for API testing only.',
      ].join('\n'),
    );
  }
}
