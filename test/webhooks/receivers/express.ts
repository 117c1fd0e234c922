import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { verifySignature } from '../../../src/webhooks/signature.js';

// Sample webhook receivers graded by `svc webhooks check` (test/webhooks/check-receiver.test.ts):
// each an Express app on a real listening socket, written the way a merchant writes one, and
// each but `correct` with one of the flaws the check exists to catch.

export const FLAWS = [
  'correct',
  'reserialized',
  'no-verification',
  '500-on-bad-signature',
  '500-on-duplicate',
  'rejects-unknown-types',
  'slow',
  'redirects',
  'slow-first-answer',
  'wrong-secret',
  'body-only-signature',
  'wrong-path',
  'lenient-header',
  'accepts-future',
  'last-v1-only',
] as const;
export type Flaw = (typeof FLAWS)[number];

export interface SampleReceiver {
  url: string;
  /** Requests whose connection the sender closed before this receiver answered (the slow one's). */
  readonly aborted: number;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** slow-first-answer: how long its first verified delivery waits before it is answered (real ms). */
  firstAnswerDelayMs?: number;
  /** The address to listen on (default 127.0.0.1). */
  host?: string;
}

const KNOWN_TYPES = new Set(['payment.completed', 'payment.failed', 'payroll_run.completed', 'payroll_run.partial', 'payroll_run.failed', 'catalog.published', 'inventory.low_stock']);

export async function startSampleReceiver(flaw: Flaw, secret: string, options: ReceiverOptions = {}): Promise<SampleReceiver> {
  const app = express();
  let aborted = 0;
  const handled = new Set<string>();
  let first = true;

  /** The correct check: the raw bytes, as received (each flawed verifier below breaks one thing). */
  const verified = (req: Request): boolean => {
    const header = req.get('Svc-Signature') ?? '';
    const body = req.body as Buffer;
    switch (flaw) {
      case 'wrong-secret':
        return verifySignature({ secret: `${secret}-old`, header, body }).ok;
      case 'body-only-signature': {
        // The HMAC of the body alone, without "<t>.".
        const v1 = /v1=([0-9a-f]{64})/.exec(header)?.[1];
        return v1 !== undefined && timingSafeEqual(Buffer.from(v1, 'hex'), createHmac('sha256', secret).update(body).digest());
      }
      case 'lenient-header':
        // Splits on ";" too: a malformed header is read, and its signature must still match.
        return verifySignature({ secret, header: header.replace(/;/g, ','), body }).ok;
      case 'accepts-future': {
        // Refuses old timestamps only.
        const checked = verifySignature({ secret, header, body, toleranceSeconds: 10 * 365 * 86_400 });
        return checked.ok && checked.timestamp >= Date.now() / 1000 - 300;
      }
      case 'last-v1-only':
        // Reads the last v1= entry only.
        return verifySignature({ secret, header: header.replace(/^(t=\d+),.*(v1=[0-9a-f]+)$/, '$1,$2'), body }).ok;
      default:
        return verifySignature({ secret, header, body }).ok;
    }
  };

  if (flaw === 'redirects') {
    // A session middleware in front of every route: no session, off to the login page.
    app.use((_req, res) => res.redirect(302, '/login'));
  }

  // Mounted somewhere else than the URL the check is given.
  const path = flaw === 'wrong-path' ? '/webhook' : '/webhooks';
  if (flaw === 'reserialized' || flaw === 'no-verification') {
    app.post(path, express.json(), (req, res) => {
      // The flaw: the body was parsed by express.json(); its signature is checked over JSON.stringify of the result.
      if (flaw === 'reserialized' && !verifySignature({ secret, header: req.get('Svc-Signature'), body: JSON.stringify(req.body) }).ok) return void res.sendStatus(400);
      res.sendStatus(200);
    });
  } else {
    app.post(path, express.raw({ type: 'application/json' }), (req, res) => {
      if (!verified(req)) return void res.sendStatus(flaw === '500-on-bad-signature' ? 500 : flaw === 'wrong-secret' ? 401 : 400);
      const event = JSON.parse((req.body as Buffer).toString('utf8')) as { type: string };
      const delivery = req.get('Svc-Delivery') ?? '';
      if (flaw === 'rejects-unknown-types' && !KNOWN_TYPES.has(event.type)) return void res.status(400).send(`unknown event type ${event.type}`);
      if (flaw === 'slow') {
        // "Takes 11 s": it never answers within the check's timeout; the test sees each
        // request end when the sender gives up and closes the connection.
        res.on('close', () => aborted++);
        return;
      }
      if (flaw === 'slow-first-answer' && first) {
        first = false;
        setTimeout(() => res.sendStatus(200), options.firstAnswerDelayMs ?? 0);
        return;
      }
      if (handled.has(delivery)) {
        // The flaw: a unique index on the delivery id, its conflict left to the error handler (500).
        if (flaw === '500-on-duplicate') throw new Error(`duplicate key value violates unique constraint "deliveries_pkey" (${delivery})`);
        return void res.sendStatus(200); // handled already: acknowledge, do nothing again
      }
      handled.add(delivery);
      res.sendStatus(200);
    });
  }
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => res.status(500).send(err.message));

  const host = options.host ?? '127.0.0.1';
  const server: Server = app.listen(0, host);
  await once(server, 'listening');
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/webhooks`,
    get aborted() {
      return aborted;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}
