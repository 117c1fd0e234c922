import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, startTestEmulator, tempDir, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';
import { startReceiver, type Behaviour, type Receiver } from '../webhooks/receiver.js';
import { errorRecipes, operationsOf } from '../contract-property/error-recipes.js';
import { EVENT_TYPES } from '../../contract/common.js';

// Every item of the coverage inventory can be covered: one run drives each of them through the
// real surfaces (HTTP to /v1, a webhook receiver, faults and the clock of the control API) and
// GET /_emulator/coverage then reads 100%. An item the inventory derived wrongly (a code a route
// cannot answer, an event nothing sends, a flow that cannot happen) would stay uncovered here.
// The run spans a restart: the in-flight conflicts are made on an emulator started with a
// latency (every request waits on the manual clock), the rest after a restart on the same data
// dir, so the report also shows a count kept across a restart.

const running: TestEmulator[] = [];
let receiver: Receiver | undefined;
after(async () => {
  await receiver?.close();
  for (const e of running.reverse()) await e.stop(); // the same data dir: the last to stop removes it
});

const OWNER_PIN = '1357';
const MARY = '+231770000201';

test('one run covers every route, error code, event, delivery outcome and flow: the report reads 100%', async () => {
  const dataDir = tempDir('svc-coverage-all-');
  const slow = await startTestEmulator({ dataDir, config: { latencyMs: 1000 } });
  running.push(slow);
  const doc = await (await fetch(`${slow.baseUrl}/openapi.json`)).json();
  const operations = operationsOf(doc);
  const inFlight = errorRecipes(slow, slow);
  for (const { op, codes } of operations) {
    if (!codes.some((c) => c.code === 'IDEMPOTENCY_IN_FLIGHT')) continue;
    assert.equal((await inFlight(op, 'IDEMPOTENCY_IN_FLIGHT')!()).json.error.code, 'IDEMPOTENCY_IN_FLIGHT', op.id);
  }
  await slow.close();

  // A short receiver timeout: the attempt the receiver never answers is a timeout after 300 ms.
  const emu = await startTestEmulator({ dataDir, config: { webhookTimeoutMs: 300 } });
  running.push(emu);
  const recipeFor = errorRecipes(emu, emu);
  for (const { op, codes } of operations) {
    for (const { code } of codes) {
      if (code === 'IDEMPOTENCY_IN_FLIGHT') continue;
      const answer = await recipeFor(op, code)!();
      assert.equal(answer.json?.error?.code, code, `${op.id}: ${answer.text}`);
    }
  }

  const v1 = async (method: string, path: string, body?: unknown, status = method === 'POST' ? 201 : 200, headers: Record<string, string> = {}): Promise<any> => {
    const res = await emu.request(method, path, { body, headers, idempotencyKey: method === 'GET' ? undefined : idem('all') });
    assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
    return res.json.data;
  };
  const control = async (method: string, path: string, body?: unknown): Promise<ApiResponse> => emu.request(method, `/_emulator${path}`, { key: null, body });
  const answers: Behaviour[] = [];
  receiver = await startReceiver();
  receiver.behave(() => answers.shift() ?? { status: 200 });
  /** Queues the receiver's answers, then moves the clock to each due attempt until none waits. */
  const deliver = async (...queued: Behaviour[]) => {
    answers.push(...queued);
    while ((await control('POST', '/clock/advance-to-next-delivery', {})).json.data.advanced_ms > 0);
  };

  const endpoint = await v1('POST', '/v1/api/webhook-endpoints', { url: receiver.url, events: [...EVENT_TYPES] });
  await v1('GET', '/v1/api/webhook-endpoints');

  // Links: paid (delivered first time), failed (a 500, then the retry), a timeout then the retry,
  // seven failures to dead_letter then a redelivery, and a delivery sent twice.
  const link = async () => v1('POST', '/v1/api/payment-links', { title: 'Coverage', amount: 500, currency: 'USD' });
  const first = await link();
  await v1('GET', `/v1/api/payment-links/${first.id}`);
  await v1('GET', `/v1/api/payment-links/by-code/${first.link_code}`);
  await v1('POST', `/v1/api/payment-links/${first.id}/simulate`, { outcome: 'completed', method: 'card' });
  await deliver({ status: 200 });
  await v1('POST', `/v1/api/payment-links/${(await link()).id}/simulate`, { outcome: 'failed', method: 'card' });
  await deliver({ status: 500 }, { status: 200 });
  await v1('POST', `/v1/api/payment-links/${(await link()).id}/simulate`, { outcome: 'completed', method: 'momo' });
  await deliver('hang', { status: 200 });
  await v1('POST', `/v1/api/payment-links/${(await link()).id}/simulate`, { outcome: 'completed', method: 'wallet' });
  answers.push(...Array.from({ length: 7 }, () => ({ status: 503 })));
  assert.equal((await control('POST', '/clock/advance', { by: '10h' })).status, 200);
  const dead = (await control('GET', `/webhook-endpoints/${endpoint.endpoint.id}/deliveries`)).json.data.deliveries.find((d: { status: string }) => d.status === 'dead_letter');
  assert.ok(dead, 'a delivery reached dead_letter');
  assert.equal((await control('POST', `/deliveries/${dead.id}/redeliver`, {})).status, 200);
  await deliver({ status: 200 });
  assert.equal((await control('POST', '/faults', { deliveries: {}, kind: 'duplicate', times: 1 })).status, 201);
  await v1('POST', `/v1/api/payment-links/${(await link()).id}/simulate`, { outcome: 'completed', method: 'card' });
  await deliver({ status: 200 }, { status: 200 });

  // An idempotent replay: the same key and body again.
  const replayed = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: 'coverage-replay', body: { title: 'Once' } });
  const again = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: 'coverage-replay', body: { title: 'Once' } });
  assert.deepEqual([replayed.status, again.status, again.headers.get('idempotent-replayed')], [201, 201, 'true']);

  // Mandates and charges: charged, declined, revoked.
  const { mandate } = await v1('POST', '/v1/api/mandates', { rail: 'card', customer_ref: 'cov', currency: 'USD', max_amount_cents: 5000 });
  await v1('GET', `/v1/api/mandates/${mandate.id}`);
  const charge = (outcome: string) => v1('POST', '/v1/api/charges', { mandate_id: mandate.id, amount_cents: 100, currency: 'USD', idempotency_key: idem('cycle'), outcome });
  const charged = await charge('completed');
  await charge('failed');
  await deliver();
  await v1('DELETE', `/v1/api/mandates/${mandate.id}`);
  assert.match((await emu.request('POST', '/v1/api/charges', { idempotencyKey: idem('c'), body: { mandate_id: mandate.id, amount_cents: 100, currency: 'USD', idempotency_key: idem('cycle') } })).text, /revoked/);

  // Payments: one, a page and the next, the summary.
  await v1('GET', `/v1/api/payments/${charged.id}`);
  const page = await v1('GET', '/v1/api/payments?limit=1');
  await v1('GET', `/v1/api/payments?limit=1&before=${encodeURIComponent(page.next_before)}`);
  await v1('GET', '/v1/api/payments/summary');

  // Payroll: a wrong PIN, then runs that end completed, partial and failed.
  const run = (phones: string[]) =>
    v1('POST', '/v1/api/payroll/runs', { currency: 'USD', payments: phones.map((p, i) => ({ external_ref: `e${i}`, payee_phone: p, amount_cents: 100 })) }, 201, { 'Idempotency-Key': idem('run') });
  const nobody = '+231779999999';
  const runs = [await run([MARY]), await run([MARY, nobody]), await run([nobody])];
  await v1('GET', `/v1/api/payroll/runs/${runs[0].run.id}`);
  assert.equal((await control('POST', `/payroll-runs/${runs[0].run.id}/approve`, { pin: '0000' })).json.error.code, 'PIN_INVALID');
  for (const r of runs) assert.equal((await control('POST', `/payroll-runs/${r.run.id}/approve`, { pin: OWNER_PIN })).status, 200);

  // Payouts: within the cap, the list and its second page, over the cap, a failed one reversed.
  const payout = await v1('POST', '/v1/api/payouts', { payee_id: 'payee_ada', amount_cents: 1000, currency: 'USD' });
  await v1('GET', `/v1/api/payouts/${payout.id}`);
  await v1('GET', '/v1/api/payouts?limit=1');
  await v1('GET', '/v1/api/payouts?limit=1&offset=1');
  await v1('POST', '/v1/api/payouts', { payee_id: 'payee_ada', amount_cents: 50_001, currency: 'USD' }, 422);
  assert.equal((await control('POST', '/payouts/provider/outcomes', { outcomes: ['failed'] })).status, 200);
  await v1('POST', '/v1/api/payouts', { payee_id: 'payee_ada', amount_cents: 1000, currency: 'USD' });
  await control('POST', '/clock/advance', { by: '3s' });

  // Sub-merchants: the OTP read back and verified.
  const phone = '+231770009999';
  await v1('POST', '/v1/api/sub-merchants/start', { manager_phone: phone }, 200);
  const otp = (await control('GET', `/otp/${encodeURIComponent(phone)}`)).json.data.messages[0].code;
  await v1('POST', '/v1/api/sub-merchants/complete', { merchant_name: 'Covered', manager_phone: phone, otp });
  await v1('GET', '/v1/api/sub-merchants');

  // Card redemptions, and the events only the dashboard side causes.
  await v1('POST', '/v1/gift-cards/redeem', { merchant_wallet_id: 'mw_test_ada_usd', amount: 100, idempotency_key: idem('g') });
  await v1('POST', '/v1/fleet-cards/redeem', { fleet_card_id: 'fc_test_truck_01', category: 'fuel', amount_cents: 100, idempotency_key: idem('f') });
  for (const type of ['catalog.published', 'inventory.low_stock']) assert.equal((await control('POST', '/events/trigger', { type, merchant_id: 'mer_acme' })).status, 201);
  await deliver();
  await v1('DELETE', `/v1/api/webhook-endpoints/${endpoint.endpoint.id}`);

  const report = (await control('GET', '/coverage')).json.data;
  assert.deepEqual(
    report.items.filter((i: { covered: boolean }) => !i.covered).map((i: { kind: string; name: string }) => `${i.kind} ${i.name}`),
    [],
    'every item covered',
  );
  assert.equal(report.percent, 100);
  assert.ok(report.total > 250, `${report.total} items`);
  assert.deepEqual(
    report.kinds.map((k: { kind: string; percent: number }) => [k.kind, k.percent]),
    ['route', 'error', 'event', 'delivery', 'flow'].map((k) => [k, 100]),
  );
  // The in-flight conflicts were counted before the restart, and kept.
  assert.ok(report.items.filter((i: { name: string }) => i.name.endsWith('409 IDEMPOTENCY_IN_FLIGHT')).every((i: { count: number }) => i.count === 1));
});
