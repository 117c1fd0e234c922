import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, request, startTestEmulator, type ApiResponse, type TestEmulator } from '../helpers/emulator.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { ControlContract } from './control-contract.js';

// Real answers of the control API, checked against the document the emulator serves at
// GET /_emulator/openapi.json (control-contract.ts): every route is called at least once with
// a success, and the errors met on the way (404, 409, 422 PIN_INVALID, …) are checked too. The
// last tests prove the check bites: every operation of the document had a success checked, and
// the same real answers fail against a document whose schema is wrong in one place.

let emu: TestEmulator;
/** A file-store emulator for the named snapshots (a memory store keeps no data dir: 422). */
let files: TestEmulator;
let contract: ControlContract;
let receiver: Receiver;
let stopRequested: Promise<void>;

/** Statuses checked per operationId. */
const checked = new Map<string, Set<number>>();
/** The last success answer per operationId, with its request, for the mutation tests. */
const answers = new Map<string, { method: string; path: string; res: ApiResponse }>();

const MERCHANT = 'mer_acme';
const OWNER_PIN = '1357';
const MARY = '+231770000201';
const JOSEPH = '+231770000202';
const FATU = '+231880000203';

async function call(target: TestEmulator, method: string, path: string, body?: unknown): Promise<ApiResponse> {
  const url = `/_emulator${path}`;
  const res = await request(target.baseUrl, method, url, { key: null, body });
  const hit = contract.check(method, url, res);
  if (!checked.has(hit.operationId)) checked.set(hit.operationId, new Set());
  checked.get(hit.operationId)!.add(res.status);
  if (res.status < 300) answers.set(hit.operationId, { method, path: url, res });
  return res;
}

/** A control call that must succeed with `status`; its data. */
async function ok(method: string, path: string, body?: unknown, status = 200, target = emu): Promise<any> {
  const res = await call(target, method, path, body);
  assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
  return res.json.data;
}

/** A control call that must fail with `status` and `code`. */
async function refused(method: string, path: string, body: unknown, status: number, code: string, target = emu): Promise<void> {
  const res = await call(target, method, path, body);
  assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
  assert.equal(res.json.error.code, code, `${method} ${path}`);
}

before(async () => {
  let onStop!: () => void;
  stopRequested = new Promise((resolve) => (onStop = resolve));
  emu = await startTestEmulator({ store: 'memory', onStopRequest: () => onStop() });
  files = await startTestEmulator();
  receiver = await startReceiver();
  const served = await request(emu.baseUrl, 'GET', '/_emulator/openapi.json', { key: null });
  assert.equal(served.status, 200);
  contract = new ControlContract(served.json);
});
after(async () => {
  await receiver.close();
  await emu.stop();
  await files.stop();
});

