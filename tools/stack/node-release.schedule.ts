// Which Node.js release lines still get security fixes. Local runs accept any Node the
// package's `engines` allows (≥ 20, what these machines have), but one past its end of life is
// worth a line at start-up: the images and CI run a supported LTS (README.md#nodejs).

/**
 * The last day of each release line (nodejs/Release `schedule.json`, the `end` dates); a line
 * newer than the table is taken as supported. One place: add a line when it is released.
 */
const END_OF_LIFE: ReadonlyMap<number, string> = new Map([
  [20, '2026-04-30'],
  [21, '2024-06-01'],
  [22, '2027-04-30'],
  [23, '2025-06-01'],
  [24, '2028-04-30'],
  [25, '2026-06-01'],
  [26, '2029-04-30'],
]);
const OLDEST_LISTED = Math.min(...END_OF_LIFE.keys());

/** The warning for running on `version` (e.g. `v20.20.2`) on `today`, or none when supported. */
export function endOfLifeWarning(version: string, today: Date): string | undefined {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (!Number.isInteger(major)) return undefined;
  const end = END_OF_LIFE.get(major);
  if (end === undefined && major > OLDEST_LISTED) return undefined;
  if (end !== undefined && today.toISOString().slice(0, 10) <= end) return undefined;
  const since = end === undefined ? '' : ` on ${end}`;
  return (
    `Node.js ${version} reached its end of life${since} and gets no more security fixes; ` +
    'run Tessera on a supported LTS (Node.js 24, as its images and CI do)'
  );
}

/**
 * Says so once, on stderr, as a Node warning (`--no-warnings` silences it). Not inside jest,
 * whose workers and the launchers they spawn would repeat it in every spec's output.
 */
export function warnIfEndOfLife(): void {
  if (process.env.JEST_WORKER_ID !== undefined) return;
  const warning = endOfLifeWarning(process.version, new Date());
  if (warning) process.emitWarning(warning, { code: 'TESSERA_NODE_END_OF_LIFE' });
}
