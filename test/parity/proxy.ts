import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A small host in front of an emulator for the parity proofs: it forwards every request as is,
// keeps the path of each one (what a host that is not an svc emulator would see), and may
// rewrite the JSON answers (a renamed field, another error code) to play a drifting host; a
// rewrite that returns a string sends that text as the answer. With `onlyV1` it plays the live
// service, which has no control surface: anything outside /v1 is a 404 in the spec's envelope.

export interface Proxy {
  url: string;
  /** Every request line it got: "GET /v1/api/payments?limit=1". */
  seen: string[];
  close(): Promise<void>;
}

export async function startProxy(target: string, rewrite: (body: any, request: string) => any = (b) => b, { onlyV1 = false } = {}): Promise<Proxy> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    seen.push(line);
    if (onlyV1 && !req.url!.startsWith('/v1/')) {
      req.resume();
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: 'NOT_FOUND', message: 'No route.' } }));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = { ...req.headers, host: new URL(target).host };
      const upstream = request(target + req.url!, { method: req.method, headers }, (up) => {
        const out: Buffer[] = [];
        up.on('data', (c: Buffer) => out.push(c));
        up.on('end', () => {
          let body = Buffer.concat(out).toString('utf8');
          try {
            const rewritten = rewrite(JSON.parse(body), line);
            body = typeof rewritten === 'string' ? rewritten : JSON.stringify(rewritten);
          } catch {
            /* not JSON: as is */
          }
          const h = { ...up.headers };
          delete h['content-length'];
          res.writeHead(up.statusCode ?? 502, h).end(body);
        });
      });
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