describe('real control answers match the control document', () => {
  test('the emulator itself: health, keys, clock, store maintenance, metrics, the fixtures schema, coverage', async () => {
    assert.deepEqual(await ok('GET', '/health'), { ok: true, service: 'svc-emulator', allowed_hosts: [] });
    const { keys } = await ok('GET', '/keys');
    assert.ok(keys.some((k: any) => k.merchant_id === MERCHANT && k.revoked));
    const before = await ok('GET', '/clock');
    assert.equal(before.mode, 'manual');
    const after = await ok('POST', '/clock/advance', { by: '90s' });
    assert.equal(after.now > before.now, true);
    await refused('POST', '/clock/advance', {}, 422, 'VALIDATION_ERROR');
    await refused('POST', '/clock/advance', { ms: -1 }, 422, 'VALIDATION_ERROR');
    await refused('GET', '/clock?verbose=1', undefined, 422, 'VALIDATION_ERROR');
    assert.deepEqual(await ok('POST', '/store/compact'), { compacted: true });
    assert.deepEqual(Object.keys((await ok('POST', '/store/prune')).pruned).sort(), ['deliveries', 'events', 'idempotency', 'otp', 'requests']);
    await ok('GET', '/metrics');
    await ok('POST', '/metrics/reset');
    assert.equal((await ok('GET', '/fixtures.schema.json')).type, 'object');
    const coverage = await ok('GET', '/coverage?ignore=payroll,nothing-is-called-this');
    assert.deepEqual(coverage.unmatched_ignore, ['nothing-is-called-this']);
    assert.equal((await ok('POST', '/coverage/reset')).covered, 0);
    await refused('GET', '/coverage?ignored=payroll', undefined, 422, 'VALIDATION_ERROR');
  });

  test('faults: add (API, delivery), fire, log, presets, remove, clear', async () => {
    const api = await ok('POST', '/faults', { route: 'get /v1/api/payments', kind: 'status', status: 503, times: 1 }, 201);
    assert.equal(api.route, 'GET /v1/api/payments');
    const delay = await ok('POST', '/faults', { deliveries: { event_type: 'payment.completed' }, kind: 'delay', latency: '100ms..2s', probability: 0.5, seed: 7 }, 201);
    assert.deepEqual(delay.latency, { min: 100, max: 2000 });
    await refused('POST', '/faults', { route: 'GET /v1/api/payments', kind: 'drop' }, 422, 'VALIDATION_ERROR');
    assert.equal((await ok('GET', '/faults')).faults.length, 2);
    const fired = await emu.request('GET', '/v1/api/payments');
    assert.equal(fired.status, 503);
    const { entries } = await ok('GET', '/faults/log?limit=10');
    assert.equal(entries.at(-1).fault_id, api.id);
    await refused('GET', '/faults/log?limit=0', undefined, 422, 'VALIDATION_ERROR');
    const { presets } = await ok('GET', '/faults/presets');
    assert.ok(presets.some((p: any) => p.name === 'provider-outage'));
    const applied = await ok('POST', '/faults/presets/provider-outage/apply', undefined, 201);
    assert.ok(applied.faults.every((f: any) => typeof f.until === 'string' && typeof f.until_ms === 'number'));
    await refused('POST', '/faults/presets/no-such-preset/apply', undefined, 404, 'NOT_FOUND');
    assert.deepEqual(await ok('DELETE', `/faults/${delay.id}`), { removed: delay.id });
    await refused('DELETE', `/faults/${delay.id}`, undefined, 404, 'NOT_FOUND');
    assert.deepEqual(await ok('POST', '/faults/clear'), { cleared: 2 });
  });

  test('the request log: list, one entry, a malformed filter, an unknown id', async () => {
    assert.equal((await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-control-log' } })).status, 200);
    const { requests, next_before } = await ok('GET', '/requests?trace_id=trc-control-log&limit=5');
    assert.equal(requests.length, 1);
    assert.equal(next_before, requests[0].at);
    assert.equal((await ok('GET', `/requests/${requests[0].id}`)).trace_id, 'trc-control-log');
    await refused('GET', '/requests?status=abc', undefined, 422, 'VALIDATION_ERROR');
    await refused('GET', '/requests/req_nope', undefined, 404, 'NOT_FOUND');
  });

  test('events and deliveries: trigger, list, a failed attempt, redelivery, the next delivery', async () => {
    receiver.behave({ status: 500, body: 'down' });
    const endpoint = await emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: receiver.url, events: ['catalog.published', 'inventory.low_stock'] }, idempotencyKey: idem('ep') });
    assert.equal(endpoint.status, 201, endpoint.text);
    const endpointId = endpoint.json.data.endpoint.id;
    // The secret the merchant API showed once, for svc webhooks check --endpoint, with the types it subscribes to and the emulator's --allow-host names.
    assert.deepEqual(await ok('GET', `/webhook-endpoints/${endpointId}/secret`), { id: endpointId, secret: endpoint.json.data.secret, events: ['catalog.published', 'inventory.low_stock'], allowed_hosts: [] });
    await refused('GET', '/webhook-endpoints/we_nope/secret', undefined, 404, 'NOT_FOUND');
    const event = await ok('POST', '/events/trigger', { type: 'catalog.published', merchant_id: MERCHANT, catalog: { name: 'Spring' } }, 201);
    assert.equal(event.deliveries.length, 1);
    await refused('POST', '/events/trigger', { type: 'inventory.low_stock', merchant_id: MERCHANT, item: { quantity: 9, low_stock_threshold: 5 } }, 422, 'VALIDATION_ERROR');
    await refused('POST', '/events/trigger', { type: 'catalog.published', merchant_id: 'mer_nope' }, 404, 'NOT_FOUND');
    const { events } = await ok('GET', `/events?merchant_id=${MERCHANT}&environment=test&type=catalog.published`);
    assert.ok(events.some((e: any) => e.id === event.id));
    const [deliveryId] = event.deliveries;
    assert.equal((await ok('GET', `/deliveries/${deliveryId}`)).status, 'pending');
    // The first attempt is due a moment after the event: the clock moves to it, and it fails.
    const next = await ok('POST', '/clock/advance-to-next-delivery');
    assert.ok(next.advanced_ms > 0);
    assert.deepEqual(next.deliveries, [deliveryId]);
    await emu.deliveriesIdle();
    const failed = await ok('GET', `/deliveries/${deliveryId}`);
    assert.equal(failed.status, 'failed');
    assert.equal(failed.attempts[0].status_code, 500);
    assert.ok(failed.attempts[0].request_headers['svc-signature']);
    const fanned = await ok('GET', `/events/${event.id}/deliveries`);
    assert.equal(fanned.deliveries[0].attempts[0].delivery_status, 'failed');
    await refused('GET', '/events/evt_nope/deliveries', undefined, 404, 'NOT_FOUND');
    const list = await ok('GET', `/webhook-endpoints/${endpointId}/deliveries?limit=5`);
    assert.equal(list.total, 1);
    assert.equal(list.deliveries[0].last_attempt.status_code, 500);
    await refused('GET', '/webhook-endpoints/we_nope/deliveries', undefined, 404, 'NOT_FOUND');
    // Redelivered now (the retry would be due later), to a receiver that answers this time.
    receiver.behave({ status: 200, body: 'ok' });
    const pending = await ok('POST', `/deliveries/${deliveryId}/redeliver`);
    assert.equal(pending.status, 'pending');
    await emu.deliveriesIdle();
    assert.equal((await ok('GET', `/deliveries/${deliveryId}`)).status, 'succeeded');
    await refused('POST', `/deliveries/${deliveryId}/redeliver`, undefined, 409, 'INVALID_STATE');
    await refused('GET', '/deliveries/dlv_nope', undefined, 404, 'NOT_FOUND');
    // Nothing waits any more: the clock stays.
    const none = await ok('POST', '/clock/advance-to-next-delivery');
    assert.deepEqual([none.advanced_ms, none.deliveries], [0, []]);
  });

  test("merchant wallets, payees (with the owner's PIN) and the payout provider", async () => {
    const view = await ok('GET', `/wallets?merchant_id=${MERCHANT}&environment=test&entries=2`);
    assert.ok(view.wallets.length > 0);
    await refused('GET', '/wallets?merchant_id=mer_nope', undefined, 404, 'NOT_FOUND');
    const topped = await ok('POST', '/wallets/top-up', { merchant_id: MERCHANT, environment: 'test', currency: 'USD', amount: 100 });
    assert.equal(topped.currency, 'USD');
    assert.ok((await ok('GET', `/payees?merchant_id=${MERCHANT}`)).payees.length > 0);
    const payee = await ok('POST', '/payees', { merchant_id: MERCHANT, environment: 'test', name: 'Contract Co', currency: 'USD', per_payout_cap: 100, daily_cap: 200 }, 201);
    assert.equal(payee.status, 'pending_approval');
    await refused('POST', `/payees/${payee.id}/approve`, { pin: '9999' }, 422, 'PIN_INVALID');
    assert.equal((await ok('POST', `/payees/${payee.id}/approve`, { pin: OWNER_PIN })).status, 'approved');
    assert.equal((await ok('POST', `/payees/${payee.id}/caps`, { daily_cap: 300, pin: OWNER_PIN })).daily_cap, 300);
    assert.equal((await ok('POST', `/payees/${payee.id}/revoke`)).status, 'revoked');
    await refused('POST', `/payees/${payee.id}/caps`, { daily_cap: 100 }, 409, 'INVALID_STATE');
    await refused('POST', '/payees/payee_nope/revoke', undefined, 404, 'NOT_FOUND');
    const provider = await ok('GET', '/payouts/provider');
    assert.deepEqual(provider.queued_outcomes, []);
    assert.deepEqual((await ok('POST', '/payouts/provider/outcomes', { outcomes: ['failed', 'completed'] })).queued_outcomes, ['failed', 'completed']);
  });

  test('gift-card wallets and fleet cards: list, issue, ledger, load, status, top-up', async () => {
    const { gift_card_wallets } = await ok('GET', `/gift-card-wallets?merchant_id=${MERCHANT}`);
    assert.ok(gift_card_wallets.some((w: any) => w.holder_phone === MARY));
    const gift = await ok('POST', '/gift-card-wallets', { merchant_id: MERCHANT, environment: 'test', currency: 'USD', balance: 300 }, 201);
    assert.equal((await ok('POST', `/gift-card-wallets/${gift.id}/load`, { amount: 50 })).balance, 350);
    const giftLedger = await ok('GET', `/gift-card-wallets/${gift.id}/transactions`);
    assert.deepEqual(giftLedger.transactions.map((t: any) => t.type), ['issue', 'load']);
    await refused('POST', '/gift-card-wallets/mw_nope/load', { amount: 1 }, 404, 'NOT_FOUND');
    assert.ok((await ok('GET', `/fleet-cards?merchant_id=${MERCHANT}&environment=test`)).fleet_cards.length > 0);
    const card = await ok('POST', '/fleet-cards', { merchant_id: MERCHANT, environment: 'test', currency: 'USD', allowed_categories: ['fuel'], spend_limit: 1000, spend_period: 'weekly', balance: 500 }, 201);
    assert.equal((await ok('POST', `/fleet-cards/${card.id}/status`, { status: 'inactive' })).status, 'inactive');
    assert.equal((await ok('POST', `/fleet-cards/${card.id}/top-up`, { amount: 100 })).balance, 600);
    assert.equal((await ok('GET', `/fleet-cards/${card.id}/transactions`)).transactions.length, 2);
    await refused('GET', '/fleet-cards/fc_nope/transactions', undefined, 404, 'NOT_FOUND');
  });

  test('service users: list, one by phone, top-up', async () => {
    assert.ok((await ok('GET', '/users')).users.some((u: any) => u.phone === MARY));
    const mary = await ok('GET', `/users/${encodeURIComponent(MARY)}`);
    const topped = await ok('POST', `/users/${encodeURIComponent(MARY)}/top-up`, { environment: 'test', currency: 'LRD', amount: 100 });
    assert.equal(topped.wallets.test.LRD, mary.wallets.test.LRD + 100);
    assert.equal(topped.entries.at(-1).reason, 'top_up');
    await refused('GET', '/users/0770009999', undefined, 404, 'NOT_FOUND');
  });

  test('approvals: a card and a wallet mandate, a payroll run, the OTP inbox', async () => {
    const created = async (body: Record<string, unknown>) => {
      const res = await emu.request('POST', '/v1/api/mandates', { key: KEYS.acmeLive, body, idempotencyKey: idem('mdt') });
      assert.equal(res.status, 201, res.text);
      return res.json.data.mandate;
    };
    const cardMandate = await created({ rail: 'card', customer_ref: 'cus_contract', currency: 'USD', max_amount_cents: 500 });
    const card = { number: '4242 4242 4242 4242', exp_month: 12, exp_year: 2099, cvc: '123' };
    assert.equal((await ok('POST', `/mandates/${cardMandate.id}/approve-card`, card)).status, 'active');
    await refused('POST', `/mandates/${cardMandate.id}/approve-card`, card, 409, 'INVALID_STATE');
    const walletMandate = await created({ rail: 'wallet', customer_ref: 'cus_contract', currency: 'USD', max_amount_cents: 500, customer_phone: JOSEPH });
    await refused('POST', `/mandates/${walletMandate.id}/approve-wallet`, { phone: JOSEPH, pin: '0000' }, 422, 'PIN_INVALID');
    assert.equal((await ok('POST', `/mandates/${walletMandate.id}/approve-wallet`, { phone: JOSEPH, pin: '2222' })).customer_phone, JOSEPH);
    await refused('POST', '/mandates/mdt_nope/approve-wallet', { phone: JOSEPH, pin: '2222' }, 404, 'NOT_FOUND');

    const run = await emu.request('POST', '/v1/api/payroll/runs', {
      body: { currency: 'USD', payments: [{ external_ref: 'c1', payee_phone: MARY, amount_cents: 100 }, { external_ref: 'c2', payee_phone: '+231779999999', amount_cents: 100 }] },
      headers: { 'Idempotency-Key': idem('run') },
    });
    assert.equal(run.status, 201, run.text);
    const approved = await ok('POST', `/payroll-runs/${run.json.data.run.id}/approve`, { pin: OWNER_PIN });
    assert.equal(approved.run.status, 'partial');
    assert.deepEqual(approved.payments.map((l: any) => l.status), ['paid', 'needs_attention']);
    await refused('POST', `/payroll-runs/${run.json.data.run.id}/approve`, { pin: OWNER_PIN }, 409, 'INVALID_STATE');

    const started = await emu.request('POST', '/v1/api/sub-merchants/start', { body: { manager_phone: FATU } });
    assert.equal(started.status, 200, started.text);
    const { messages } = await ok('GET', `/otp/${encodeURIComponent(FATU)}`);
    assert.equal(messages[0].purpose, 'sub_merchant');
    await refused('GET', '/otp/not-a-phone', undefined, 422, 'VALIDATION_ERROR');
  });

  test('the world: snapshot, restore, reset; named snapshots on a file store (422 on a memory store); stop', async () => {
    const snapshot = await ok('GET', '/snapshot');
    assert.equal(snapshot.svc_snapshot, 1);
    assert.deepEqual(await ok('POST', '/snapshot/restore', snapshot), { restored: true });
    const res = await call(emu, 'POST', '/snapshot/restore', { svc_snapshot: 1, taken_at: 'x', collections: { payees: [{ name: 'no id' }] } });
    assert.equal(res.status, 422);
    assert.match(res.json.error.message, /^Not an svc snapshot: collections\.payees\.0\.id: /);
    await refused('GET', '/snapshots', undefined, 422, 'VALIDATION_ERROR');
    await refused('POST', '/snapshots', { name: 'one' }, 422, 'VALIDATION_ERROR');
    assert.deepEqual(await ok('POST', '/reset'), { reset: true });

    const saved = await ok('POST', '/snapshots', { name: 'contract-check' }, 201, files);
    assert.equal(saved.name, 'contract-check');
    assert.deepEqual((await ok('GET', '/snapshots', undefined, 200, files)).snapshots.map((s: any) => s.name), ['contract-check']);
    assert.deepEqual(await ok('POST', '/snapshots/contract-check/restore', undefined, 200, files), { restored: 'contract-check' });
    await refused('POST', '/snapshots/never-saved/restore', undefined, 404, 'NOT_FOUND', files);
    await refused('POST', '/snapshots/.hidden/restore', undefined, 422, 'VALIDATION_ERROR', files);

    const stopping = await ok('POST', '/stop');
    assert.equal(stopping.stopping, true);
    await stopRequested; // the emulator's stop hook ran (a test emulator: this test closes it after)
  });
});

