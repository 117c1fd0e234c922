// Whether anything is running in this emulator process: a request (app.ts), the scheduler's due
// work (scheduler.ts), a compaction slice (file-store.ts). The event-loop probes
// (control/stall-probe.ts, control/metrics.ts) tick every 10 ms while there is some; after
// long enough with none they sleep, and the next activity wakes them here. An idle emulator
// then wakes about never instead of ~240 times a second (measured: 2.3% of a CPU, 93% of it
// the probes). A stall needs something running, so sleeping probes miss none.

let count = 0;
let waker: (() => void) | null = null;

/** Something runs now (cheap: called on every request). */
export function noteActivity(): void {
  count++;
  if (waker !== null) {
    const wake = waker;
    waker = null;
    wake();
  }
}

/** How many activities so far (the probes compare it between ticks). */
export const activitySeen = (): number => count;

/** Calls `wake` once, at the next activity. */
export function wakeOnActivity(wake: () => void): void {
  waker = wake;
}
