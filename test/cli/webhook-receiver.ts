import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

// A merchant's webhook handler, written independently of svc's signature library: it checks
// Svc-Signature with node:crypto over the raw bytes (t=<unix>,v1=<hex HMAC-SHA256 of
// "<t>.<body>">) and records what arrived.

export interface Received {
  body: string;
  signature: string;
  event: string;
  delivery: string;
  verified: boolean;
}

export function hmacHeader(secret: string, body: string | Buffer, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')}`;
}

export function verifiesWith(secret: string, header: string, body: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  const expected = Buffer.from(hmacHeader(secret, body, Number(m[1])).split('v1=')[1], 'hex');
  return timingSafeEqual(expected, Buffer.from(m[2], 'hex'));
}

export async function merchantReceiver(secret: () => string | undefined, status: () => number = () => 200) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const signature = String(req.headers['svc-signature'] ?? '');
      const s = secret();
      received.push({ body, signature, event: String(req.headers['svc-event']), delivery: String(req.headers['svc-delivery']), verified: s !== undefined && verifiesWith(s, signature, body) });
      res.writeHead(status()).end();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  return { url, received, close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))) };
}

/** Resolves once `check` holds (polling the in-process receiver, not the wall clock). */
export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
