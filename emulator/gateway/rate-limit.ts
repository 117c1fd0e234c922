import { ApiError } from '../schema/errors.js';

// One token bucket per merchant, shared by its test and live keys (the spec: test traffic
// shares the live budgets). Buckets refill on wall time, not the emulator's clock: the limit
// protects the process from a runaway client, and a frozen manual clock must not turn every
// request into a 429.

export interface RateLimitConfig {
  /** Requests allowed per window (also the burst size). */
  limit: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { limit: 100, windowMs: 1000 };

/** "100/1s", "6000/1m" or "off". */
export function parseRateLimit(text: string): RateLimitConfig | null {
  if (text === 'off') return null;
  const m = /^(\d+)\/(\d+)(ms|s|m)$/.exec(text);
  if (!m || Number(m[1]) < 1 || Number(m[2]) < 1) throw new RangeError(`rate limit must look like 100/1s, 6000/1m or off, not "${text}"`);
  const unit = { ms: 1, s: 1000, m: 60_000 }[m[3] as 'ms' | 's' | 'm'];
  return { limit: Number(m[1]), windowMs: Number(m[2]) * unit };
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(
    private readonly config: RateLimitConfig | null,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Full buckets for everyone (a reset world starts unthrottled). */
  clear(): void {
    this.buckets.clear();
  }

  take(merchantId: string): void {
    if (!this.config) return;
    const { limit, windowMs } = this.config;
    const t = this.now();
    const bucket = this.buckets.get(merchantId) ?? { tokens: limit, at: t };
    bucket.tokens = Math.min(limit, bucket.tokens + ((t - bucket.at) * limit) / windowMs);
    bucket.at = t;
    this.buckets.set(merchantId, bucket);
    if (bucket.tokens < 1) {
      const waitMs = ((1 - bucket.tokens) * windowMs) / limit;
      throw new RateLimitedError(Math.max(1, Math.ceil(waitMs / 1000)));
    }
    bucket.tokens -= 1;
  }
}

export class RateLimitedError extends ApiError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED', `Too many requests for this merchant; retry after ${retryAfterSeconds} s.`);
  }
}
