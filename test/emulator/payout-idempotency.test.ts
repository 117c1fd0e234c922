import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';

// X-Idempotency-Key on POST /v1/api/payouts is "also sent" (rule 1), not required: without it
// a payout is created with no replay protection, and with it every rule applies — replay,
// conflict, in flight, malformed. Money is read back through the control API's wallets.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator({ clock: 'manual' });
});
after(() => emu.stop());

const BODY = { payee_id: 'payee_ada', amount_cents: 125, currency: 'USD' };
const control = (method: string, path: string, body?: unknown) => emu.request(method, `/_emulator${path}`, { key: null, body });
const payout = (body: object, idempotencyKey?: string) => emu.request('POST', '/v1/api/payouts', { body, idempotencyKey });

async function balance(): Promise<number> {
  const res = await control('GET', '/wallets?merchant_id=mer_acme&environment=test');
  assert.equal(res.status, 200, res.text);
  return res.json.data.wallets.find((w: { currency: string }) => w.currency === 'USD').balance;
}
async function payoutCount(): Promise<number> {
  const res = await emu.request('GET', '/v1/api/payouts?limit=1');
  assert.equal(res.status, 200, res.text);
  return res.json.data.total;
}

test('without a key a payout is created, and two identical POSTs are two payouts', async () => {
  const [before, count] = [await balance(), await payoutCount()];
  const first = await payout(BODY);
  assert.equal(first.status, 201, first.text);
  const second = await payout(BODY);
  assert.equal(second.status, 201, second.text);
  assert.equal(second.headers.get('idempotent-replayed'), null);
  assert.notEqual(second.json.data.id, first.json.data.id);
  assert.equal(await payoutCount(), count + 2);
  assert.equal(await balance(), before - 250, 'debited twice: no key, no replay protection');
});

test('with a key: a retry replays the original bytes and debits once; another body is 409 IDEMPOTENCY_CONFLICT', async () => {
  const key = idem('payout');
  const [before, count] = [await balance(), await payoutCount()];
  const first = await payout(BODY, key);
  assert.equal(first.status, 201, first.text);
  const again = await payout(BODY, key);
  assert.equal(again.status, 201);
  assert.equal(again.text, first.text);
  assert.equal(again.headers.get('idempotent-replayed'), 'true');
  const other = await payout({ ...BODY, amount_cents: 126 }, key);
  assert.equal(other.status, 409, other.text);
  assert.equal(other.json.error.code, 'IDEMPOTENCY_CONFLICT');
  assert.equal(await payoutCount(), count + 1);
  assert.equal(await balance(), before - 125);
});

test('with a key: a malformed one is refused (422 IDEMPOTENCY_KEY_INVALID) and nothing is paid', async () => {
  const count = await payoutCount();
  // A header sent empty (or only spaces, which HTTP trims away) arrives empty: a key, malformed.
  for (const value of ['', '   ', 'k'.repeat(256)]) {
    const res = await rawRequest(emu.baseUrl, 'POST', '/v1/api/payouts', {
      headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'x-idempotency-key': value },
      body: JSON.stringify(BODY),
    });
    assert.equal(res.status, 422, `${JSON.stringify(value)}: ${res.text}`);
    assert.equal(res.json.error.code, 'IDEMPOTENCY_KEY_INVALID');
  }
  assert.equal(await payoutCount(), count);
});

test('with a key: a duplicate while the first is in flight is 409 IDEMPOTENCY_IN_FLIGHT; afterwards it replays', async () => {
  // The first request commits, then an after-commit latency fault holds its answer (and its
  // key) until the emulator clock moves: the fault log entry says it is surely in flight.
  const fault = await control('POST', '/faults', { route: 'POST /v1/api/payouts', kind: 'latency', latency: '1s', after_commit: true, times: 1 });
  assert.equal(fault.status, 201, fault.text);
  const logged = async () => (await control('GET', '/faults/log')).json.data.entries.filter((e: { fault_id: string }) => e.fault_id === fault.json.data.id).length;
  const key = idem('payout-in-flight');
  const count = await payoutCount();
  const pending = payout(BODY, key);
  while ((await logged()) === 0) await new Promise((r) => setImmediate(r));
  const duplicate = await payout(BODY, key);
  assert.equal(duplicate.status, 409, duplicate.text);
  assert.equal(duplicate.json.error.code, 'IDEMPOTENCY_IN_FLIGHT');
  assert.equal((await control('POST', '/clock/advance', { by: '1s' })).status, 200);
  const first = await pending;
  assert.equal(first.status, 201, first.text);
  const retry = await payout(BODY, key);
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.equal(retry.json.data.id, first.json.data.id);
  assert.equal(await payoutCount(), count + 1);
});
