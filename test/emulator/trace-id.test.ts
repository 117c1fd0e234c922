import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// X-Trace-ID is echoed whatever its length, up to what the server accepts in a request's
// headers (node's 16 KB in all: over it node answers 431 in the envelope, with a trace id of
// its own). Whatever node's parser accepted is a header value and is sent back as those bytes.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const GENERATED = /^trc_[0-9a-f]{24}$/;

/**
 * GET `path` with these headers. The client's own limit on response headers is raised, so a
 * long echo is read whatever node's default would take; the body is empty (node's client writes
 * header strings as latin1, one byte per character, when no string body shares the write).
 */
function get(path: string, headers: Record<string, string>): Promise<{ status: number; trace: string | undefined; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${emu.baseUrl}${path}`, { headers: { authorization: `Bearer ${KEYS.acmeTest}`, ...headers }, maxHeaderSize: 64 * 1024 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, trace: res.headers['x-trace-id'] as string | undefined, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

test('a trace id of 1 KB, 8 KB and 16,000 bytes is echoed as sent (was: replaced past 255 characters)', async () => {
  for (const length of [1024, 8 * 1024, 16_000]) {
    const mine = `trace-${length}-`.padEnd(length, 'x');
    const res = await get('/v1/api/payments', { 'x-trace-id': mine });
    assert.equal(res.status, 200);
    assert.equal(res.trace, mine, `${length} bytes`);
  }
});

test('tabs, spaces and bytes beyond ASCII are echoed as the same bytes, on errors too', async () => {
  const utf8 = Buffer.from('трасса № 7', 'utf8').toString('latin1'); // UTF-8 bytes, one character each
  for (const mine of ['step\t3 of 5', 'caf\u00e9', utf8]) {
    const ok = await get('/v1/api/payments', { 'x-trace-id': mine });
    assert.equal(ok.trace, mine, JSON.stringify(mine));
    const missing = await get('/v1/api/payments/pay_missing', { 'x-trace-id': mine });
    assert.equal(missing.status, 404);
    assert.equal(missing.trace, mine);
  }
});

test('the same bytes come back from every surface: the OpenAPI document, a hosted page, the control API', async () => {
  const mine = Buffer.from('süreç ✓', 'utf8').toString('latin1');
  for (const path of ['/openapi.yaml', '/checkout/no-such-link', '/_emulator/clock']) {
    const res = await new Promise<{ status: number; trace: unknown }>((resolve, reject) => {
      const req = httpRequest(`${emu.baseUrl}${path}`, { headers: { 'x-trace-id': mine } }, (r) => {
        r.resume();
        r.on('end', () => resolve({ status: r.statusCode!, trace: r.headers['x-trace-id'] }));
      });
      req.on('error', reject);
      req.end();
    });
    assert.equal(res.trace, mine, `${path} (${res.status})`);
  }
});

test("past node's 16 KB of headers: 431 in the envelope with a generated trace id (the request's own could not be read)", async () => {
  const res = await get('/v1/api/payments', { 'x-trace-id': 'z'.repeat(17_000) });
  assert.equal(res.status, 431);
  assert.equal(res.body.success, false);
  assert.equal(res.body.error.code, 'VALIDATION_ERROR');
  assert.match(res.trace ?? '', GENERATED);
});

test('an empty trace id is replaced by a generated one', async () => {
  const res = await get('/v1/api/payments', { 'x-trace-id': '' });
  assert.equal(res.status, 200);
  assert.match(res.trace ?? '', GENERATED);
});

test('/openapi.yaml no longer caps X-Trace-ID at 255', async () => {
  const doc = (await emu.request('GET', '/openapi.json', { key: null })).json;
  const param = doc.components.parameters.TraceId;
  assert.equal(param.schema.maxLength, undefined);
  assert.equal(param.schema.minLength, 1);
  assert.match(param.description, /16 KB/);
  assert.ok(new RegExp(param.schema.pattern).test('x'.repeat(16_000)));
});
