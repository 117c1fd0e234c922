import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

// On a machine with few CPUs the load generator (this process) and the server take turns on
// the same CPUs, and the server's event loop then stalls because it is not scheduled, not
// because of its own work: on 2 CPUs under plain POST load with no compaction at all, the
// emulator's loop saw 94 ms stalls, and its parallel scavenges (which wait for their helper
// threads) grew from ~20 to ~80 ms. A row that judges the server's own stalls pins the server
// to CPU 0 and this process to the others (`taskset`, util-linux), as a load test on one box
// keeps client and server apart. Without taskset or with one CPU, nothing is pinned and the
// rows say so.

export interface Pinning {
  /** The command and arguments that start the server pinned to CPU 0. */
  wrap(command: string, args: string[]): [string, string[]];
  /** Gives this process every CPU back. */
  release(): void;
  note: string;
}

const taskset = (args: string[]) => spawnSync('taskset', args, { stdio: 'ignore' }).status === 0;

export function pinServer(): Pinning | undefined {
  const cpus = availableParallelism();
  if (cpus < 2 || !taskset(['-V'])) return undefined;
  // -a: every thread of this process (libuv's pool and V8's workers too), not only the main one.
  if (!taskset(['-a', '-p', '-c', `1-${cpus - 1}`, String(process.pid)])) return undefined;
  return {
    wrap: (command, args) => ['taskset', ['-c', '0', command, ...args]],
    release: () => void taskset(['-a', '-p', '-c', `0-${cpus - 1}`, String(process.pid)]),
    note: `emulator on CPU 0, load on CPU${cpus > 2 ? `s 1-${cpus - 1}` : ' 1'}`,
  };
}
