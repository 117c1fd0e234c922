import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// Real listening servers on loopback: the seller's return page and a webhook receiver.

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface RecordingServer {
  port: number;
  requests: Recorded[];
  /** Resolves with the first request (already seen or still to come) that `match` accepts. */
  waitFor(match: (r: Recorded) => boolean, timeoutMs?: number): Promise<Recorded>;
  close(): Promise<void>;
}

export async function recordingServer(reply: (r: Recorded) => { status: number; body: string; type?: string }): Promise<RecordingServer> {
  const requests: Recorded[] = [];
  const waiters: Array<{ match: (r: Recorded) => boolean; ok: (r: Recorded) => void }> = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rec: Recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      requests.push(rec);
      for (const w of [...waiters]) if (w.match(rec)) (waiters.splice(waiters.indexOf(w), 1), w.ok(rec));
      const out = reply(rec);
      res.writeHead(out.status, { 'content-type': out.type ?? 'text/plain; charset=utf-8' }).end(out.body);
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    waitFor(match, timeoutMs = 10_000) {
      const seen = requests.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error('no matching request arrived')), timeoutMs);
        waiters.push({ match, ok: (r) => (clearTimeout(timer), ok(r)) });
      });
    },
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}

/** The seller's site: /return shows what checkout sent back. */
export const sellerSite = () =>
  recordingServer((r) => ({ status: 200, type: 'text/html; charset=utf-8', body: `<!doctype html><title>Seller</title><h1>Back at the seller</h1><p>${r.url.replace(/[<>&]/g, '')}</p>` }));

/** A webhook receiver that acknowledges everything. */
export const webhookReceiver = () => recordingServer(() => ({ status: 200, body: 'ok' }));
