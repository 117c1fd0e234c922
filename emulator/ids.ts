import { randomUUID } from 'node:crypto';
import { isoSecondPrefix, randomBytesPooled } from './performance/process-caches.js';
import type { Clock } from './clock.js';

const ALPHANUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
// Link codes are read aloud and typed: upper case, no 0/O or 1/I.
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** `n` random bytes as hex (trace ids). */
export const randomHex = (n: number) => randomBytesPooled(n).toString('hex');

function randomString(length: number, alphabet: string): string {
  const bytes = randomBytesPooled(length);
  let out = '';
  // 256 is not a multiple of every alphabet length; the bias is irrelevant for ids.
  for (let i = 0; i < length; i++) out += alphabet[bytes[i] % alphabet.length];
  return out;
}

/** `pl_3kF9…`: a type prefix and 20 random characters. */
export const newId = (prefix: string) => `${prefix}_${randomString(20, ALPHANUM)}`;
export const newLinkCode = () => `PL-${randomString(8, CODE_ALPHABET)}`;
export const newUuid = () => randomUUID();

/**
 * Creation timestamps with microsecond digits that never repeat. The payments list pages with
 * `before=<created_at of the last row>`; if two rows shared a timestamp, a page boundary
 * between them would drop one. Each stamp is the clock's time, or 1 µs after the previous
 * stamp when the clock has not moved (a frozen manual clock, or many writes in one ms).
 */
export class Timestamps {
  private lastMicros = 0;
  constructor(private readonly clock: Clock) {}

  next(): string {
    return formatMicros(this.nextMicros());
  }

  /** The next stamp as microseconds since the epoch (format it with formatMicros). */
  nextMicros(): number {
    let micros = this.clock.now() * 1000;
    if (micros <= this.lastMicros) micros = this.lastMicros + 1;
    this.lastMicros = micros;
    return micros;
  }

  /** Raise the floor to stamps already stored (after a restart). */
  observe(iso: string): void {
    const micros = parseMicros(iso);
    if (micros > this.lastMicros) this.lastMicros = micros;
  }
}

export function formatMicros(micros: number): string {
  const second = Math.floor(micros / 1e6);
  // Before 1970 too, the microseconds past the floored second are a positive remainder.
  return `${isoSecondPrefix(second)}${String(micros - second * 1e6).padStart(6, '0')}Z`;
}

/**
 * The one timestamp format of every record and response: UTC with six fraction digits, as
 * created_at has (`2026-11-21T12:00:00.123000Z`). Times that come from the clock (ms) use this.
 */
export const isoMicros = (ms: number): string => formatMicros(Math.floor(ms) * 1000);

/** Any ISO-8601 timestamp (offset, fraction digits) in the one format above. */
export const normalizeIso = (iso: string): string => formatMicros(parseMicros(iso));

/** Microseconds since the epoch of an ISO-8601 timestamp (any offset, any fraction digits). */
export function parseMicros(iso: string): number {
  const m = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:?\d{2})$/i.exec(iso);
  if (!m) return Number.NaN;
  const seconds = Date.parse(`${m[1]}${m[3].toUpperCase()}`);
  if (Number.isNaN(seconds)) return Number.NaN;
  const fraction = (m[2] ?? '').padEnd(6, '0').slice(0, 6);
  return seconds * 1000 + Number(fraction);
}
