// Which code a benchmark measured: the commit, and the changed files under the measured code.
import { spawnSync } from 'node:child_process';

export interface SourceRevision {
  readonly commit: string;
  readonly uncommitted: string[];
}

export function sourceRevision(repoRoot: string): SourceRevision {
  const git = (...args: string[]) =>
    spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).stdout?.trim() ?? '';
  const changed = git('status', '--porcelain', '--', 'apps', 'libs', 'tools', 'proto');
  return {
    commit: git('rev-parse', 'HEAD') || 'unknown',
    uncommitted: changed ? changed.split('\n').map((line) => line.slice(3)) : [],
  };
}
