// Where the fixture tool (tools/fixtures/run.sh) that builds `registry:` sources is: the
// checkout this code runs from (libs/models/src, or dist/libs/models/src once built), unless
// TESSERA_FIXTURES_TOOL names another directory. Container images do not carry it: clusters
// pull from the Hub or a mirror instead.
import { existsSync } from 'node:fs';
import * as path from 'node:path';

export const FIXTURE_TOOL_ENTRY = 'run.sh';

/** The fixture tool's directory, or undefined when this installation has none. */
export function locateFixtureTool(
  env: NodeJS.ProcessEnv,
  from: string = __dirname,
): string | undefined {
  const configured = env.TESSERA_FIXTURES_TOOL?.trim();
  if (configured) return path.resolve(configured);
  for (let directory = from; ; directory = path.dirname(directory)) {
    const candidate = path.join(directory, 'tools', 'fixtures');
    if (existsSync(path.join(candidate, FIXTURE_TOOL_ENTRY))) return candidate;
    if (path.dirname(directory) === directory) return undefined;
  }
}
