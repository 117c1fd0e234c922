import { availableParallelism } from 'node:os';
import { setFlagsFromString } from 'node:v8';

// A standalone emulator (`svc emulator start`, `exec`) is a long-lived process whose heap is
// mostly its store: 100k payment pairs are ~400 MB of records that stay live for days, while
// every request makes short-lived garbage. Three V8 defaults suit it badly (numbers: docs/
// performance.md, "Memory"):
//
// - Heap growing. V8 lets the old space reach ~2.5× the live data before it collects again
//   (137 MB live after a full GC, 324 MB of old space, 458 MB RSS at 30k pairs). Growing by
//   30% at most keeps RSS near the data (302 MB at 30k pairs).
// - Allocation-site pretenuring. Once V8 sees most objects of an allocation site survive a
//   scavenge (a burst of requests that outlive one), it allocates that site's objects straight
//   in the old space, and the decision sticks. Under load, Express's and our per-request
//   objects ended up there: ~30% of what each scavenge saw was promoted (3.3 MB a scavenge,
//   36 MB/s), every byte of it garbage that only a full mark-compact frees, so full
//   collections ran every ~2 s and their marking threads took the CPU from the event loop.
//   Without pretenuring nothing of a request outlives the young generation: scavenges fell
//   from 8-9 ms to ~1.5 ms, the largest stalls under load from 95-140 ms to 60-85 ms, and
//   RSS at 100k pairs from 811 to 684 MB.
//
// - Concurrent marking, on a process that may run on one CPU only (its affinity: `taskset`, a
//   container's cpuset). V8 marks the old space with four helper threads while the main thread
//   runs; on one CPU they take turns with the main thread instead of running beside it, and
//   the kernel gives it about a fifth of the CPU while they mark. Worse, when V8 decides
//   marking is done while the helpers still hold unmarked work (they were not scheduled), the
//   final pause does the rest: 243 and 273 ms pauses at ~470 MB, pinned to one CPU. Without
//   concurrent marking the main thread marks in incremental steps of at most ~10 ms between
//   turns of the event loop, and the final pause stayed under 35 ms over a 100k-pair run. With
//   two or more CPUs the helpers can run beside the loop, and V8's default stays: turning it
//   off there cost ~10% of req/s on 2 CPUs (the main thread does all the marking itself).
//
// Only an emulator that owns its process calls this (`ownsProcess`: `start`, `exec`): the
// testing API runs inside the merchant's own test process, whose heap is not ours to tune. A flag given on the command line wins
// (`node --heap-growing-percent=50 bin/svc.js …`, `node --allocation-site-pretenuring …`).
const HEAP_GROWING_PERCENT = 30;

/** The process may run on one CPU only (its affinity: `taskset`, a container's cpuset). */
export const onOneCpu = () => availableParallelism() === 1;

const TUNING: ReadonlyArray<{ name: string; flag: string; when?: () => boolean }> = [
  { name: 'heap-growing-percent', flag: `--heap-growing-percent=${HEAP_GROWING_PERCENT}` },
  { name: 'allocation-site-pretenuring', flag: '--no-allocation-site-pretenuring' },
  { name: 'concurrent-marking', flag: '--no-concurrent-marking', when: onOneCpu },
];

/** A V8 flag's name as given on a command line: `--no-foo_bar=1` → `foo-bar`. */
const flagName = (arg: string) =>
  arg
    .replace(/^--(no-)?/, '')
    .split('=')[0]
    .replaceAll('_', '-');

/** Sets the flags this process has not been given; returns them (GET /_emulator/metrics reports them as `heap_tuning`). */
export function tuneHeapForLongRun(execArgv: readonly string[] = process.execArgv): string[] {
  const given = new Set(execArgv.filter((a) => a.startsWith('--')).map(flagName));
  const applied = TUNING.filter(({ name, when }) => !given.has(name) && (!when || when())).map((t) => t.flag);
  for (const flag of applied) setFlagsFromString(flag);
  return applied;
}
