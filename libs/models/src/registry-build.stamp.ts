// The stamp of a registry build: a hash of everything the converted model depends on, which is
// the recipe and the whole fixture tool (its pinned package versions in requirements.txt, run.sh
// and every converter source). Hashing the whole tool rebuilds more often than strictly needed,
// but never serves a model its current code would not produce.
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import type { RegistryRecipe } from './registry-recipes';

const TOOL_FILES = ['requirements.txt', 'run.sh'];
const SOURCES_DIR = 'tessera_fixtures';

export async function registryBuildStamp(recipe: RegistryRecipe, toolDir: string): Promise<string> {
  const digest = createHash('sha256').update(`${recipe.name}\0${recipe.command}\0`);
  const sources = await readdir(path.join(toolDir, SOURCES_DIR), { recursive: true });
  const files = [
    ...TOOL_FILES,
    ...sources
      .filter((file) => file.endsWith('.py'))
      .map((file) => path.join(SOURCES_DIR, file).split(path.sep).join('/'))
      .sort(),
  ];
  for (const file of files) {
    digest
      .update(`${file}\0`)
      .update(await readFile(path.join(toolDir, file)))
      .update('\0');
  }
  return digest.digest('hex');
}
