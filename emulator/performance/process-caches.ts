import { randomFillSync } from 'node:crypto';

// The only module-level state under emulator/ (test/architecture.test.ts allows it in this file
// and nowhere else): caches of the process, kept for speed, that no emulator can tell it shares
// with another, since each answer is what computing it afresh would give. Everything an
// emulator keeps is a field of its Services.

// Ids and trace ids take a few random bytes per request; one call into the CSPRNG per id
// showed in profiles (~5 µs a call against ~0.25 µs from the pool), so they are cut from a
// pooled buffer refilled 4 KB at a time (what node's own randomUUID does). Same generator,
// same strength.
const pool = Buffer.alloc(4096);
let poolAt = pool.length;

export function randomBytesPooled(n: number): Buffer {
  if (poolAt + n > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const out = pool.subarray(poolAt, poolAt + n);
  poolAt += n;
  return out;
}

// The date and time to the second, of the last second formatted: every request, event and
// record of one second shares it (Date#toISOString was a visible share of a request's CPU).
let cachedSecond = Number.NaN;
let cachedPrefix = '';

/** `2026-11-21T12:00:00.` for a second since the epoch. */
export function isoSecondPrefix(second: number): string {
  if (second !== cachedSecond) {
    cachedPrefix = new Date(second * 1000).toISOString().slice(0, -4);
    cachedSecond = second;
  }
  return cachedPrefix;
}

// A currency's Intl.NumberFormat takes ~0.1 ms to make; a dashboard page shows dozens of amounts.
const formatters = new Map<string, Intl.NumberFormat>();

export function currencyFormatter(currency: string): Intl.NumberFormat {
  let f = formatters.get(currency);
  if (!f) formatters.set(currency, (f = new Intl.NumberFormat('en-US', { style: 'currency', currency })));
  return f;
}
