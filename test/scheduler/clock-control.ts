import assert from 'node:assert/strict';
import { request } from '../helpers/emulator.js';

// The control API's clock, for the scheduler tests: read it, move it (the answer comes once
// everything due on the way has run), and the wait a test may do for a signal.

export const S = 1_000;
export const M = 60 * S;
export const H = 60 * M;

/** The one timestamp format (6 fraction digits) of a clock time. */
export const iso = (ms: number) => new Date(ms).toISOString().replace('Z', '000Z');
/** A creation stamp's millisecond (stamps made in one ms count on in microseconds). */
export const msOf = (stamp: string) => Date.parse(`${stamp.slice(0, 23)}Z`);

export interface ClockState {
  mode: 'manual' | 'system';
  now: string;
  pending_timers: number;
}

export async function clock(base: string): Promise<ClockState> {
  const res = await request(base, 'GET', '/_emulator/clock', { key: null });
  assert.equal(res.status, 200, res.text);
  return res.json.data;
}

export async function advance(base: string, body: { by?: string; ms?: number }): Promise<ClockState> {
  const res = await request(base, 'POST', '/_emulator/clock/advance', { key: null, body });
  assert.equal(res.status, 200, res.text);
  return res.json.data;
}

/** Polls over HTTP until `check` holds; only a give-up timeout, never an assertion about time. */
export async function until(check: () => Promise<boolean>, what: string, giveUpMs = 20_000): Promise<void> {
  const deadline = Date.now() + giveUpMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}
