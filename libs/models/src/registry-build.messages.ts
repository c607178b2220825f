// The disk-space part of a registry build's messages: what is needed where, and what is free.
import { formatByteSize } from './byte-size.format';
import type { DiskNeed, DiskUse } from './disk-space.check';

/** `about 3.0 GB on the file system of /home (the converted model 3.0 GB), 40.2 GB free` */
export function describeDiskUse(use: DiskUse): string {
  return (
    `about ${formatByteSize(use.neededBytes)} on the file system of ${use.path} ` +
    `(${listNeeds(use.needs)}), ${formatByteSize(use.freeBytes)} free`
  );
}

export function describeShortfall(use: DiskUse): string {
  return (
    `not enough free disk space: the build needs about ${formatByteSize(use.neededBytes)} ` +
    `on the file system of ${use.path} (${listNeeds(use.needs)}), which has ` +
    `${formatByteSize(use.freeBytes)} free`
  );
}

function listNeeds(needs: readonly DiskNeed[]): string {
  return needs.map((need) => `${need.what} ${formatByteSize(need.bytes)}`).join(', ');
}
