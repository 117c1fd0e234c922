import type { IncomingHttpHeaders } from 'node:http';

// One HTTP exchange over node:http / node:https, for the one-shot request path. undici costs
// a one-shot command ~125 ms to load and ~150 ms at exit (V8 finishing its WebAssembly
// parser), more than the whole round trip; the live stream and the webhook sender keep it.
// `timeoutMs` is the exchange's deadline: connect (TLS included), headers and the whole body
// must be done by then (a server that drips one byte at a time cannot hold it longer). An answer
// larger than MAX_ANSWER_BYTES is refused, by its Content-Length before it is read or by its
// bytes as they come. Each exchange has its own connection (Connection: close): no idle socket
// is ever reused after the server dropped it, and nothing keeps the process alive after the answer.

interface RawResponse {
  statusCode: number;
  headers: IncomingHttpHeaders;
  text: string;
}

interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
}

/**
 * The largest answer the CLI reads: 32 MiB. Its biggest answers are list pages (a page of 100
 * request-log entries, each body cut at 64 KB, is under 16 MB); anything larger is not the service.
 */
export const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** Thrown for a timeout: `code` is HEADERS_TIMEOUT (no answer yet) or BODY_TIMEOUT (the answer did not finish); network errors keep Node's code. */
export class TransportTimeout extends Error {
  constructor(readonly code: 'HEADERS_TIMEOUT' | 'BODY_TIMEOUT', timeoutMs: number) {
    super(code === 'HEADERS_TIMEOUT' ? `no answer within ${timeoutMs} ms` : `the answer did not finish within ${timeoutMs} ms`);
  }
}

/** Thrown for an answer larger than MAX_ANSWER_BYTES (never retried: the same request gets the same answer). */
export class AnswerTooLarge extends Error {
  readonly code = 'ANSWER_TOO_LARGE';
  /** `declared`: its Content-Length, when it gave one. */
  constructor(declared?: number) {
    super(`the answer is larger than ${MAX_ANSWER_BYTES / 1024 / 1024} MiB${declared ? ` (Content-Length: ${declared})` : ''}, the most the CLI reads`);
  }
}

export async function send(url: string, options: SendOptions): Promise<RawResponse> {
  const target = new URL(url);
  // node:https (and TLS with it) is loaded only for an https:// host.
  const { request } = target.protocol === 'https:' ? await import('node:https') : await import('node:http');
  // Header values go as their UTF-8 bytes (a header string holds one byte per character), so an
  // idempotency key or trace id with any Unicode can travel, and always as the same bytes: node
  // would write latin1 on its own, refuse characters beyond U+00FF, and re-encode the headers as
  // UTF-8 when they share a write with a string body — hence a Buffer body. ASCII is unchanged.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers)) headers[name] = Buffer.from(value, 'utf8').toString('latin1');
  headers.connection = 'close';
  const body = options.body === undefined ? undefined : Buffer.from(options.body, 'utf8');
  if (body !== undefined) headers['content-length'] = String(body.length);
  return new Promise<RawResponse>((resolve, reject) => {
    let answered = false;
    /** Why we cut the exchange: it is the error, whichever event reports the cut first. */
    let cut: Error | undefined;
    const stop = (why: Error) => {
      cut = why;
      req.destroy(why);
    };
    const timer = setTimeout(() => stop(new TransportTimeout(answered ? 'BODY_TIMEOUT' : 'HEADERS_TIMEOUT', options.timeoutMs)), options.timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(cut ?? err);
    };
    const req = request(target, { method: options.method, headers, agent: false }, (res) => {
      answered = true;
      const declared = Number(res.headers['content-length']);
      if (declared > MAX_ANSWER_BYTES) return stop(new AnswerTooLarge(declared));
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > MAX_ANSWER_BYTES) return stop(new AnswerTooLarge());
        chunks.push(chunk);
      });
      res.once('end', () => {
        clearTimeout(timer);
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.once('error', fail);
      res.once('aborted', () => fail(Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' })));
    });
    req.once('error', fail);
    req.end(body);
  });
}
