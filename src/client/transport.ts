import type { IncomingHttpHeaders } from 'node:http';

// One HTTP exchange over node:http / node:https, for the one-shot request path. undici costs
// a one-shot command ~125 ms to load and ~150 ms at exit (V8 finishing its WebAssembly
// parser), more than the whole round trip; the live stream and the webhook sender keep it.
// Timeouts mirror undici's: `timeoutMs` for the headers, and again for each gap in the body.
// Each exchange has its own connection (Connection: close): no idle socket is ever reused
// after the server dropped it, and nothing keeps the process alive after the answer.

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

/** Thrown for a timeout: `code` is HEADERS_TIMEOUT or BODY_TIMEOUT (network errors keep Node's code). */
export class TransportTimeout extends Error {
  constructor(readonly code: 'HEADERS_TIMEOUT' | 'BODY_TIMEOUT', timeoutMs: number) {
    super(`no ${code === 'HEADERS_TIMEOUT' ? 'answer' : 'more of the answer'} within ${timeoutMs} ms`);
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
    let timer: NodeJS.Timeout | undefined;
    const arm = (code: TransportTimeout['code']) => {
      clearTimeout(timer);
      timer = setTimeout(() => req.destroy(new TransportTimeout(code, options.timeoutMs)), options.timeoutMs);
    };
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    const req = request(target, { method: options.method, headers, agent: false }, (res) => {
      arm('BODY_TIMEOUT');
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        arm('BODY_TIMEOUT');
      });
      res.once('end', () => {
        clearTimeout(timer);
        resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
      });
      res.once('error', fail);
      res.once('aborted', () => fail(Object.assign(new Error('the connection closed mid-answer'), { code: 'ECONNRESET' })));
    });
    req.once('error', fail);
    arm('HEADERS_TIMEOUT');
    req.end(body);
  });
}
