// The retry schedule, in one place (docs/spec-gaps.md explains the reading).
//
// The spec: "up to 7 attempts with delays of 1s, 5s, 25s, 2m, 10m, 1h, 6h (about 10 hours
// total)". Seven attempts, seven delays: each delay is the wait BEFORE its attempt. Attempt 1
// is due 1 s after the event (the outbox writes next_attempt_at = event time + 1 s); after
// attempt k fails, attempt k+1 is due DELAYS_MS[k] after the failure was recorded. Cumulative
// (with instant failures): 1 s, 6 s, 31 s, 2 m 31 s, 12 m 31 s, 1 h 12 m 31 s, 7 h 12 m 31 s;
// the 7th failure dead-letters. With `--clock manual` nothing goes out until the clock moves:
// `svc emulator clock advance --to-next-delivery` (POST /_emulator/clock/advance-to-next-delivery)
// jumps to the next due attempt without knowing the delays.

export const DELAYS_MS = [1_000, 5_000, 25_000, 120_000, 600_000, 3_600_000, 21_600_000] as const;
export const MAX_ATTEMPTS = DELAYS_MS.length;

/** The wait before the first attempt of a new event's delivery. */
export const FIRST_ATTEMPT_DELAY_MS = DELAYS_MS[0];

/** How long after failed attempt number `n` (1-based, within the current round) the next one is due; null: dead-letter. */
export function delayAfterFailure(n: number): number | null {
  return n >= MAX_ATTEMPTS ? null : DELAYS_MS[n];
}
