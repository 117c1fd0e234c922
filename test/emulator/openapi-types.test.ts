import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { idem, KEYS, recordResponses, startTestEmulator, type ResponseRecorder, type TestEmulator } from '../helpers/emulator.js';
import { packageFile } from '../../emulator/assets.js';
import { allRoutes } from '../../emulator/registry.js';
import { openApiPath } from '../../emulator/openapi/document.js';

// A client generated from /openapi.yaml (openapi-typescript, as a user would run it) must
// accept what the emulator really answers. Every response a tour of the API receives — each
// route's success and the errors a client meets — is recorded by the test HTTP helper (after
// its schema check) and written as a typed assignment to the generated response type;
// `tsc --noEmit --strict` must accept them all, and must refuse a body with a wrong value.

let emu: TestEmulator;
let dir: string;
const seen = new Map<string, unknown[]>();
let stopRecording: () => void;

function run(bin: string, args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(packageFile(`node_modules/.bin/${bin}`), args, { cwd: dir, encoding: 'utf8', timeout: 120_000, env: { ...process.env, NO_COLOR: '1' } }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

before(async () => {
  emu = await startTestEmulator({ clockStart: Date.parse('2026-06-01T08:00:00Z') });
  dir = mkdtempSync(join(tmpdir(), 'svc-openapi-ts-'));
  const recorder: ResponseRecorder = ({ path, method, status, json }) => {
    const key = `${path} ${method.toLowerCase()} ${status}`;
    const list = seen.get(key) ?? [];
    if (list.length < 3) list.push(json);
    seen.set(key, list);
  };
  stopRecording = recordResponses(recorder);
});
after(async () => {
  stopRecording();
  await emu.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Calls every route with success, then the errors a client handles. */
async function tour() {
  const r = (method: string, path: string, opts: Parameters<TestEmulator['request']>[2] = {}) => emu.request(method, path, opts);
  const endpoint = (await r('POST', '/v1/api/webhook-endpoints', { body: { url: 'https://localhost:9/ts', events: ['payment.completed', 'inventory.low_stock'] } })).json.data;
  await r('GET', '/v1/api/webhook-endpoints');
  const link = (await r('POST', '/v1/api/payment-links', { idempotencyKey: idem(), body: { title: 'types', amount: 900, metadata: { a: 1 }, expires_at: '2027-01-01T00:00:00Z' } })).json.data;
  const anyAmount = (await r('POST', '/v1/api/payment-links', { idempotencyKey: idem(), body: { title: 'any' } })).json.data;
  await r('GET', `/v1/api/payment-links/${link.id}`);
  await r('GET', `/v1/api/payment-links/by-code/${link.link_code}`);
  const pay = (await r('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: { outcome: 'completed' } })).json.data;
  await r('POST', `/v1/api/payment-links/${anyAmount.id}/simulate`, { body: { outcome: 'failed', amount: 5 } });
  await r('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: {} }); // 422 LINK_CLOSED
  await r('GET', `/v1/api/payments/${pay.id}`);
  await r('GET', '/v1/api/payments?limit=2');
  await r('GET', '/v1/api/payments/summary?since=2026-01-01');
  await r('GET', '/v1/api/payments/summary');
  const payout = (await r('POST', '/v1/api/payouts', { idempotencyKey: idem(), body: { payee_id: 'payee_ada', amount_cents: 100, currency: 'USD', external_ref: 'inv-1' } })).json.data;
  await r('GET', `/v1/api/payouts/${payout.id}`);
  await r('GET', '/v1/api/payouts?limit=5');
  await r('POST', '/v1/gift-cards/redeem', { body: { merchant_wallet_id: 'mw_test_ada_usd', amount: 1, idempotency_key: idem() } });
  await r('POST', '/v1/gift-cards/redeem', { body: { merchant_wallet_id: 'mw_test_ada_usd', amount: 10 ** 11, idempotency_key: idem() } }); // 422 INSUFFICIENT_BALANCE
  await r('POST', '/v1/fleet-cards/redeem', { key: KEYS.acmeStation, body: { fleet_card_id: 'fc_test_truck_01', category: 'fuel', amount_cents: 1, idempotency_key: idem() } });
  const card = (await r('POST', '/v1/api/mandates', { idempotencyKey: idem(), body: { rail: 'card', customer_ref: 'c-1', currency: 'USD', max_amount_cents: 500, customer_email: 'a@example.com' } })).json.data;
  await r('POST', '/v1/api/mandates', { idempotencyKey: idem(), body: { rail: 'wallet', customer_ref: 'c-2', currency: 'LRD', max_amount_cents: 500 } });
  await r('GET', `/v1/api/mandates/${card.mandate.id}`);
  await r('POST', '/v1/api/charges', { idempotencyKey: idem(), body: { mandate_id: card.mandate.id, amount_cents: 100, currency: 'USD', idempotency_key: idem() } });
  await r('POST', '/v1/api/charges', { idempotencyKey: idem(), body: { mandate_id: 'mdt_nope', amount_cents: 100, currency: 'USD', idempotency_key: idem() } }); // 404
  await r('DELETE', `/v1/api/mandates/${card.mandate.id}`);
  await r('POST', '/v1/api/sub-merchants/start', { body: { manager_phone: '+231770000205' } });
  await r('POST', '/v1/api/sub-merchants/complete', { body: { merchant_name: 'X', manager_phone: '+231770000205', otp: '000000' } }); // 422 OTP_INVALID (or a lucky 201)
  const otp = (await r('GET', `/_emulator/otp/${encodeURIComponent('+231770000205')}`, { key: null })).json.data.messages[0].code;
  await r('POST', '/v1/api/sub-merchants/complete', { body: { merchant_name: 'Station 9', manager_phone: '+231770000205', otp } });
  await r('GET', '/v1/api/sub-merchants');
  const run = (await r('POST', '/v1/api/payroll/runs', { headers: { 'idempotency-key': idem() }, body: { currency: 'USD', note: 'n', payments: [{ external_ref: 'e1', payee_phone: '+231770000201', amount_cents: 100, label: 'L' }] } })).json.data;
  await r('GET', `/v1/api/payroll/runs/${run.run.id}`);
  await r('DELETE', `/v1/api/webhook-endpoints/${endpoint.endpoint.id}`);
  // Errors every client meets.
  await r('GET', '/v1/api/payments', { key: null }); // 401
  await r('POST', '/v1/api/payouts', { key: KEYS.acmeReadOnly, idempotencyKey: idem(), body: {} }); // 403
  await r('GET', '/v1/api/payments/pay_nope'); // 404
  await r('POST', '/v1/api/payment-links', { body: { title: 't' } }); // 422 IDEMPOTENCY_KEY_REQUIRED
  const key = idem();
  await r('POST', '/v1/api/payment-links', { idempotencyKey: key, body: { title: 'a' } });
  await r('POST', '/v1/api/payment-links', { idempotencyKey: key, body: { title: 'b' } }); // 409
}

test('types generated from /openapi.yaml by openapi-typescript accept every response the tour received, and refuse a wrong one', async () => {
  await tour();
  // Every route was reached with its success status (the tour is not a vacuous sample).
  for (const route of allRoutes()) {
    const key = `${openApiPath(route.path)} ${route.method} ${route.status ?? 200}`;
    assert.ok(seen.has(key), `no ${key} recorded`);
  }
  for (const status of [401, 403, 404, 409, 422]) assert.ok([...seen.keys()].some((k) => k.endsWith(` ${status}`)), `no ${status} recorded`);

  writeFileSync(join(dir, 'openapi.yaml'), await (await fetch(`${emu.baseUrl}/openapi.yaml`)).text());
  const gen = await run('openapi-typescript', ['openapi.yaml', '-o', 'api.d.ts']);
  assert.equal(gen.status, 0, gen.output);

  const lines = ["import type { paths } from './api';", ''];
  let n = 0;
  for (const [key, bodies] of seen) {
    const [path, method, status] = key.split(' ');
    const type = `paths[${JSON.stringify(path)}][${JSON.stringify(method)}]['responses'][${status}]['content']['application/json']`;
    for (const body of bodies) lines.push(`export const r${n++}: ${type} = ${JSON.stringify(body)};`);
  }
  writeFileSync(join(dir, 'responses.ts'), `${lines.join('\n')}\n`);
  const tscArgs = (file: string) => ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--skipLibCheck', file];
  const ok = await run('tsc', tscArgs('responses.ts'));
  assert.equal(ok.status, 0, ok.output);
  assert.ok(n >= allRoutes().length + 5, `${n} responses checked`);

  // The check can fail: a payment whose status the document does not allow, and a field it does not know.
  const payment = seen.get('/v1/api/payments/{id} get 200')![0] as { data: Record<string, unknown> };
  const wrong = [
    "import type { paths } from './api';",
    `export const a: paths['/v1/api/payments/{id}']['get']['responses'][200]['content']['application/json'] = ${JSON.stringify({ ...payment, data: { ...payment.data, status: 'refunded' } })};`,
    `export const b: paths['/v1/api/payments/{id}']['get']['responses'][200]['content']['application/json'] = ${JSON.stringify({ ...payment, data: { ...payment.data, surprise: true } })};`,
  ];
  writeFileSync(join(dir, 'wrong.ts'), `${wrong.join('\n')}\n`);
  const bad = await run('tsc', tscArgs('wrong.ts'));
  assert.notEqual(bad.status, 0);
  assert.match(bad.output, /wrong\.ts\(2,.*"refunded"/);
  assert.match(bad.output, /wrong\.ts\(3,.*surprise/);
});

test('types generated from /_emulator/openapi.yaml type the request bodies (clock advance, payee caps, card approval): a wrong value is refused', async () => {
  writeFileSync(join(dir, 'control.yaml'), await (await fetch(`${emu.baseUrl}/_emulator/openapi.yaml`)).text());
  const gen = await run('openapi-typescript', ['control.yaml', '-o', 'control.d.ts']);
  assert.equal(gen.status, 0, gen.output);
  const body = (op: string) => `operations[${JSON.stringify(op)}]['requestBody']['content']['application/json']`;
  const lines = (cases: Array<[string, unknown]>) => ["import type { operations } from './control';", ...cases.map(([op, value], i) => `export const b${i}: ${body(op)} = ${JSON.stringify(value)};`)].join('\n');
  const tscArgs = (file: string) => ['--noEmit', '--strict', '--target', 'es2022', '--module', 'esnext', '--moduleResolution', 'bundler', '--skipLibCheck', file];
  // What the CLI sends: accepted.
  const valid: Array<[string, unknown]> = [
    ['advanceClock', { by: '2h' }],
    ['advanceClock', { ms: 1000 }],
    ['setPayeeCaps', { daily_cap: 50_000 }],
    ['setPayeeCaps', { per_payout_cap: 100, daily_cap: 200, pin: '1234' }],
    ['approveCardMandate', { number: '4242424242424242', exp_month: 12, exp_year: 2030, cvc: '123' }],
  ];
  writeFileSync(join(dir, 'control-valid.ts'), `${lines(valid)}\n`);
  const ok = await run('tsc', tscArgs('control-valid.ts'));
  assert.equal(ok.status, 0, ok.output);
  // A body typed `unknown` would take these too: each line must be refused.
  const wrong: Array<[string, unknown]> = [
    ['advanceClock', { by: 90 }],
    ['advanceClock', { ms: '1000' }],
    ['setPayeeCaps', { daily_cap: 'lots' }],
    ['approveCardMandate', { number: '4242424242424242', exp_month: 12, exp_year: '2030', cvc: '123' }],
  ];
  writeFileSync(join(dir, 'control-wrong.ts'), `${lines(wrong)}\n`);
  const bad = await run('tsc', tscArgs('control-wrong.ts'));
  assert.notEqual(bad.status, 0);
  for (let i = 0; i < wrong.length; i++) assert.match(bad.output, new RegExp(`control-wrong\\.ts\\(${i + 2},`), `line ${i + 2} (${JSON.stringify(wrong[i])}) is refused\n${bad.output}`);
});
