import { ApiError } from '../errors.js';
import type { RateLimitConfig } from '../../contract/formats.js';

// One token bucket per merchant, shared by its test and live keys (the spec: test traffic
// shares the live budgets). Buckets refill on wall time, not the emulator's clock: the limit
// protects the process from a runaway client, and a frozen manual clock must not turn every
// request into a 429.


export const DEFAULT_RATE_LIMIT: RateLimitConfig = { limit: 100, windowMs: 1000 };


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
  constructor(override readonly retryAfterSeconds: number) {
    super('RATE_LIMITED', `Too many requests for this merchant; retry after ${retryAfterSeconds} s.`);
  }
}
