import type { Agent, Dispatcher } from 'undici';

// How a webhook delivery goes out: one HTTP attempt (POST the raw body, never follow a
// redirect, give up after the timeout, report what happened without throwing). The emulator's
// delivery engine sends every attempt with it, and `svc webhooks check` sends its crafted
// deliveries with it, so a receiver is graded on exactly what the engine would count. Connections are kept alive per origin (one shared undici Agent), so a
// busy endpoint costs no TCP handshake per delivery.
//
// It drives the Agent's low-level `dispatch` with a handler instead of `request()`: no
// response stream, no AbortSignal, no promise per chunk. At thousands of deliveries a second
// that is a good part of the emulator's CPU time per delivery (bench/scenarios/webhooks.ts).
//
// It imports nothing else of the emulator: `svc webhooks check` (src/webhooks/check/) sends
// with it too, the one module under emulator/ that src/ may import besides emulator/index.ts
// (test/architecture.test.ts). The headers it sends are data in contract/delivery-headers.ts.

/** Bytes of the response body kept in the attempt log. */
export const RESPONSE_EXCERPT_BYTES = 1024;
/** Bytes read past the excerpt to let the connection be reused; bigger bodies close it. */
const DRAIN_LIMIT_BYTES = 64 * 1024;

export interface AttemptRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

export interface AttemptOutcome {
  /** True for a 2xx answered within the timeout. */
  ok: boolean;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_excerpt: string;
  /** Cut off by `abortAll()` (the engine is stopping); nothing is recorded. */
  aborted: boolean;
  /** No connection could be made (refused, no such host, no route, TLS handshake): nothing was answered. */
  unreachable?: true;
}

interface Open {
  stop(): void;
}

// undici is loaded on the first attempt, not with the emulator: it is about a hundred modules,
// and an emulator that never delivers a webhook (most test files, most CLI runs) never pays
// for them. A test file with an in-process emulator starts ~0.1 s sooner. (Node keeps the
// loaded module: a second emulator's first attempt loads nothing.)

export class Sender {
  private agent: Promise<Agent> | undefined;
  private closed = false;
  /** Attempts on the wire, so stopping can cut them off. */
  private readonly open = new Set<Open>();

  /**
   * `connectTimeoutMs`: how long a connection (TCP and TLS) may take; the callers pass their
   * attempt timeout. An attempt resolves at its own timeout whatever happens, but a connection
   * still being made holds the pool, and closing it waits for that connect to give up (undici's
   * default is 10 s: `https://` to a plain-HTTP port that never answers held a 1 ms check 10 s).
   */
  constructor(private readonly connectTimeoutMs: number) {}

