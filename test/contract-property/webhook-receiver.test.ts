import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// A receiver written from /openapi.yaml alone verifies a real delivery on the first try. The
// verifier below reads nothing but the served document: the signing rules from its
// `x-webhook-signature` (header name, format, signed string, algorithm, key and signature
// encodings, tolerance), the headers and body of each event from its `webhooks`. It knows no
// constant of the emulator's own (no import of contract/signature.ts). A real emulator then sends
// every event type to a real listening server that runs it, and each first attempt must verify
// and match the document; tampered bodies, a wrong secret and a stale timestamp must not.

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

interface Scheme {
  header: string;
  format: string;
  signed_payload: string;
  algorithm: string;
  key_encoding: string;
  signature_encoding: string;
  tolerance_seconds: number;
}

type Verdict = { ok: true } | { ok: false; why: string };

/** A verifier built from the document's words: each field is read, none is assumed. */
function verifierFrom(scheme: Scheme) {
  // "t={timestamp},v1={signature}": which key carries which part.
  const keys = Object.fromEntries(scheme.format.split(',').map((part) => part.split('=')).map(([key, slot]) => [slot.replace(/[{}]/g, ''), key]));
  const hash = /^HMAC-SHA-?(\d+)$/i.exec(scheme.algorithm)?.[1];
  if (!hash || !keys.timestamp || !keys.signature) throw new Error(`cannot read the document's signing scheme: ${JSON.stringify(scheme)}`);
  const keyEncoding = scheme.key_encoding.toLowerCase().replace('-', '') as BufferEncoding;
  const digest = scheme.signature_encoding.split(/[ ,]/)[0] as 'hex' | 'base64';
  const [before, afterBody] = scheme.signed_payload.split('{body}');
  const sign = (secret: string, t: string, body: Buffer) =>
    createHmac(`sha${hash}`, Buffer.from(secret, keyEncoding))
      .update(Buffer.concat([Buffer.from(before.replace('{timestamp}', t)), body, Buffer.from(afterBody.replace('{timestamp}', t))]))
      .digest(digest);
  return {
    header: scheme.header,
    verify(secret: string, header: string | undefined, body: Buffer, nowSeconds: number): Verdict {
      if (!header) return { ok: false, why: `no ${scheme.header}` };
      const entries = header.split(',').map((e) => e.trim().split('='));
      const t = entries.find(([k]) => k === keys.timestamp)?.[1];
      const candidates = entries.filter(([k]) => k === keys.signature).map(([, v]) => v);
      if (!t || !/^\d+$/.test(t) || candidates.length === 0) return { ok: false, why: `malformed ${scheme.header}: ${header}` };
      const expected = Buffer.from(sign(secret, t, body));
      if (!candidates.some((c) => c.length === expected.length && timingSafeEqual(Buffer.from(c), expected))) return { ok: false, why: 'no signature matches' };
      if (Math.abs(nowSeconds - Number(t)) > scheme.tolerance_seconds) return { ok: false, why: `timestamp ${t} outside ${scheme.tolerance_seconds} s of ${nowSeconds}` };
      return { ok: true };
    },
  };
}

interface Seen {
  event: string;
  delivery: string;
  verdict: Verdict;
  body: Buffer;
  headers: IncomingHttpHeaders;
}

let emu: TestEmulator;
let doc: any;
let server: Server;
const seen: Seen[] = [];
let waiting: { n: number; ok: () => void } | undefined;

before(async () => {
  emu = await startTestEmulator();
  doc = await (await fetch(`${emu.baseUrl}/openapi.json`)).json();
});
after(async () => {
  server?.closeAllConnections();
  await new Promise<void>((ok) => (server ? server.close(() => ok()) : ok()));
  await emu.stop();
});

