import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

// The runner's webhook receiver: a plain HTTP server on loopback that keeps every POST it gets
// (headers and raw bytes: the signature is checked over exactly what arrived) and answers 200 at
// once, so the host never retries because of us. The emulator, or a tunnel from a public URL
// (--webhook-url), delivers here; waiting is on arrivals (an event per delivery), never on a
// timer guess. A webhook step claims what it takes, so the next one waits for another event.

export interface Received {
  headers: Record<string, string>;
  body: Buffer;
  /** Arrival order, from 0. */
  seq: number;
}

const MAX_BODY = 1024 * 1024;

export class WebhookReceiver {
  private readonly received: Received[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly claimed = new Set<string>();
  private constructor(private readonly server: Server) {}

  static async listen(port: number, host = '127.0.0.1'): Promise<WebhookReceiver> {
    const server = createServer();
    const receiver = new WebhookReceiver(server);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size <= MAX_BODY) chunks.push(c);
      });
      req.on('end', () => {
        if (req.method !== 'POST') {
          res.writeHead(405, { allow: 'POST' }).end();
          return;
        }
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k] = v;
        receiver.received.push({ headers, body: Buffer.concat(chunks), seq: receiver.received.length });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"received":true}');
        for (const wake of [...receiver.waiters]) wake();
      });
    });
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen(port, host, () => ok());
    });
    return receiver;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** How many deliveries arrived so far (a scenario waits only for those after this mark). */
  mark(): number {
    return this.received.length;
  }

  /**
   * For each event type, the first delivery (Svc-Event) since `since` that `accept` takes and no
   * earlier call claimed (one event delivered twice counts once: Svc-Delivery), once all have
   * arrived or `timeoutMs` passed (then with the ones that did). What it returns is claimed.
   */
  async take(events: string[], since: number, timeoutMs: number, accept: (r: Received) => boolean = () => true): Promise<Map<string, Received>> {
    const found = () => {
      const map = new Map<string, Received>();
      for (const r of this.received.slice(since)) {
        const type = r.headers['svc-event'];
        if (type && events.includes(type) && !map.has(type) && !this.claimed.has(r.headers['svc-delivery'] ?? `#${r.seq}`) && accept(r)) map.set(type, r);
      }
      return map;
    };
    if (found().size < events.length) {
      await new Promise<void>((ok) => {
        const done = () => {
          clearTimeout(timer);
          this.waiters.delete(check);
          ok();
        };
        const check = () => {
          if (found().size === events.length) done();
        };
        const timer = setTimeout(done, timeoutMs);
        this.waiters.add(check);
      });
    }
    const got = found();
    for (const r of got.values()) this.claimed.add(r.headers['svc-delivery'] ?? `#${r.seq}`);
    return got;
  }

  /** What arrived since `since` of one event type: what a step that found no match is shown against. */
  arrived(event: string, since: number): Received[] {
    return this.received.slice(since).filter((r) => r.headers['svc-event'] === event);
  }

  close(): Promise<void> {
    return new Promise((ok) => {
      this.server.close(() => ok());
      this.server.closeAllConnections();
    });
  }
}
