// The one clock of the emulator: what time it is, and nothing else. Idempotency expiry, OTP and
// PIN expiry, payout resolution, MoMo clearing, retention and the webhook retry schedule all
// read it; every timed effect is run by the scheduler (scheduler/scheduler.ts), which is also
// what moves the clock forward (`svc emulator clock advance 2h`), one due item at a time.
//
// Two modes:
//  - "system": now() is wall time plus an offset that advances grow;
//  - "manual": now() only moves when the scheduler moves it.
//
// The clock never goes back. Its position is stored in the data dir (scheduler/clock-record.ts)
// and in snapshots, and a restart, a restore or a reset resumes from it (`resume`), so a key
// used 23 h ago never turns 25 h old by a restart that rewound the time.

export type ClockMode = 'system' | 'manual';

export interface Clock {
  readonly mode: ClockMode;
  /** Milliseconds since the epoch, as the emulator sees it. */
  now(): number;
}

/** Where the clock stands, as stored: manual mode's time, system mode's offset, and the time it showed then. */
export interface ClockPosition {
  mode: ClockMode;
  /** The time the clock showed when the position was taken (ms since the epoch). */
  now_ms: number;
  /** System mode: emulator time minus wall time (ms); 0 for a manual clock. */
  offset_ms: number;
}

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

/** One advance in progress: where it ends (a system clock's end moves on with the wall clock). */
interface AdvanceTarget {
  /** The time the advance ends at, as of now. */
  end(): number;
  /** Puts the clock at the end. */
  finish(): void;
}

export class EmulatorClock implements Clock {
  readonly mode: ClockMode;
  private offset = 0;
  private frozenAt: number;
  /**
   * A system clock never shows a time before this: the last position stored, so a wall clock
   * set back (or a restart on a machine whose clock is behind) does not rewind the emulator.
   */
  private floor = 0;

  constructor(mode: ClockMode = 'system', start?: number) {
    this.mode = mode;
    if (start !== undefined && !(Number.isSafeInteger(start) && start >= 0 && start <= MAX_CLOCK_MS)) {
      throw new RangeError(`the clock's start must be between 1970 and ${MAX_CLOCK_ISO} (ms since the epoch), got ${start}`);
    }
    this.frozenAt = start ?? Date.now();
    if (mode === 'system' && start !== undefined) this.offset = start - Date.now();
  }

  now(): number {
    if (this.mode === 'manual') return this.frozenAt;
    const t = Date.now() + this.offset;
    return t < this.floor ? this.floor : t;
  }

  /**
   * Moves the clock to `t` if that is later than now; an earlier `t` changes nothing (the clock
   * never goes back). A system clock keeps following the wall clock from there.
   */
  moveTo(t: number): void {
    if (t > MAX_CLOCK_MS) throw new RangeError(`the clock cannot move past ${MAX_CLOCK_ISO}`);
    if (this.mode === 'manual') {
      if (t > this.frozenAt) this.frozenAt = t;
    } else {
      const offset = t - Date.now();
      if (offset > this.offset) this.offset = offset;
    }
  }

  /**
   * The end of an advance by `ms` that starts now. A manual clock ends exactly `ms` later; a
   * system clock ends `ms` ahead of the wall clock, whenever that is (the wall clock moves on
   * while the advance runs its due work).
   */
  beginAdvance(ms: number): AdvanceTarget {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('an advance takes a non-negative number of ms');
    if (ms > clockRoom(this)) throw new RangeError(`an advance of ${ms} ms would move the clock past ${MAX_CLOCK_ISO}`);
    if (this.mode === 'manual') {
      const end = this.frozenAt + ms;
      return { end: () => end, finish: () => this.moveTo(end) };
    }
    const offset = Math.max(this.offset, this.now() - Date.now()) + ms;
    return {
      end: () => Math.min(Date.now() + offset, MAX_CLOCK_MS),
      finish: () => {
        if (offset > this.offset) this.offset = offset;
      },
    };
  }

  /** Where the clock stands now, to be stored. */
  position(): ClockPosition {
    const now = this.now();
    return { mode: this.mode, now_ms: now, offset_ms: this.mode === 'manual' ? 0 : now - Date.now() };
  }

  /**
   * Carries on from a stored position (a restart, a restored snapshot, an imported world),
   * never backwards: a manual clock shows the later of its time and the stored one; a system
   * clock keeps the larger offset, and never shows a time before the stored one. Returns how
   * far the clock moved (0 when the stored position was not ahead).
   */
  resume(stored: ClockPosition): number {
    const before = this.now();
    if (this.mode === 'system' && stored.mode === 'system' && stored.offset_ms > this.offset) this.offset = stored.offset_ms;
    if (stored.now_ms > this.floor && this.mode === 'system') this.floor = Math.min(stored.now_ms, MAX_CLOCK_MS);
    this.moveTo(Math.min(stored.now_ms, MAX_CLOCK_MS));
    return this.now() - before;
  }

  /** Raises the floor to what was just stored (a system clock never shows less again). */
  stored(position: ClockPosition): void {
    if (this.mode === 'system' && position.now_ms > this.floor) this.floor = position.now_ms;
  }
}
