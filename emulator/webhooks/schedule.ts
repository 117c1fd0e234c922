// The retry schedule, in one place (docs/spec-gaps.md explains the reading).
//
// The spec: "up to 7 attempts with delays of 1s, 5s, 25s, 2m, 10m, 1h, 6h". Attempt 1 goes out
// as soon as the delivery exists (the outbox writes next_attempt_at = the event's time, so a
// frozen manual clock still delivers at once). After attempt k fails, attempt k+1 is due
// RETRY_DELAYS_MS[k-1] later: 1 s, 5 s, 25 s, 2 m, 10 m, 1 h. The 7th failure dead-letters the
// delivery; the list's last value (6 h) would only be the wait before an 8th attempt, which
// the spec's "7 attempts" rules out, so it is kept here for the record and never waited on.

export const RETRY_DELAYS_MS = [1_000, 5_000, 25_000, 120_000, 600_000, 3_600_000, 21_600_000] as const;
export const MAX_ATTEMPTS = 7;

/** How long after failed attempt number `n` (1-based, within the current round) the next one is due; null: no more. */
export function delayAfterFailure(n: number): number | null {
  return n >= MAX_ATTEMPTS ? null : RETRY_DELAYS_MS[n - 1];
}