describe('the check bites', () => {
  test('every operation of the document had a success answer checked', () => {
    const missing = contract.operations.filter((op) => ![...(checked.get(op.operationId) ?? [])].some((s) => s < 300)).map((op) => op.operationId);
    assert.deepEqual(missing, []);
    assert.ok(contract.operations.length >= 50);
    const errors = new Set([...checked.values()].flatMap((s) => [...s].filter((x) => x >= 400)));
    assert.deepEqual([...errors].sort(), [404, 409, 422]);
  });

  test('the same real answers fail against a document that is wrong in one place', () => {
    const recheck = (operationId: string, mutate: (doc: any) => void, why: RegExp) => {
      const answer = answers.get(operationId);
      assert.ok(answer, operationId);
      // The unmutated document accepts it…
      contract.check(answer.method, answer.path, answer.res);
      const wrong = structuredClone(contract.doc);
      mutate(wrong);
      // …the wrong one does not.
      assert.throws(() => new ControlContract(wrong).check(answer.method, answer.path, answer.res), why, operationId);
    };
    // A field the emulator sends that the document leaves out (objects are closed).
    recheck('addPayee', (d) => delete d.components.schemas.Payee.properties.daily_cap, /additional properties/);
    // A field typed wrongly.
    recheck('clock', (d) => (d.components.schemas.ClockState.properties.pending_timers = { type: 'string' }), /pending_timers must be string/);
    // A field the document requires that the emulator does not send.
    recheck('delivery', (d) => d.components.schemas.Delivery.required.push('delivered_at'), /must have required property 'delivered_at'/);
    // An inline response schema (no component): the payout provider's queue.
    recheck('queuePayoutOutcomes', (d) => (d.paths['/_emulator/payouts/provider/outcomes'].post.responses['200'].content['application/json'].schema.properties.data.properties.queued_outcomes.items = { const: 'completed' }), /must be equal to constant/);
    // A success status the document does not list.
    recheck('addPayee', (d) => delete d.paths['/_emulator/payees'].post.responses['201'], /status 201 is not documented/);
  });

  test('an error code the document does not list for the route fails', async () => {
    const res = await request(emu.baseUrl, 'GET', '/_emulator/deliveries/dlv_nope', { key: null });
    assert.equal(res.status, 404);
    contract.check('GET', '/_emulator/deliveries/dlv_nope', res);
    const wrong = structuredClone(contract.doc);
    delete wrong.paths['/_emulator/deliveries/{id}'].get.responses['404'].content['application/json'].examples.NOT_FOUND;
    assert.throws(() => new ControlContract(wrong).check('GET', '/_emulator/deliveries/dlv_nope', res), /error code NOT_FOUND is not documented/);
  });
});
