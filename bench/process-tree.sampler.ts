// CPU time and resident memory of a process and its descendants, and the busy time of the whole
// machine, from Linux /proc: how much of the machine the stack (launcher, gateway, embeddings
// service with its ORT worker threads) used during a run, and how much other tenants took.
// Empty (or 0) where /proc does not exist.
import { readFileSync, readdirSync, readlinkSync } from 'node:fs';

export interface ProcessSample {
  readonly pid: number;
  readonly name: string;
  /** utime + stime of all the process's threads, in ms. */
  readonly cpuMs: number;
  readonly rssBytes: number;
}

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat; 100 on every Linux ABI Node ships for. */
const CLOCK_TICKS_PER_SECOND = 100;
const PAGE_SIZE = 4096;

interface StatLine {
  readonly ppid: number;
  readonly cpuMs: number;
  readonly rssBytes: number;
}

function readStat(pid: number): StatLine | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return {
      ppid: Number(fields[1]),
      cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND,
      rssBytes: Number(fields[21]) * PAGE_SIZE,
    };
  } catch {
    return undefined; // exited meanwhile, or no /proc
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((e) => /^\d+$/.test(e))
      .map(Number);
  } catch {
    return [];
  }
}

/** `root` and every process below it, each named by `nameOf(its command line)`. */
export function sampleProcessTree(
  root: number,
  nameOf: (commandLine: string) => string,
): ProcessSample[] {
  const stats = new Map<number, StatLine>();
  for (const pid of allPids()) {
    const stat = readStat(pid);
    if (stat) stats.set(pid, stat);
  }
  const samples: ProcessSample[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.shift() as number;
    const stat = stats.get(pid);
    if (!stat) continue;
    samples.push({
      pid,
      name: nameOf(commandLine(pid)),
      cpuMs: stat.cpuMs,
      rssBytes: stat.rssBytes,
    });
    for (const [child, childStat] of stats) if (childStat.ppid === pid) pending.push(child);
  }
  return samples;
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

/** CPU time the whole machine spent busy so far (all cores, ms), from /proc/stat; 0 without it. */
export function machineBusyMs(): number {
  const line = readOrEmpty('/proc/stat').split('\n')[0];
  if (!line.startsWith('cpu ')) return 0;
  // user nice system idle iowait irq softirq steal …: everything but idle and iowait is busy.
  const [user, nice, system, , , irq, softirq, steal] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  const ticks = user + nice + system + irq + softirq + (steal || 0);
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
