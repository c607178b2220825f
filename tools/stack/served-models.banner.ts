// The start-up banner: every model served, the capability it serves, whether its weights are
// real or random (a generated fixture, good for testing the API and nothing else), and the
// models file it comes from, with why a capability fell back to the starter models.
import * as path from 'node:path';
import type { ModelSpec } from '@tessera/models';
import { renderTextTable } from '../models/text-table.renderer';
import { groupByReason, type ServedCapability, type ServedOrigin } from './served-models.resolver';

const ORIGIN: Record<ServedOrigin, string> = {
  cached: 'cached',
  pulled: 'pulled now',
  starter: 'starter',
};

export interface BannerContext {
  /** The models file every process reads. */
  readonly modelsFile: string;
  /** Where the random-weight fixtures live: a model from there is no real model. */
  readonly fixturesDir: string;
  /** Paths are shown relative to it. */
  readonly cwd: string;
}

export function renderServedModelsBanner(
  served: readonly ServedCapability[],
  context: BannerContext,
): string {
  const shown = (file: string) => {
    const relative = path.relative(context.cwd, file);
    return relative === '' || relative.startsWith('..') || path.isAbsolute(relative)
      ? file
      : relative;
  };
  const rows = served.flatMap(({ capability, file, models, origin }) =>
    models.map((spec) => [
      capability,
      spec.id,
      isRandomWeightFixture(spec, context.fixturesDir) ? 'random, for API testing only' : 'real',
      `${shown(file.path)} (${ORIGIN[origin]})`,
    ]),
  );
  const lines = [
    `models file: ${shown(context.modelsFile)}`,
    ...renderTextTable(['CAPABILITY', 'MODEL', 'WEIGHTS', 'FROM'], rows)
      .split('\n')
      .map((line) => `  ${line}`),
  ];
  const fallbacks = served.flatMap(({ capability, fallbackReason: reason }) =>
    reason === undefined ? [] : [{ capability, reason }],
  );
  for (const [reason, capabilities] of groupByReason(fallbacks)) {
    lines.push(
      `${capabilities.join(', ')}: served by the starter models, as the default models file's ` +
        `are not cached and ${reason}`,
    );
  }
  return lines.join('\n');
}

/** A generated model with random weights: a local source in (or being) the fixtures directory. */
export function isRandomWeightFixture(spec: ModelSpec, fixturesDir: string): boolean {
  if (spec.source.kind !== 'local') return false;
  const relative = path.relative(fixturesDir, spec.source.path);
  return !relative.startsWith('..') && !path.isAbsolute(relative);
}
