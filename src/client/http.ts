import { networkMessage, SvcError } from './error.js';
import { AnswerTooLarge, send, TransportTimeout } from './transport.js';
import { CHECKOUT_URL_HEADER, GUARD_HEADER } from '../../contract/network.js';
import { backoffMs, isRetryableNetworkCode, isRetryableStatus, MAX_ATTEMPTS, retryAfterMs } from './retry.js';
import { codeOf } from '../../contract/errors.js';

// The HTTP half of the client: one call = up to 5 attempts with the same idempotency key and
// trace id, the spec's backoff, a per-attempt timeout, and every outcome folded into either
// `ApiResult` or `SvcError`. Responses are not validated against the zod schemas at run time:
// the types come from those schemas at compile time, and the CLI must keep working against a
// live host that adds fields (loading zod and every schema would also cost cold-start time).

type IdempotencyHeader = 'X-Idempotency-Key' | 'Idempotency-Key';

export interface ClientOptions {
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; omitted for the emulator's control API. */
  apiKey?: string;
  /** Per-attempt deadline in ms: connect, headers and the whole body. */
  timeoutMs?: number;
  /** X-Trace-ID sent on every request of this client; generated when absent. */
  traceId?: string;
  /** Called before each retry (the CLI prints it on stderr). */
  onRetry?(info: RetryInfo): void;
  /** Replaced in unit tests of the policy; real waits otherwise. */
  sleep?(ms: number): Promise<void>;
  /** Sent on every request (the control API's Svc-Control-Token). */
  headers?: Record<string, string>;
  /** Most attempts of a call (default: the spec's 5); 1 for a probe that only asks whether something answers. */
  attempts?: number;
}

export interface RetryInfo {
  attempt: number;
  waitMs: number;
  reason: string;
}

interface CallOptions {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  /** The route takes an idempotency key in this header; `key` is reused on every attempt. */
  idempotency?: { header: IdempotencyHeader; key: string };
}

export interface ApiResult<T> {
  data: T;
  status: number;
  traceId: string | null;
  idempotencyKey?: string;
  /** The service answered with a stored response (Idempotent-Replayed: true). */
  replayed: boolean;
  attempts: number;
  /** An emulator's checkout base (Svc-Checkout-Url); a real host sends none. */
  checkoutUrl?: string;
}

const DEFAULT_TIMEOUT_MS = 30_000;

// node:crypto is loaded only for a write's idempotency key. A one-shot read pays ~1.5 ms to load
// it (issue 28's cold start; `node -e`, the baseline, has it already), and a trace id needs
// no secrecy: it only has to be unlikely to repeat, which 80 bits of Math.random (V8 seeds it
// from the OS's randomness at start) are.
export const newIdempotencyKey = (): string => process.getBuiltinModule('node:crypto').randomUUID();
export const newTraceId = (): string => `trc_cli_${randomHex(10)}${randomHex(10)}`;

const randomHex = (digits: number): string => Math.floor(Math.random() * 16 ** digits).toString(16).padStart(digits, '0');

const GUARD_HEADER_LC = GUARD_HEADER.toLowerCase();
const CHECKOUT_URL_HEADER_LC = CHECKOUT_URL_HEADER.toLowerCase();

const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

export class HttpClient {
  readonly baseUrl: string;
  readonly traceId: string;
  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.traceId = options.traceId ?? newTraceId();
  }

  url(path: string, query?: CallOptions['query']): string {
    const url = new URL(this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    return url.toString();
  }

  async call<T>(call: CallOptions): Promise<ApiResult<T>> {
    const headers: Record<string, string> = { ...this.options.headers, accept: 'application/json', 'x-trace-id': this.traceId, 'user-agent': 'svc-cli' };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    if (call.idempotency) headers[call.idempotency.header.toLowerCase()] = call.idempotency.key;
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    // Only a request the service can recognize as a repeat may be sent twice.
    const safeToRepeat = call.method === 'GET' || call.idempotency !== undefined;
    const timeout = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const url = this.url(call.path, call.query);
    let lastError: SvcError | undefined;
    const attempts = this.options.attempts ?? MAX_ATTEMPTS;

    for (let attempt = 1; attempt <= attempts; attempt++) {
      let waitMs = backoffMs(attempt - 1);
      try {
        const res = await send(url, { method: call.method, headers, body, timeoutMs: timeout });
        const text = res.text;
        const traceId = headerValue(res.headers['x-trace-id']) ?? null;
        const parsed = parseEnvelope(text);
        if (parsed?.success === true && res.statusCode < 400) {
          return {
            data: parsed.data as T,
            status: res.statusCode,
            traceId,
            idempotencyKey: call.idempotency?.key,
            replayed: headerValue(res.headers['idempotent-replayed']) === 'true',
            attempts: attempt,
            checkoutUrl: headerValue(res.headers[CHECKOUT_URL_HEADER_LC]),
          };
        }
        const code = parsed?.success === false ? String(parsed.error?.code ?? 'UNKNOWN') : res.statusCode >= 400 ? `HTTP_${res.statusCode}` : 'BAD_RESPONSE';
        const message =
          parsed?.success === false ? String(parsed.error?.message ?? '') : `unexpected answer from ${call.method} ${call.path} (HTTP ${res.statusCode}): ${text.slice(0, 200)}`;
        lastError = new SvcError(code, res.statusCode, message, traceId, headerValue(res.headers[GUARD_HEADER_LC]));
        if (!safeToRepeat || !isRetryableStatus(res.statusCode, code)) throw lastError;
        waitMs = retryAfterMs(res.headers['retry-after']) ?? waitMs;
        if (attempt < attempts) this.options.onRetry?.({ attempt, waitMs, reason: `${res.statusCode} ${code}` });
      } catch (err) {
        if (err instanceof SvcError) throw err;
        // The same request would get the same answer: said once, never retried.
        if (err instanceof AnswerTooLarge) throw new SvcError(err.code, 0, `${call.method} ${call.path}: ${err.message} (is ${this.baseUrl} the service?)`, null);
        const timedOut = err instanceof TransportTimeout;
        const message = !timedOut
          ? networkMessage(this.baseUrl, err)
          : err.code === 'HEADERS_TIMEOUT'
            ? `no answer from ${this.baseUrl} within ${timeout} ms`
            : `the answer from ${this.baseUrl} did not finish within ${timeout} ms (--timeout bounds the whole exchange)`;
        lastError = new SvcError(timedOut ? 'TIMEOUT' : 'NETWORK_ERROR', 0, message, null);
        if (!safeToRepeat || !isRetryableNetworkCode(codeOf(err))) throw lastError;
        if (attempt < attempts) this.options.onRetry?.({ attempt, waitMs, reason: message });
      }
      if (attempt < attempts) await (this.options.sleep ?? sleep)(waitMs);
    }
    // Every attempt was retryable and failed: say that the client stopped, not only the last answer.
    const last = lastError!;
    if (attempts === 1) throw last;
    throw new SvcError(last.code, last.status, `${last.message} (gave up after ${attempts} attempts with the same idempotency key, as the spec advises)`, last.trace_id, last.guard);
  }
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

interface Envelope {
  success?: boolean;
  data?: unknown;
  error?: { code?: unknown; message?: unknown };
}

function parseEnvelope(text: string): Envelope | undefined {
  try {
    const value = JSON.parse(text) as unknown;
    return value !== null && typeof value === 'object' && 'success' in value ? (value as Envelope) : undefined;
  } catch {
    return undefined;
  }
}