test('a receiver built from /openapi.yaml alone verifies every event type a running emulator sends, on the first attempt', async () => {
  const scheme = doc['x-webhook-signature'] as Scheme;
  assert.ok(scheme, 'the document states its signing scheme');
  const verifier = verifierFrom(scheme);
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'https://doc.invalid/d.json', components: doc.components });
  const rebase = (s: unknown): unknown =>
    Array.isArray(s) ? s.map(rebase) : s && typeof s === 'object' ? Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === '$ref' ? `https://doc.invalid/d.json${v}` : rebase(v)])) : s;
  const param = (p: any) => (p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p);
  // Each webhook: the Svc-Event value that names it, its header parameters and its body schema.
  const hooks = Object.entries(doc.webhooks as Record<string, any>).map(([name, item]) => {
    const params = (item.post.parameters as any[]).map(param);
    const eventHeader = params.find((p) => p.schema?.const === name);
    assert.ok(eventHeader, `${name}: a header names the event`);
    return { name, params, eventHeader: eventHeader.name as string, body: ajv.compile(rebase(item.post.requestBody.content['application/json'].schema) as object) };
  });
  let secret = '';

  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const hook = hooks.find((h) => req.headers[h.eventHeader.toLowerCase()] === h.name);
      let verdict: Verdict = verifier.verify(secret, req.headers[verifier.header.toLowerCase()] as string | undefined, body, Math.floor(Date.now() / 1000));
      if (!hook) verdict = { ok: false, why: `no webhook of the document has these headers: ${JSON.stringify(req.headers)}` };
      else if (verdict.ok) {
        // The headers and the body the document promises.
        for (const p of hook.params) {
          const value = req.headers[p.name.toLowerCase()];
          if (value === undefined) verdict = p.required ? { ok: false, why: `missing header ${p.name}` } : verdict;
          else if (!ajv.validate(rebase(p.schema) as object, value)) verdict = { ok: false, why: `header ${p.name}: ${ajv.errorsText()}` };
        }
        if (verdict.ok && !hook.body(JSON.parse(body.toString('utf8')))) verdict = { ok: false, why: `body: ${ajv.errorsText(hook.body.errors)}` };
      }
      seen.push({ event: String(req.headers['svc-event']), delivery: String(req.headers['svc-delivery']), verdict, body, headers: req.headers });
      res.writeHead(verdict.ok ? 200 : 400, { 'content-type': 'text/plain' }).end(verdict.ok ? 'ok' : verdict.why);
      if (waiting && seen.length >= waiting.n) waiting.ok();
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

  const events = Object.keys(doc.webhooks);
  const created = await emu.request('POST', '/v1/api/webhook-endpoints', { body: { url, events } });
  assert.equal(created.status, 201, created.text);
  secret = created.json.data.secret;

  // Every event type, through the API and the control API as a merchant's world would cause them.
  const ok = (res: { status: number; text: string }, what: string) => assert.ok(res.status >= 200 && res.status < 300, `${what}: ${res.status} ${res.text}`);
  for (const outcome of ['completed', 'failed']) {
    const link = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('wh'), body: { title: 'Webhook proof', amount: 1500, currency: 'USD', metadata: { order: 'A-1' } } });
    ok(link, 'link');
    ok(await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome, method: 'card' } }), 'simulate');
  }
  const mandate = await emu.request('POST', '/v1/api/mandates', { idempotencyKey: idem('wh'), body: { rail: 'card', customer_ref: 'cust-1', currency: 'USD', max_amount_cents: 5000 } });
  ok(mandate, 'mandate');
  ok(await emu.request('POST', '/v1/api/charges', { idempotencyKey: idem('wh'), body: { mandate_id: mandate.json.data.mandate.id, amount_cents: 700, currency: 'USD', idempotency_key: idem('cycle'), outcome: 'completed' } }), 'charge');
  const lines = { completed: ['+231770000201'], partial: ['+231770000201', '+231779999999'], failed: ['+231779999999'] };
  for (const phones of Object.values(lines)) {
    const run = await emu.request('POST', '/v1/api/payroll/runs', {
      headers: { 'idempotency-key': idem('wh') },
      body: { currency: 'USD', payments: phones.map((payee_phone, i) => ({ external_ref: `emp-${i}`, payee_phone, amount_cents: 100 })) },
    });
    ok(run, 'payroll run');
    ok(await emu.request('POST', `/_emulator/payroll-runs/${run.json.data.run.id}/approve`, { key: null, body: { pin: '1357' } }), 'approve');
  }
  for (const type of ['catalog.published', 'inventory.low_stock']) ok(await emu.request('POST', '/_emulator/events/trigger', { key: null, body: { type, merchant_id: 'mer_acme' } }), type);

  // Eight events (three payment.*: two links' and a charge's); the first attempts are due 1 s later on the emulator clock.
  const count = 8;
  // (A give-up timeout only: the wait is on the deliveries themselves.)
  const all = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`gave up: ${seen.length} of ${count} deliveries arrived: ${seen.map((x) => x.event).join(', ')}`)), 20_000);
    waiting = { n: count, ok: () => (clearTimeout(timer), resolve()) };
  });
  ok(await emu.request('POST', '/_emulator/clock/advance', { key: null, body: { ms: 1000 } }), 'advance');
  await all;

  for (const s of seen) assert.deepEqual(s.verdict, { ok: true }, `${s.event} ${s.delivery}`);
  assert.deepEqual([...new Set(seen.map((s) => s.event))].sort(), [...events].sort(), 'every event type of the document arrived');
  for (const s of seen) {
    const d = (await emu.request('GET', `/_emulator/deliveries/${s.delivery}`, { key: null })).json.data;
    assert.equal(d.status, 'succeeded', s.delivery);
    assert.equal(d.attempts.length, 1, `${s.delivery}: verified on the first attempt`);
    assert.equal(d.attempts[0].status_code, 200);
  }
  // A link payment carries its link (and its metadata); a charge does not.
  const payments = seen.filter((s) => s.event.startsWith('payment.')).map((s) => JSON.parse(s.body.toString('utf8')).data);
  assert.equal(payments.filter((d) => d.link?.metadata?.order === 'A-1').length, 2);
  assert.equal(payments.filter((d) => d.link === undefined && d.payment.mandate_id !== null).length, 1);

  // The verifier is not vacuous: one byte of the body, the secret or the clock changed, it refuses.
  const first = seen[0];
  const header = first.headers[verifier.header.toLowerCase()] as string;
  const now = Math.floor(Date.now() / 1000);
  const t = Number(/t=(\d+)/.exec(header)![1]);
  assert.deepEqual(verifier.verify(secret, header, first.body, now), { ok: true });
  const tampered = Buffer.from(first.body);
  tampered[tampered.length - 2] ^= 1;
  assert.equal(verifier.verify(secret, header, tampered, now).ok, false, 'a changed body');
  assert.equal(verifier.verify(`${secret.slice(0, -1)}x`, header, first.body, now).ok, false, 'another secret');
  assert.equal(verifier.verify(secret, header, Buffer.from(JSON.stringify(JSON.parse(first.body.toString('utf8')), null, 1)), now).ok, false, 'a re-serialized body');
  assert.equal(verifier.verify(secret, header, first.body, t + scheme.tolerance_seconds + 1).ok, false, 'past the tolerance');
  assert.equal(verifier.verify(secret, header, first.body, t + scheme.tolerance_seconds).ok, true, 'at the tolerance');
});
