// The disk-space part of a registry build's messages: what is needed where, and what is missing.
import { formatByteSize } from './byte-size.format';
import type { DiskNeed, DiskShortfall } from './disk-space.check';

/** `about 3.0 GB (the converted model 3.0 GB, the Python venv 8.0 GB)` */
export function describeBuildNeeds(needs: readonly DiskNeed[]): string {
  const total = needs.reduce((sum, need) => sum + need.bytes, 0);
  return `about ${formatByteSize(total)} (${listNeeds(needs)})`;
}

export function describeShortfall(shortfall: DiskShortfall): string {
  return (
    `not enough free disk space: the build needs about ${formatByteSize(shortfall.neededBytes)} ` +
    `on the file system of ${shortfall.path} (${listNeeds(shortfall.needs)}), which has ` +
    `${formatByteSize(shortfall.freeBytes)} free`
  );
}

function listNeeds(needs: readonly DiskNeed[]): string {
  return needs.map((need) => `${need.what} ${formatByteSize(need.bytes)}`).join(', ');
}