  send(req: AttemptRequest): Promise<AttemptOutcome> {
    return new Promise((resolve) => {
      const started = performance.now();
      let controller: Dispatcher.DispatchController | undefined;
      let cutReason: Error | undefined;
      let status: number | null = null;
      let latencyMs = 0;
      const kept: Buffer[] = [];
      let keptBytes = 0;
      let seen = 0;
      let done = false;

      const cut = (reason: Error) => {
        cutReason = reason;
        if (controller && !controller.aborted) controller.abort(reason);
      };
      const finish = (outcome: Omit<AttemptOutcome, 'latency_ms' | 'response_excerpt' | 'aborted'>, aborted = false) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        this.open.delete(entry);
        const latency = status === null ? Math.round(performance.now() - started) : latencyMs;
        resolve({ ...outcome, latency_ms: latency, response_excerpt: Buffer.concat(kept).toString('utf8'), aborted });
      };
      // Once the status is in, it decides the attempt; the body is only the excerpt.
      const byStatus = () => {
        const s = status!;
        finish({ ok: s >= 200 && s < 300, status_code: s, error: s >= 300 && s < 400 ? `redirect (${s}) not followed` : null });
      };
      const entry: Open = {
        stop: () => {
          // Settle first: aborting makes undici report an error synchronously.
          finish({ ok: false, status_code: null, error: 'engine stopped' }, true);
          cut(new Error('engine stopped'));
        },
      };
      const timer = setTimeout(() => {
        if (status !== null) byStatus();
        else finish({ ok: false, status_code: null, error: `timeout: no response within ${req.timeoutMs} ms` });
        cut(new Error('timeout'));
      }, req.timeoutMs);
      this.open.add(entry);

      let url: URL;
      try {
        url = new URL(req.url);
      } catch {
        return finish({ ok: false, status_code: null, error: `invalid URL ${req.url}` });
      }
      const dispatch = (agent: Agent) => agent.dispatch(
        { origin: url.origin, path: `${url.pathname}${url.search}`, method: 'POST', headers: req.headers, body: req.body, headersTimeout: req.timeoutMs + 1_000, bodyTimeout: req.timeoutMs + 1_000 },
        {
          onRequestStart(c) {
            controller = c;
            if (cutReason) c.abort(cutReason); // timed out or stopped while still connecting
          },
          onResponseStart(_c, statusCode) {
            if (statusCode < 200) return; // 1xx: the real answer follows
            status = statusCode;
            latencyMs = Math.round(performance.now() - started);
          },
          onResponseData(c, chunk) {
            if (keptBytes < RESPONSE_EXCERPT_BYTES) {
              const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - keptBytes);
              kept.push(Buffer.from(part)); // copy: the parser reuses its buffer
              keptBytes += part.length;
            }
            seen += chunk.length;
            if (seen > DRAIN_LIMIT_BYTES) c.abort(new Error('response body too large to drain'));
          },
          onResponseEnd() {
            if (status !== null) byStatus();
            else finish({ ok: false, status_code: null, error: 'no response' });
          },
          onResponseError(_c, err) {
            if (status !== null) return byStatus(); // the body was cut short: the status stands
            const { error, unreachable } = describeNetworkError(err);
            finish({ ok: false, status_code: null, error, ...(unreachable && { unreachable }) });
          },
        },
      );
      // A closed sender opens no pool: close() has already destroyed the one it had.
      if (this.closed) return entry.stop();
      this.agent ??= import('undici').then((u) => new u.Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, pipelining: 1, connectTimeout: this.connectTimeoutMs }));
      this.agent.then(
        (agent) => {
          if (done) return; // stopped or timed out while undici was loading
          if (this.closed) return entry.stop();
          dispatch(agent);
        },
        (err: Error) => finish({ ok: false, status_code: null, error: `cannot load the HTTP client: ${err.message}` }),
      );
    });
  }

  /** Cuts off every attempt on the wire; they resolve at once with `aborted: true`. */
  abortAll(): void {
    for (const o of [...this.open]) o.stop();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.agent) await (await this.agent).destroy();
  }
}

/** Failures before anything was answered: no connection (or no TLS session) was made. */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * "connection refused (ECONNREFUSED)", "TLS: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)",
 * "not an HTTP/1.1 answer (…)", …; `unreachable` when no connection was made.
 */
function describeNetworkError(err: unknown): { error: string; unreachable: boolean } {
  const e = err as { name?: string; message?: string; code?: string; cause?: { message?: string; code?: string } };
  const code = e.cause?.code ?? e.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  // Bytes that are not an HTTP/1.1 status line and headers (garbage, HTTP/0.9): undici's parser names no code.
  if (e.name === 'HTTPParserError') return { error: `not an HTTP/1.1 answer (${message})`, unreachable: false };
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EHOSTUNREACH: 'host unreachable',
    UND_ERR_SOCKET: 'connection closed before a response',
    UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
    UND_ERR_HEADERS_TIMEOUT: 'timeout waiting for response headers',
    UND_ERR_HEADERS_OVERFLOW: 'response headers larger than 16 KB',
  };
  const tls = code !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code);
  const what = code && known[code] ? known[code] : tls ? `TLS: ${message.trim()}` : message;
  return { error: code ? `${what} (${code})` : what, unreachable: tls || (code !== undefined && UNREACHABLE.has(code)) };
}
