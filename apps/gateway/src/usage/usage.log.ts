// The append-only usage log: one JSON line per billed request. The file is opened for appending
// (O_APPEND: several gateways may share it, each line lands whole at the end) and each record is
// written with one synchronous write before the response's last byte goes out, so a gateway
// killed at any moment has already handed every record of an answered request to the kernel.
// There is no fsync: a power loss of the machine can still lose the last records (see
// docs/usage.md).
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { UsageRecord } from './usage.record';

export class UsageLog {
  private fd: number | undefined;

  constructor(readonly path: string) {
    mkdirSync(dirname(path), { recursive: true });
    this.fd = openSync(path, 'a', 0o600);
  }

  append(record: UsageRecord): void {
    if (this.fd === undefined) throw new Error(`the usage log ${this.path} is closed`);
    const line = Buffer.from(`${JSON.stringify(record)}\n`);
    // A regular file takes the whole buffer in one write; the loop only guards the contract.
    for (let written = 0; written < line.length;) {
      written += writeSync(this.fd, line, written);
    }
  }

  close(): void {
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}
