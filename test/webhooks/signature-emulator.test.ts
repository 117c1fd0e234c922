import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateTestDelivery, generateTestHeaderString, verifySignature } from '../../src/webhooks/signature.js';
import { WEBHOOK_ENDPOINTS } from '../../emulator/resources/webhook-endpoints/domain.js';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { control, createEndpoint, toNextDelivery } from './receiver.js';

// The emulator's sender and the verifier agree on what is signed: a real delivery, sent by a
// running emulator to a real listening server, carries exactly the Svc-Signature that
// generateTestHeaderString computes from the bytes received, the endpoint secret and the
// delivery's t — compared byte for byte — and both equal the rule recomputed here with
// node:crypto: HMAC-SHA256 keyed by the secret's UTF-8 bytes over `<t>.` + the raw body bytes.
// The body carries multi-byte UTF-8 (a link title), so a sender or verifier that hashed
// another encoding, or another joining of t and body, would be caught.

interface RawDelivery {
  headers: IncomingHttpHeaders;
  /** The body bytes exactly as they came off the socket. */
  bytes: Buffer;
}

/** A node:http server on 127.0.0.1:0 that keeps each request's raw bytes and answers 200. */
async function rawReceiver() {
  const got: RawDelivery[] = [];
  /** Each returns true once it is satisfied (and is then dropped). */
  let waiters: Array<() => boolean> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, bytes: Buffer.concat(chunks) });
      res.writeHead(200).end('ok');
      waiters = waiters.filter((w) => !w());
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    /** The n-th request (1-based), once it has arrived; gives up after 20 s. */
    nth(n: number): Promise<RawDelivery> {
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`receiver: ${got.length} of ${n} requests after 20 s`)), 20_000);
        const arrived = () => {
          if (got.length < n) return false;
          clearTimeout(timer);
          ok(got[n - 1]);
          return true;
        };
        if (!arrived()) waiters.push(arrived);
      });
    },
    close: () => new Promise<void>((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
}

const TITLE = 'Café ☕ — “Ünïcode” 🔑';

/** A completed payment on a link whose title is multi-byte UTF-8: payment.completed carries it. */
async function payOnUnicodeLink(emu: TestEmulator): Promise<void> {
  const link = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('link'), body: { title: TITLE, amount: 1500, currency: 'USD' } });
  assert.equal(link.status, 201, link.text);
  const pay = await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'completed', method: 'card' } });
  assert.equal(pay.status, 201, pay.text);
}

/** The v1 hex from the rule, independently of svc's code. */
const rule = (keyBytes: Buffer, t: number, bytes: Buffer) => createHmac('sha256', keyBytes).update(Buffer.concat([Buffer.from(`${t}.`, 'ascii'), bytes])).digest('hex');

/** Checks one received delivery against the helper and the rule; returns its t. */
function agrees(d: RawDelivery, secret: string): number {
  const header = d.headers['svc-signature'];
  assert.equal(typeof header, 'string');
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header as string);
  assert.ok(m, `one t and one lowercase v1: ${header}`);
  const t = Number(m[1]);
  assert.ok(d.bytes.length > d.bytes.toString('utf8').length, 'the body holds multi-byte UTF-8');
  assert.ok(d.bytes.toString('utf8').includes(TITLE));

  // The helper's output, from the bytes received: the very header, byte for byte.
  const helper = generateTestHeaderString({ payload: d.bytes, secret, timestamp: t });
  assert.ok(Buffer.from(helper, 'latin1').equals(Buffer.from(header as string, 'latin1')), `helper ${helper}\nsent   ${header}`);
  // The rule, recomputed: the secret's UTF-8 bytes over `<t>.` + the raw body.
  assert.equal(m[2], rule(Buffer.from(secret, 'utf8'), t, d.bytes));
  // What a sender or verifier that disagreed would have produced instead — each differs, so
  // the equalities above pin the encoding and the joining.
  assert.notEqual(m[2], rule(Buffer.from(secret, 'utf8'), t, Buffer.from(d.bytes.toString('utf8'), 'latin1')), 'body as latin1');
  assert.notEqual(m[2], createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${t}`).update(d.bytes).digest('hex'), 'no dot');
  // And the verifier accepts it at its t, and refuses it 301 s later.
  assert.deepEqual(verifySignature({ secret, header: header as string, body: d.bytes, now: t }), { ok: true, timestamp: t });
  assert.equal(verifySignature({ secret, header: header as string, body: d.bytes, now: t + 301 }).ok, false);
  return t;
}

test('a real delivery carries exactly the header generateTestHeaderString computes, and the delivery headers generateTestDelivery builds', async () => {
  const emu = await startTestEmulator();
  const rx = await rawReceiver();
  try {
    const ep = await createEndpoint(emu, rx.url, ['payment.completed']);
    assert.match(ep.secret, /^[A-Za-z0-9_-]{43}$/);
    await payOnUnicodeLink(emu);
    const due = await toNextDelivery(emu);
    assert.equal(due.deliveries.length, 1);
    const d = await rx.nth(1);
    const t = agrees(d, ep.secret);

    // generateTestDelivery with the same inputs gives the same headers as the real one (User-Agent
    // and the transport's own headers aside): a test delivery looks like a real one to a handler.
    const test = generateTestDelivery({ payload: d.bytes, type: String(d.headers['svc-event']), deliveryId: String(d.headers['svc-delivery']), secret: ep.secret, timestamp: t });
    const sent = Object.fromEntries(Object.entries(d.headers).filter(([name]) => !['host', 'connection', 'content-length', 'user-agent'].includes(name)));
    assert.deepEqual(sent, test.headers);
    assert.equal(test.body, d.bytes);
    // The emulator's own record of the attempt shows the same signature.
    const record = (await control(emu, 'GET', `/deliveries/${due.deliveries[0]}`)).data;
    assert.equal(record.attempts[0].request_headers['svc-signature'], d.headers['svc-signature']);
  } finally {
    await rx.close();
    await emu.stop();
  }
});

test('the emulator keys the signature with the secret’s UTF-8 bytes (an endpoint re-keyed with a non-ASCII secret)', async () => {
  // Endpoint secrets the emulator makes are base64url (ASCII), where UTF-8 and latin1 agree;
  // this endpoint is re-keyed in the store so the key's encoding shows in the signature.
  const emu = await startTestEmulator();
  const rx = await rawReceiver();
  try {
    const ep = await createEndpoint(emu, rx.url, ['payment.completed']);
    const secret = 'clé-secrète-🔑-ünïcode';
    const record = emu.services.store.get(WEBHOOK_ENDPOINTS, ep.id);
    assert.ok(record);
    emu.services.store.transaction((tx) => tx.put(WEBHOOK_ENDPOINTS, { ...record, secret }));
    await payOnUnicodeLink(emu);
    await toNextDelivery(emu);
    const d = await rx.nth(1);
    const t = agrees(d, secret);
    const v1 = String(d.headers['svc-signature']).split('v1=')[1];
    assert.notEqual(v1, rule(Buffer.from(secret, 'latin1'), t, d.bytes), 'not the latin1 bytes of the secret');
  } finally {
    await rx.close();
    await emu.stop();
  }
});
