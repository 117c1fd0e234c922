// Text formats the emulator's options take, parsed the same way by `svc emulator start`, the
// testing API and the fault files.

/** What parseDuration accepts, as a pattern for the OpenAPI documents: "0", or numbers with units, one after another. */
export const DURATION_PATTERN = '^(0|([0-9]+(\\.[0-9]+)?(ms|s|m|h|d))+)$';

/**
 * Durations of at most one hour written with one unit (0, 3600000ms, 3600s, 60m, 1h and below):
 * the part of "a duration up to 1h" a pattern can state. Sums such as 1m30s and decimals are
 * accepted too, up to 1h; the documents say so in words.
 */
export const DURATION_UP_TO_1H_PATTERN =
  '^(0|([0-9]{1,6}|[12][0-9]{6}|3[0-5][0-9]{5}|3600000)ms|([0-9]{1,3}|[12][0-9]{3}|3[0-5][0-9]{2}|3600)s|([0-5]?[0-9]|60)m|[01]h)$';

/** Parses "90s", "2h", "1d", "500ms", "1h30m" into milliseconds; a bare "0" needs no unit. */
export function parseDuration(text: string): number {
  if (text === '0') return 0;
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    total += Number(m[1]) * units[m[2]];
    matched = re.lastIndex;
  }
  if (matched === 0 || matched !== text.length) throw new RangeError(`not a duration: "${text}" (use e.g. 90s, 2h, 1h30m, 1d)`);
  return Math.round(total);
}

export interface RateLimitConfig {
  /** Requests allowed per window (also the burst size). */
  limit: number;
  windowMs: number;
}

/** "100/1s", "6000/1m" or "off". */
export function parseRateLimit(text: string): RateLimitConfig | null {
  if (text === 'off') return null;
  const m = /^(\d+)\/(\d+)(ms|s|m)$/.exec(text);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new RangeError(`rate limit must look like 100/1s, 6000/1m or off, not "${text}"`);
  const unit = { ms: 1, s: 1000, m: 60_000 }[m[3] as 'ms' | 's' | 'm'];
  return { limit: Number(m[1]), windowMs: Number(m[2]) * unit };
}
