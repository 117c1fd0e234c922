import { readFileSync } from 'node:fs';
import type { LoadResult } from './load.js';

// A server's CPU time over a load's measured slices, read from outside (/proc/<pid>/stat: user
// and system time of all its threads, in the kernel's USER_HZ ticks, 100 a second on Linux), for
// the servers that do not report their own as the emulator does (GET /_emulator/metrics): the
// references and the peers. Comparable across runs on a busy machine, as req/s is not.

const TICK_MS = 10;

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces), from field 3 (state). */
function statFields(pid: number | 'self'): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** utime (field 14) + stime (15): every thread of the process. */
function cpuMs(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** cutime (field 16) + cstime (17): this process's children that have ended, and theirs; undefined where /proc is missing. */
export function endedChildrenCpuMs(): number | undefined {
  try {
    const fields = statFields('self');
    return (Number(fields[13]) + Number(fields[14])) * TICK_MS;
  } catch {
    return undefined;
  }
}

/** Hooks around each measured slice of a load on process `pid`, and its CPU per request. */
export function processCpu(pid: number) {
  let total = 0;
  let at = 0;
  return {
    before: async () => void (at = cpuMs(pid)),
    after: async () => void (total += cpuMs(pid) - at),
    perRequestMs: (r: LoadResult) => total / r.requests,
  };
}
