import * as path from 'node:path';
import type { ModelSource } from './model-spec';

export const HUB_PREFIX = 'hf:';

const DEFAULT_REVISION = 'main';

// The Hub's own rules for names, minus what could escape the cache directory ('..').
const HUB_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,95}$/;
const HUB_REVISION = /^[A-Za-z0-9][A-Za-z0-9._/-]{0,254}$/;

export type HubReference = { repo: string; revision: string } | { problem: string };

/** Reads `org/name[@revision]` (the part after `hf:`), or says what is wrong with it. */
export function parseHubReference(reference: string): HubReference {
  const at = reference.indexOf('@');
  const repo = at === -1 ? reference : reference.slice(0, at);
  const revision = at === -1 ? DEFAULT_REVISION : reference.slice(at + 1);
  const parts = repo.split('/');
  if (parts.length !== 2 || !parts.every((part) => HUB_NAME.test(part) && !part.includes('..'))) {
    return {
      problem: `"${HUB_PREFIX}${reference}" must name a Hub repository as hf:<org>/<name>[@<revision>], e.g. hf:Xenova/all-MiniLM-L6-v2`,
    };
  }
  if (!HUB_REVISION.test(revision) || revision.includes('..')) {
    return { problem: `"${revision}" is not a valid revision (a branch, tag or commit hash)` };
  }
  return { repo, revision };
}

/**
 * Turns the `source` written in a models file into a model source. The text must already have
 * passed validation (`parseHubReference` for `hf:` sources).
 */
export function toModelSource(raw: string, modelsFileDir: string): ModelSource {
  if (!raw.startsWith(HUB_PREFIX)) {
    return { kind: 'local', path: path.resolve(modelsFileDir, raw), raw };
  }
  const reference = parseHubReference(raw.slice(HUB_PREFIX.length));
  if ('problem' in reference) throw new Error(reference.problem);
  return { kind: 'hf', repo: reference.repo, revision: reference.revision, raw };
}
