// Text formats the emulator's options take, parsed the same way by `svc emulator start`, the
// testing API and the fault files.

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
