import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { eventsOfType, merchantBalance, userBalance } from '../helpers/balances.js';

// Payroll runs: creation (plain Idempotency-Key, 500-line limit, best-effort phone matching),
// the owner's PIN approval through the control API (never an API key), line-by-line execution
// from the merchant wallet and the run's final status and event.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const OWNER_PIN = '1357';
const MARY = '+231770000201';
const JOSEPH = '+231770000202';
const FATU = '+231880000203';

type Line = { external_ref: string; payee_phone: string; amount_cents: number; label?: string };
const post = (body: Record<string, unknown>, key: string = KEYS.acmeTest, idemKey: string | null = idem('run')) =>
  emu.request('POST', '/v1/api/payroll/runs', { key, body, headers: idemKey === null ? {} : { 'Idempotency-Key': idemKey } });
async function createRun(currency: string, payments: Line[], key: string = KEYS.acmeTest) {
  const res = await post({ currency, payments }, key);
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}
const approve = (id: string, pin: string) => emu.request('POST', `/_emulator/payroll-runs/${id}/approve`, { key: null, body: { pin } });
async function approved(id: string) {
  const res = await approve(id, OWNER_PIN);
  assert.equal(res.status, 200, res.text);
  return res.json.data;
}

describe('create and read', () => {
  test('a run starts pending_approval with every line pending and an approval URL', async () => {
    const out = await createRun('USD', [
      { external_ref: 'emp-1', payee_phone: MARY, amount_cents: 1000, label: 'Mary, November' },
      { external_ref: 'emp-2', payee_phone: '0770000999', amount_cents: 2000 },
    ]);
    assert.match(out.run.id, /^prun_/);
    assert.equal(out.run.status, 'pending_approval');
    assert.equal(out.run.currency, 'USD');
    assert.equal(out.run.line_count, 2);
    assert.equal(out.run.total_amount_cents, 3000);
    assert.equal(out.approval_url, `${emu.checkoutUrl}/payroll-approval/${out.run.id}`);
    assert.deepEqual(
      out.payments.map((l: Line & { status: string }) => [l.external_ref, l.status, l.label, l.amount_cents]),
      [
        ['emp-1', 'pending', 'Mary, November', 1000],
        ['emp-2', 'pending', 'emp-2', 2000],
      ],
      'label defaults to external_ref; an unknown phone is not rejected',
    );
    const read = await emu.request('GET', `/v1/api/payroll/runs/${out.run.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(read.json.data, out);
  });

  test('the plain Idempotency-Key header is required; re-posting it returns the existing run', async () => {
    const body = { currency: 'LRD', payments: [{ external_ref: 'e', payee_phone: MARY, amount_cents: 100 }] };
    const missing = await post(body, KEYS.acmeTest, null);
    assert.equal(missing.status, 422);
    assert.equal(missing.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const xOnly = await emu.request('POST', '/v1/api/payroll/runs', { body, idempotencyKey: idem() });
    assert.equal(xOnly.status, 422, 'X-Idempotency-Key is not the header of this route');
    const key = idem('run');
    const first = await post(body, KEYS.acmeTest, key);
    const again = await post(body, KEYS.acmeTest, key);
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    const conflict = await post({ ...body, note: 'changed' }, KEYS.acmeTest, key);
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.error.code, 'IDEMPOTENCY_CONFLICT');
  });

  test('500 lines are accepted, 501 are refused', async () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => ({ external_ref: `e${i}`, payee_phone: MARY, amount_cents: 1 }));
    const ok = await createRun('USD', lines(500));
    assert.equal(ok.payments.length, 500);
    const tooMany = await post({ currency: 'USD', payments: lines(501) });
    assert.equal(tooMany.status, 422);
    assert.equal(tooMany.json.error.code, 'VALIDATION_ERROR');
    assert.match(tooMany.json.error.message, /payments: must hold at most 500 lines/);
  });

  test('validation: currency USD/LRD, at least one line, unique external_ref, positive integer amounts', async () => {
    const line = { external_ref: 'e', payee_phone: MARY, amount_cents: 100 };
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ currency: 'EUR', payments: [line] }, /currency/],
      [{ currency: 'USD', payments: [] }, /payments/],
      [{ currency: 'USD', payments: [line, line] }, /external_ref must be unique/],
      [{ currency: 'USD', payments: [{ ...line, amount_cents: 0 }] }, /payments\.0\.amount_cents/],
      [{ currency: 'USD', payments: [{ ...line, amount_cents: 10.5 }] }, /amount_cents/],
      [{ currency: 'USD', payments: [{ external_ref: 'e', amount_cents: 1 }] }, /payee_phone/],
      [{ currency: 'USD', payments: [{ ...line, bank: 'x' }] }, /unknown field "bank"/],
      [{ payments: [line] }, /currency/],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      assert.equal(res.status, 422, JSON.stringify(body));
      assert.equal(res.json.error.code, 'VALIDATION_ERROR');
      assert.match(res.json.error.message, message);
    }
  });

  test('business accounts only (403 BUSINESS_ACCOUNT_REQUIRED), payroll scopes (403 FORBIDDEN)', async () => {
    const body = { currency: 'USD', payments: [{ external_ref: 'e', payee_phone: MARY, amount_cents: 100 }] };
    const globex = await post(body, KEYS.globexTest);
    assert.equal(globex.status, 403);
    assert.equal(globex.json.error.code, 'BUSINESS_ACCOUNT_REQUIRED');
    assert.equal((await emu.request('GET', '/v1/api/payroll/runs/prun_x', { key: KEYS.globexTest })).json.error.code, 'BUSINESS_ACCOUNT_REQUIRED');
    const ro = await post(body, KEYS.acmeReadOnly);
    assert.equal(ro.status, 403);
    assert.equal(ro.json.error.code, 'FORBIDDEN');
    const out = await createRun('USD', body.payments);
    assert.equal((await emu.request('GET', `/v1/api/payroll/runs/${out.run.id}`, { key: KEYS.acmeReadOnly })).json.error.code, 'FORBIDDEN');
  });

  test("another environment's or an unknown run is 404", async () => {
    const out = await createRun('USD', [{ external_ref: 'e', payee_phone: MARY, amount_cents: 100 }]);
    for (const [id, key] of [
      [out.run.id, KEYS.acmeLive],
      ['prun_nope', KEYS.acmeTest],
    ]) {
      const res = await emu.request('GET', `/v1/api/payroll/runs/${id}`, { key });
      assert.equal(res.status, 404);
      assert.equal(res.json.error.code, 'NOT_FOUND');
    }
  });
});

describe('approval and execution', () => {
  test('an API key can never approve: no /v1 route, and the control API refuses merchant keys', async () => {
    const out = await createRun('USD', [{ external_ref: 'e', payee_phone: MARY, amount_cents: 100 }]);
    const v1 = await emu.request('POST', `/v1/api/payroll/runs/${out.run.id}/approve`, { body: { pin: OWNER_PIN } });
    assert.equal(v1.status, 404);
    const withKey = await emu.request('POST', `/_emulator/payroll-runs/${out.run.id}/approve`, { key: KEYS.acmeTest, body: { pin: OWNER_PIN } });
    assert.equal(withKey.status, 403);
    assert.equal((await emu.request('GET', `/v1/api/payroll/runs/${out.run.id}`)).json.data.run.status, 'pending_approval');
  });

  test('all lines matched and covered: completed; money moves line by line; payroll_run.completed fires', async () => {
    const acme = await merchantBalance(emu, 'mer_acme', 'test', 'LRD');
    const mary = await userBalance(emu, MARY, 'test', 'LRD');
    const joseph = await userBalance(emu, JOSEPH, 'test', 'LRD');
    const josephLive = await userBalance(emu, JOSEPH, 'live', 'LRD');
    const out = await createRun('LRD', [
      { external_ref: 'mary', payee_phone: '0770000201', amount_cents: 150000 },
      { external_ref: 'joseph', payee_phone: '+231 77 000 0202', amount_cents: 250000 },
    ]);
    const result = await approved(out.run.id);
    assert.equal(result.run.status, 'completed');
    assert.equal(result.run.paid_count, 2);
    assert.equal(result.run.paid_amount_cents, 400000);
    assert.ok(result.run.approved_at && result.run.completed_at);
    assert.deepEqual(result.payments.map((l: { status: string }) => l.status), ['paid', 'paid']);
    assert.ok(result.payments.every((l: { paid_at: string | null; failure_reason: null }) => l.paid_at && l.failure_reason === null));
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'LRD'), acme - 400000);
    assert.equal(await userBalance(emu, MARY, 'test', 'LRD'), mary + 150000);
    assert.equal(await userBalance(emu, JOSEPH, 'test', 'LRD'), joseph + 250000);
    assert.equal(await userBalance(emu, JOSEPH, 'live', 'LRD'), josephLive, 'a test run never pays live money');

    const read = (await emu.request('GET', `/v1/api/payroll/runs/${out.run.id}`)).json.data;
    assert.deepEqual(read.run, result.run);
    assert.deepEqual(read.payments, result.payments);
    const [event] = (await eventsOfType(emu, 'mer_acme', 'test', 'payroll_run.completed')).filter((e) => e.data.run.id === out.run.id);
    assert.ok(event, 'payroll_run.completed appended');
    assert.equal(event.type, 'payroll_run.completed');
    assert.deepEqual(event.data, { run: result.run, payments: result.payments });

    const twice = await approve(out.run.id, OWNER_PIN);
    assert.equal(twice.status, 409);
    assert.equal(twice.json.error.code, 'INVALID_STATE');
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'LRD'), acme - 400000, 'paid once');
  });

  test('an unmatched phone leaves its line needs_attention and the run partial', async () => {
    const out = await createRun('USD', [
      { external_ref: 'fatu', payee_phone: FATU, amount_cents: 500 },
      { external_ref: 'ghost', payee_phone: '+231770009999', amount_cents: 700 },
      { external_ref: 'garbage', payee_phone: 'n/a', amount_cents: 700 },
    ]);
    const acme = await merchantBalance(emu, 'mer_acme', 'test', 'USD');
    const result = await approved(out.run.id);
    assert.equal(result.run.status, 'partial');
    assert.deepEqual(
      result.payments.map((l: { external_ref: string; status: string; failure_reason: string | null }) => [l.external_ref, l.status, l.failure_reason]),
      [
        ['fatu', 'paid', null],
        ['ghost', 'needs_attention', 'no_matching_user'],
        ['garbage', 'needs_attention', 'no_matching_user'],
      ],
    );
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), acme - 500, 'unmatched lines cost nothing');
    assert.ok((await eventsOfType(emu, 'mer_acme', 'test', 'payroll_run.partial')).some((e) => e.data.run.id === out.run.id));
  });

  test('no line matched: the run fails and payroll_run.failed fires', async () => {
    const out = await createRun('USD', [{ external_ref: 'ghost', payee_phone: '+231770009998', amount_cents: 100 }]);
    const result = await approved(out.run.id);
    assert.equal(result.run.status, 'failed');
    assert.equal(result.payments[0].status, 'needs_attention');
    assert.ok((await eventsOfType(emu, 'mer_acme', 'test', 'payroll_run.failed')).some((e) => e.data.run.id === out.run.id));
  });

  test('a live run pays from the live wallet line by line: a line it cannot cover fails alone', async () => {
    // Acme's live USD wallet holds 1,000.00 (fixtures).
    const start = await merchantBalance(emu, 'mer_acme', 'live', 'USD');
    const mary = await userBalance(emu, MARY, 'live', 'USD');
    const out = await createRun(
      'USD',
      [
        { external_ref: 'a', payee_phone: MARY, amount_cents: start - 40000 },
        { external_ref: 'b', payee_phone: JOSEPH, amount_cents: 50000 },
        { external_ref: 'c', payee_phone: FATU, amount_cents: 30000 },
      ],
      KEYS.acmeLive,
    );
    assert.equal(out.run.environment, 'live');
    const result = await approved(out.run.id);
    assert.equal(result.run.status, 'partial');
    assert.deepEqual(
      result.payments.map((l: { status: string; failure_reason: string | null }) => [l.status, l.failure_reason]),
      [
        ['paid', null],
        ['failed', 'insufficient_funds'],
        ['paid', null],
      ],
    );
    assert.equal(await merchantBalance(emu, 'mer_acme', 'live', 'USD'), 10000, 'never below zero');
    assert.equal(await userBalance(emu, MARY, 'live', 'USD'), mary + start - 40000);
    assert.ok((await eventsOfType(emu, 'mer_acme', 'live', 'payroll_run.partial')).some((e) => e.data.run.id === out.run.id));
  });

  test('nothing covered: every matched line fails for funds and the run fails', async () => {
    // Acme's live LRD wallet is empty.
    const out = await createRun('LRD', [{ external_ref: 'a', payee_phone: MARY, amount_cents: 100 }], KEYS.acmeLive);
    const result = await approved(out.run.id);
    assert.equal(result.run.status, 'failed');
    assert.deepEqual([result.payments[0].status, result.payments[0].failure_reason], ['failed', 'insufficient_funds']);
    assert.equal(await merchantBalance(emu, 'mer_acme', 'live', 'LRD'), 0);
  });

  test('unknown run is 404; a malformed body is 422', async () => {
    assert.equal((await approve('prun_nope', OWNER_PIN)).status, 404);
    const out = await createRun('USD', [{ external_ref: 'e', payee_phone: MARY, amount_cents: 100 }]);
    const res = await emu.request('POST', `/_emulator/payroll-runs/${out.run.id}/approve`, { key: null, body: {} });
    assert.equal(res.status, 422);
  });

  // Last: it locks the owner's PIN for 15 minutes of clock time.
  test("five wrong owner PINs lock approvals for 15 minutes; the run stays pending and unpaid", async () => {
    const out = await createRun('USD', [{ external_ref: 'e', payee_phone: MARY, amount_cents: 100 }]);
    const acme = await merchantBalance(emu, 'mer_acme', 'test', 'USD');
    for (const left of [4, 3, 2, 1]) {
      const res = await approve(out.run.id, '0000');
      assert.equal(res.status, 422);
      assert.equal(res.json.error.code, 'PIN_INVALID');
      assert.match(res.json.error.message, new RegExp(`${left} attempts? left`));
    }
    const fifth = await approve(out.run.id, '0000');
    assert.equal(fifth.status, 423);
    assert.equal(fifth.json.error.code, 'PIN_LOCKED');
    assert.equal((await approve(out.run.id, OWNER_PIN)).status, 423);
    assert.equal((await emu.request('GET', `/v1/api/payroll/runs/${out.run.id}`)).json.data.run.status, 'pending_approval');
    assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), acme);
    await emu.services.scheduler.advance(15 * 60_000);
    assert.equal((await approved(out.run.id)).run.status, 'completed');
  });
});
