// The one clock of the emulator. Idempotency expiry, OTP expiry, payout resolution and the
// webhook retry schedule all read time and schedule work through it, so a test (or a user
// with `svc emulator clock advance 2h`) can fast-forward instead of waiting.
//
// Two modes share one implementation:
//  - "system": now() is wall time plus an offset that `advance()` grows; timers run on real
//    setTimeout but are re-armed whenever time jumps.
//  - "manual": now() only moves when `advance()` or `set()` is called; due timers fire then,
//    in time order, synchronously with the advance.

export type ClockMode = 'system' | 'manual';

export interface Clock {
  readonly mode: ClockMode;
  /** Milliseconds since the epoch, as the emulator sees it. */
  now(): number;
  /** Runs `fn` once the emulator's time reaches `at` (ms since epoch). */
  at(at: number, fn: () => void): TimerHandle;
  cancel(handle: TimerHandle): void;
  /** Moves time forward by `ms` and fires everything that became due. */
  advance(ms: number): void;
}

export interface TimerHandle {
  readonly id: number;
}

interface Timer {
  id: number;
  at: number;
  fn: () => void;
}

// Node clamps setTimeout above 2^31-1 ms to 1 ms; a 24 h idempotency expiry is far below that,
// but re-arming keeps long waits (and big advances) exact.
const MAX_TIMEOUT = 2 ** 31 - 1;

/**
 * The latest time the clock may show: 2200-01-01T00:00:00.000Z. Past ±8.64e15 ms a Date is
 * invalid and toISOString() throws on every later write; well before that, creation stamps
 * (ids.ts) count microseconds in a number, exact only up to 2^53 µs (mid-2255), beyond which
 * they would stop increasing. 2200 is a round bound inside both.
 */
export const MAX_CLOCK_MS = Date.UTC(2200, 0, 1);
const MAX_CLOCK_ISO = '2200-01-01T00:00:00.000Z';

/** How far the clock can still move forward, in ms. */
export { MAX_CLOCK_ISO };
export const clockRoom = (clock: Pick<Clock, 'now'>) => MAX_CLOCK_MS - clock.now();

export class EmulatorClock implements Clock {
  readonly mode: ClockMode;
  private offset = 0;
  private frozenAt: number;
  private timers: Timer[] = [];
  private nextId = 1;
  private wake: NodeJS.Timeout | undefined;
  private firing = false;

  constructor(mode: ClockMode = 'system', start?: number) {
    this.mode = mode;
    if (start !== undefined && !(Number.isSafeInteger(start) && start >= 0 && start <= MAX_CLOCK_MS)) {
      throw new RangeError(`the clock's start must be between 1970 and ${MAX_CLOCK_ISO} (ms since the epoch), got ${start}`);
    }
    this.frozenAt = start ?? Date.now();
    if (mode === 'system' && start !== undefined) this.offset = start - Date.now();
  }

  now(): number {
    return this.mode === 'manual' ? this.frozenAt : Date.now() + this.offset;
  }

  at(at: number, fn: () => void): TimerHandle {
    const timer: Timer = { id: this.nextId++, at, fn };
    // Keep timers sorted by due time (stable for equal times) so firing order is deterministic.
    let i = this.timers.length;
    while (i > 0 && this.timers[i - 1].at > at) i--;
    this.timers.splice(i, 0, timer);
    this.arm();
    return { id: timer.id };
  }

  cancel(handle: TimerHandle): void {
    const i = this.timers.findIndex((t) => t.id === handle.id);
    if (i >= 0) this.timers.splice(i, 1);
    this.arm();
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance() takes a non-negative number of ms');
    if (ms > clockRoom(this)) throw new RangeError(`advance(${ms}) would move the clock past ${MAX_CLOCK_ISO}`);
    if (this.mode === 'manual') this.frozenAt += ms;
    else this.offset += ms;
    this.fireDue();
  }

  /** Number of timers waiting; the control API reports it. */
  pending(): number {
    return this.timers.length;
  }

  /** Stops the wake-up timer so the process can exit. */
  stop(): void {
    this.clearTimers();
  }

  /**
   * Drops every waiting timer (a reset or restore replaces the world the timers were armed
   * for; the modules re-arm from the new records). The clock keeps its time and keeps working.
   */
  clearTimers(): void {
    if (this.wake) clearTimeout(this.wake);
    this.wake = undefined;
    this.timers = [];
  }

  private fireDue(): void {
    if (this.firing) return; // a timer that advances the clock must not re-enter
    this.firing = true;
    try {
      // A fired timer may schedule another that is already due (a retry at +1 s after a
      // 2 h jump): keep going until nothing is due.
      while (this.timers.length > 0 && this.timers[0].at <= this.now()) {
        const t = this.timers.shift()!;
        try {
          t.fn();
        } catch (err) {
          console.error('[clock] timer failed:', err);
        }
      }
    } finally {
      this.firing = false;
    }
    this.arm();
  }

  private arm(): void {
    if (this.mode === 'manual') return;
    if (this.wake) clearTimeout(this.wake);
    this.wake = undefined;
    const next = this.timers[0];
    if (!next) return;
    const delay = Math.min(Math.max(next.at - this.now(), 0), MAX_TIMEOUT);
    this.wake = setTimeout(() => this.fireDue(), delay);
    this.wake.unref();
  }
}

