import * as path from 'node:path';
import type { ModelSource } from './model-spec';
import { REGISTRY_RECIPES, findRegistryRecipe } from './registry-recipes';

export const HUB_PREFIX = 'hf:';
export const REGISTRY_PREFIX = 'registry:';

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

/** Reads the part after `registry:`: a recipe's name, or what is wrong with it. */
export function parseRegistryReference(
  reference: string,
): { recipe: string } | { problem: string } {
  if (findRegistryRecipe(reference) !== undefined) return { recipe: reference };
  return {
    problem: `"${REGISTRY_PREFIX}${reference}" must name a registry recipe: ${REGISTRY_RECIPES.map((recipe) => `${REGISTRY_PREFIX}${recipe.name}`).join(', ')}`,
  };
}

/** What is wrong with a `source` as written, or undefined when it is valid. */
export function sourceProblem(raw: string): string | undefined {
  const reference = raw.startsWith(HUB_PREFIX)
    ? parseHubReference(raw.slice(HUB_PREFIX.length))
    : raw.startsWith(REGISTRY_PREFIX)
      ? parseRegistryReference(raw.slice(REGISTRY_PREFIX.length))
      : undefined;
  return reference !== undefined && 'problem' in reference ? reference.problem : undefined;
}

/**
 * Turns the `source` written in a models file into a model source. The text must already have
 * passed validation (`sourceProblem`).
 */
export function toModelSource(raw: string, modelsFileDir: string): ModelSource {
  if (raw.startsWith(REGISTRY_PREFIX)) {
    const reference = parseRegistryReference(raw.slice(REGISTRY_PREFIX.length));
    if ('problem' in reference) throw new Error(reference.problem);
    return { kind: 'registry', recipe: reference.recipe, raw };
  }
  if (!raw.startsWith(HUB_PREFIX)) {
    return { kind: 'local', path: path.resolve(modelsFileDir, raw), raw };
  }
  const reference = parseHubReference(raw.slice(HUB_PREFIX.length));
  if ('problem' in reference) throw new Error(reference.problem);
  return { kind: 'hf', repo: reference.repo, revision: reference.revision, raw };
}
