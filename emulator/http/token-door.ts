import { createHash, randomBytes } from 'node:crypto';

// What the control token's door remembers, per emulator (one object in Services, made at start
// and gone with the process, so a restart or a stop ends every session):
// - the dashboard's sessions: the login link trades the token for an opaque random value the
//   browser keeps in a cookie. The token itself never goes into a cookie: browsers send a
//   host's cookies to every port of it, so any web server on that host name would read it.
//   A session value is worth less than the token: the door takes it only as the cookie, on the
//   dashboard, and on the control API only with the emulator's own Origin (local-guard.ts).
// - wrong tokens per peer address: after THROTTLE_FAILURES within THROTTLE_WINDOW_MS the
//   peer is answered 429 until its window has passed, so a token cannot be guessed at speed.
// Both run on wall time (performance.now: monotonic), not the emulator clock: a session's
// lifetime and a guessing window are security matters, and the emulator clock jumps by days
// under `clock advance` or stands still under --clock manual (docs/spec-gaps.md).

export const SESSION_LIFETIME_MS = 12 * 60 * 60_000;
export const THROTTLE_FAILURES = 10;
export const THROTTLE_WINDOW_MS = 60_000;
// Bounds on what strangers can make the emulator remember: past them the oldest entries go.
const MAX_SESSIONS = 1_000;
const MAX_PEERS = 10_000;

/** Sessions are found by a digest of their value: the lookup never compares the secret itself. */
const digest = (value: string) => createHash('sha256').update(value).digest('base64url');

export class TokenDoor {
  /** digest of the session value -> when it expires (wall ms) */
  private readonly sessions = new Map<string, number>();
  /** peer address -> its current window of wrong tokens */
  private readonly failures = new Map<string, { start: number; count: number }>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** A new session: its value, for the cookie. */
  openSession(): string {
    const value = randomBytes(32).toString('base64url');
    dropOldest(this.sessions, MAX_SESSIONS);
    this.sessions.set(digest(value), this.now() + SESSION_LIFETIME_MS);
    return value;
  }

  /** True while `value` names a session that has not expired or been closed. */
  hasSession(value: string | undefined): boolean {
    if (!value) return false;
    const key = digest(value);
    const expires = this.sessions.get(key);
    if (expires === undefined) return false;
    if (expires > this.now()) return true;
    this.sessions.delete(key);
    return false;
  }

  closeSession(value: string | undefined): void {
    if (value) this.sessions.delete(digest(value));
  }

  /** How long (ms) `peer` must wait before any token of its is looked at again; 0 when it may try now. */
  blockedFor(peer: string): number {
    const w = this.failures.get(peer);
    if (!w) return 0;
    const left = w.start + THROTTLE_WINDOW_MS - this.now();
    if (left <= 0) {
      this.failures.delete(peer);
      return 0;
    }
    return w.count >= THROTTLE_FAILURES ? left : 0;
  }

  /** `peer` presented a wrong token. */
  failed(peer: string): void {
    const w = this.failures.get(peer);
    if (w && w.start + THROTTLE_WINDOW_MS > this.now()) {
      w.count++;
      return;
    }
    this.failures.delete(peer);
    dropOldest(this.failures, MAX_PEERS);
    this.failures.set(peer, { start: this.now(), count: 1 });
  }
}

/** Makes room for one entry: a Map iterates in insertion order, so the first is the oldest. */
function dropOldest(map: Map<string, unknown>, max: number): void {
  while (map.size >= max) map.delete(map.keys().next().value!);
}
