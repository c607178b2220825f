// CPU time and resident memory of a process and its descendants (pidtree finds them with `ps`,
// pidusage reads them), and the busy time of the whole machine (os.cpus()): how much of the machine a
// server under test (launcher, gateway, services with their ORT worker threads) used during a
// run, and how much other tenants took. Linux-only details (command lines, listening ports) come
// from /proc and are empty where it does not exist.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { cpus } from 'node:os';
import pidtree from 'pidtree';
import pidusage from 'pidusage';

export interface ProcessSample {
  readonly pid: number;
  readonly name: string;
  /** User + system CPU time of all the process's threads so far, in ms. */
  readonly cpuMs: number;
  readonly rssBytes: number;
}

/** `root` and every process below it (an empty list once `root` is gone). */
export async function processTree(root: number): Promise<number[]> {
  try {
    return await pidtree(root, { root: true });
  } catch (error) {
    // pidtree's word for a root that has exited; anything else (no `ps`) must not pass as zero.
    if (error instanceof Error && error.message === 'No matching pid found') return [];
    throw new Error(`listing the processes under ${root} (pidtree needs \`ps\`, from procps)`, {
      cause: error,
    });
  }
}

/** `root` and every process below it, each named by `nameOf(its command line)`. */
export async function sampleProcessTree(
  root: number,
  nameOf: (commandLine: string) => string,
): Promise<ProcessSample[]> {
  const pids = await processTree(root);
  if (pids.length === 0) return [];
  // A process that exits between the two calls is left out rather than failing the sample.
  const usage: Record<string, pidusage.Status | undefined> = await pidusage(pids).catch(() => ({}));
  return pids.flatMap((pid) => {
    const status = usage[String(pid)];
    if (!status) return [];
    return [{ pid, name: nameOf(commandLine(pid)), cpuMs: status.ctime, rssBytes: status.memory }];
  });
}

/** Closes the files pidusage keeps open between samples (call when sampling is over). */
export function stopSampling(): void {
  pidusage.clear();
}

function commandLine(pid: number): string {
  return readOrEmpty(`/proc/${pid}/cmdline`).split('\0').join(' ');
}

/** TCP ports `pid` listens on (IPv4 and IPv6), via its socket inodes. */
export function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  try {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      const match = /^socket:\[(\d+)\]$/.exec(safeReadlink(`/proc/${pid}/fd/${fd}`));
      if (match) inodes.add(match[1]);
    }
  } catch {
    return [];
  }
  const ports = new Set<number>();
  for (const table of ['tcp', 'tcp6']) {
    for (const line of readOrEmpty(`/proc/${pid}/net/${table}`).split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // local_address is HEXIP:HEXPORT; state 0A is LISTEN; the inode is the tenth field.
      if (fields.length > 9 && fields[3] === '0A' && inodes.has(fields[9])) {
        ports.add(parseInt(fields[1].split(':')[1], 16));
      }
    }
  }
  return [...ports];
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function safeReadlink(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

/**
 * CPU time the whole machine spent busy so far (all cores, ms): user, nice, system and irq time.
 * Time the hypervisor stole is not counted (it is not work done on this machine).
 */
export function machineBusyMs(): number {
  return cpus().reduce(
    (sum, { times }) => sum + times.user + times.nice + times.sys + times.irq,
    0,
  );
}
