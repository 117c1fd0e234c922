// The spec's client retry guidance, exactly:
//   same idempotency key on every attempt; backoff 500 ms doubling, capped at 30 s; at most
//   5 attempts in all; retry 429, 500, 502, 503 and 409 IDEMPOTENCY_IN_FLIGHT; never 401, 403,
//   404, 422 or 409 IDEMPOTENCY_CONFLICT. A Retry-After header replaces the computed wait.

export const MAX_ATTEMPTS = 5;
const BASE_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;

const RETRY_STATUSES = new Set([429, 500, 502, 503]);

/** Whether an answer with this status and error code should be tried again. */
export function isRetryableStatus(status: number, code: string | undefined): boolean {
  if (RETRY_STATUSES.has(status)) return true;
  return status === 409 && code === 'IDEMPOTENCY_IN_FLIGHT';
}

/** Network failures worth a retry: the request may not have reached the service, or its answer was lost. */
const RETRY_NETWORK_CODES = new Set([
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  // transport.ts (node:http): no answer within --timeout. (Not BODY_TIMEOUT: an answer that came
  // but did not finish in time was the server answering, too slowly; asking again would cost
  // another --timeout, and a server that drips its answer would hold a command five times over.)
  'HEADERS_TIMEOUT',
  // undici's, for the live stream:
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function isRetryableNetworkCode(code: string | undefined): boolean {
  return code !== undefined && RETRY_NETWORK_CODES.has(code);
}

/** The wait before retry number `retry` (0 for the first retry): 500, 1000, 2000, 4000 … ≤ 30 000 ms. */
export function backoffMs(retry: number): number {
  return Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** retry);
}

/** Retry-After as ms (delta seconds or an HTTP date), capped at 30 s; undefined when absent or unreadable. */
export function retryAfterMs(header: string | string[] | undefined, now = Date.now()): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || value.trim() === '') return undefined;
  let ms: number;
  if (/^\d+$/.test(value.trim())) ms = Number(value.trim()) * 1000;
  else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return undefined;
    ms = Math.max(0, at - now);
  }
  return Math.min(ms, MAX_DELAY_MS);
}
