import { Agent, request } from 'undici';

// One HTTP attempt: POST the raw body, never follow a redirect, give up after the timeout,
// and report what happened without throwing. Connections are kept alive per origin (one
// shared undici Agent), so a busy endpoint costs no TCP handshake per delivery.

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
}

export class Sender {
  private readonly agent = new Agent({ keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, pipelining: 1 });
  /** Attempts on the wire; one controller each, so stopping needs no listener per request. */
  private readonly open = new Set<AbortController>();
  private stopping = false;

  async send(req: AttemptRequest): Promise<AttemptOutcome> {
    const started = performance.now();
    const latency = () => Math.round(performance.now() - started);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error('timeout'));
    }, req.timeoutMs);
    this.open.add(controller);
    try {
      const res = await request(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        dispatcher: this.agent,
        signal: controller.signal,
      });
      const latencyMs = latency();
      const excerpt = await readExcerpt(res.body);
      const status = res.statusCode;
      const ok = status >= 200 && status < 300;
      const error = status >= 300 && status < 400 ? `redirect (${status}) not followed` : null;
      return { ok, status_code: status, latency_ms: latencyMs, error, response_excerpt: excerpt, aborted: false };
    } catch (err) {
      if (this.stopping) return { ok: false, status_code: null, latency_ms: latency(), error: 'engine stopped', response_excerpt: '', aborted: true };
      const error = timedOut ? `timeout: no response within ${req.timeoutMs} ms` : describeNetworkError(err);
      return { ok: false, status_code: null, latency_ms: latency(), error, response_excerpt: '', aborted: false };
    } finally {
      clearTimeout(timer);
      this.open.delete(controller);
    }
  }

  /** Cuts off every attempt on the wire; they resolve with `aborted: true`. */
  abortAll(): void {
    this.stopping = true;
    for (const c of this.open) c.abort(new Error('stopped'));
  }

  async close(): Promise<void> {
    await this.agent.destroy();
  }
}

/** The first bytes of the body as text; reads a little further so the socket can be reused. */
async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let seen = 0;
  try {
    for await (const chunk of body) {
      if (keptBytes < RESPONSE_EXCERPT_BYTES) {
        const part = chunk.subarray(0, RESPONSE_EXCERPT_BYTES - keptBytes);
        kept.push(part);
        keptBytes += part.length;
      }
      seen += chunk.length;
      if (seen > DRAIN_LIMIT_BYTES) {
        body.destroy();
        break;
      }
    }
  } catch {
    // The body was cut short (timeout, reset): the status already decided the attempt.
  }
  return Buffer.concat(kept).toString('utf8');
}

/** "connection refused (ECONNREFUSED)", "TLS: self-signed certificate (DEPTH_ZERO_SELF_SIGNED_CERT)", … */
function describeNetworkError(err: unknown): string {
  const e = err as { message?: string; code?: string; cause?: { message?: string; code?: string } };
  const code = e.cause?.code ?? e.code;
  const message = e.cause?.message ?? e.message ?? String(err);
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ECONNRESET: 'connection reset',
    ENOTFOUND: 'host not found',
    EHOSTUNREACH: 'host unreachable',
    UND_ERR_SOCKET: 'connection closed before a response',
    UND_ERR_CONNECT_TIMEOUT: 'connect timeout',
  };
  const tls = code !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code);
  const what = code && known[code] ? known[code] : tls ? `TLS: ${message}` : message;
  return code ? `${what} (${code})` : what;
}
