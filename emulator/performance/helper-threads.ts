import { readdirSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { onOneCpu } from './heap.js';

// On a single CPU (`taskset`, a container's cpuset) the event loop shares that CPU with the
// process's own helper threads: V8's four platform workers (parallel scavenge, concurrent
// sweeping) and libuv's pool (the snapshot's chunked writes and fsync during compaction). The
// kernel shares a CPU fairly among runnable threads of equal priority, so while they had work
// the main thread got a fifth to a half of it: a 60.9 ms stall in the long-run bench was 26.3 ms
// of the loop running and 37.6 ms of it waiting for the CPU. The helpers' work is never urgent
// unless the main thread waits for it, and then the main thread is not runnable and they get the
// CPU anyway. So the emulator's own process lowers every thread but the main one to nice 19
// (Linux keeps a nice value per thread; raising one's own needs no privilege): the helpers run
// in the gaps of the loop, and GC work the loop needs now (sweeping a page to allocate on) it
// does itself. Numbers: docs/performance.md, "Stalls on a small machine".
//
// With two CPUs or more the helpers run beside the loop and nothing changes. Only an emulator
// that owns its process calls this (`ownsProcess`: `start`, `exec`): the testing API runs in
// the merchant's process.
// Children spawned later (`exec`'s command) are started by the main thread and keep its nice 0.

/** The nice value given to every thread of the process but the main one. */
const HELPER_NICE = 19;

/** What was lowered: GET /_emulator/metrics reports it as `helper_threads`. */
export interface HelperThreads {
  nice: number;
  threads: number;
}

/**
 * On Linux with one CPU: lowers the process's other threads to nice 19, and says what it did
 * (null: not on one CPU, or no /proc). libuv starts its whole pool on its first piece of work,
 * so one is queued first and its threads are listed too.
 */
export async function yieldCpuToEventLoop(): Promise<HelperThreads | null> {
  if (process.platform !== 'linux' || !onOneCpu()) return null;
  await access('.').catch(() => {});
  let entries: string[];
  try {
    entries = readdirSync('/proc/self/task');
  } catch {
    return null; // no /proc (a sandbox): leave the priorities as they are, and say so (null)
  }
  let threads = 0;
  for (const entry of entries) {
    const tid = Number(entry);
    if (tid === process.pid) continue; // the main thread's id is the process id
    try {
      setPriority(tid, HELPER_NICE);
      threads += 1;
    } catch {
      // The thread ended between the listing and the call: nothing to lower.
    }
  }
  return { nice: HELPER_NICE, threads };
}
