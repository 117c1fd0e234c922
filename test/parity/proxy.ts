import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// A small host in front of an emulator for the parity proofs: it forwards every request as is,
// keeps the path of each one (what a host that is not an svc emulator would see), and may
// rewrite the JSON answers (a renamed field, another error code) to play a drifting host; a
// rewrite that returns a string sends that text as the answer.

export interface Proxy {
  url: string;
  /** Every request line it got: "GET /v1/api/payments?limit=1". */
  seen: string[];
  close(): Promise<void>;
}

export async function startProxy(target: string, rewrite: (body: any, request: string) => any = (b) => b): Promise<Proxy> {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    const line = `${req.method} ${req.url}`;
    seen.push(line);
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
