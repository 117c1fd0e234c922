import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// No money is created or lost. A mixed run over HTTP — link payments (to the merchant and to a
// sub-merchant), card and wallet mandate charges, top-ups, payouts that complete, fail or are
// still processing, a refused payout, payroll (matched and unmatched lines), gift-card and
// fleet-card redemptions, idempotent retries — and then, with every balance read through the
// control API:
//   1. every merchant wallet's balance is the sum of its ledger entries;
//   2. merchant balances + processing payouts = merchant credits − merchant debits;
//   3. the ledger's reasons add up to the operations the test saw answered;
//   4. everything the test environment holds (merchant wallets, service users' wallets,
//      gift-card pockets, fleet cards) plus processing payouts equals what it held at the start
//      plus money that came in from outside minus money that left through completed payouts;
//   5. every balance of every kind is the sum of its own ledger, from the seeded start on.

const MERCHANTS = ['mer_acme', 'mer_globex'];
let emu: TestEmulator;

const control = async (method: string, path: string, body?: unknown) => {
  const res = await emu.request(method, `/_emulator${path}`, { key: null, body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.text}`);
  return res.json.data;
};
const api = async (method: string, path: string, body?: unknown, expected = 201, key: string = KEYS.acmeTest) => {
  // Payroll takes the plain Idempotency-Key header; every other POST here the X- one.
  const headers = method === 'POST' ? { [path.startsWith('/v1/api/payroll') ? 'idempotency-key' : 'x-idempotency-key']: idem('inv') } : undefined;
  const res = await emu.request(method, path, { key, body, headers });
  assert.equal(res.status, expected, `${method} ${path}: ${res.text}`);
  return res.json.data;
};

type ByCurrency = Record<string, number>;
const add = (into: ByCurrency, currency: string, amount: number) => void (into[currency] = (into[currency] ?? 0) + amount);

/** Everything the test environment holds, per currency, read through the control API. */
async function holdings(merchantIds: string[]): Promise<ByCurrency> {
  const total: ByCurrency = {};
  for (const id of merchantIds) {
    for (const w of (await control('GET', `/wallets?merchant_id=${id}&environment=test`)).wallets) add(total, w.currency, w.balance);
    for (const g of (await control('GET', `/gift-card-wallets?merchant_id=${id}&environment=test`)).gift_card_wallets) add(total, g.currency, g.balance);
    for (const f of (await control('GET', `/fleet-cards?merchant_id=${id}&environment=test`)).fleet_cards) add(total, f.currency, f.balance);
  }
  for (const u of (await control('GET', '/users')).users) for (const [currency, balance] of Object.entries(u.wallets.test as ByCurrency)) add(total, currency, balance);
  return total;
}

/**
 * 5. Every balance anywhere — merchant wallets, service users' wallets, gift-card wallets, fleet
 * cards — equals the sum of its own ledger, opening (fixture) balances included.
 */
async function assertEveryBalanceIsItsLedger(merchantIds: string[]) {
  const sum = (xs: Array<{ amount: number }>) => xs.reduce((t, x) => t + x.amount, 0);
  for (const id of merchantIds) {
    for (const w of (await control('GET', `/wallets?merchant_id=${id}&entries=10000`)).wallets) {
      assert.equal(w.entry_sum, w.balance, `wallet ${w.id}`);
    }
    for (const g of (await control('GET', `/gift-card-wallets?merchant_id=${id}`)).gift_card_wallets) {
      const ledger = await control('GET', `/gift-card-wallets/${g.id}/transactions`);
      assert.equal(sum(ledger.transactions), g.balance, `gift-card wallet ${g.id}`);
    }
    for (const c of (await control('GET', `/fleet-cards?merchant_id=${id}`)).fleet_cards) {
      const ledger = await control('GET', `/fleet-cards/${c.id}/transactions`);
      assert.equal(sum(ledger.transactions), c.balance, `fleet card ${c.id}`);
    }
  }
  for (const u of (await control('GET', '/users')).users) {
    for (const [environment, wallets] of Object.entries(u.wallets as Record<string, ByCurrency>)) {
      for (const [currency, balance] of Object.entries(wallets)) {
        const entries = (u.entries as Array<{ environment: string; currency: string; amount: number }>).filter((e) => e.environment === environment && e.currency === currency);
        assert.equal(sum(entries), balance, `user ${u.id} ${environment} ${currency}`);
      }
    }
  }
}

before(async () => {
  emu = await startTestEmulator({ clockStart: Date.parse('2026-05-05T08:00:00.000Z') });
});
after(() => emu.stop());

test('every seeded balance starts as an opening entry of its ledger', async () => {
  await assertEveryBalanceIsItsLedger(MERCHANTS);
  // The fixtures do seed non-zero balances of every kind, so the check above had work to do.
  const held = await holdings(MERCHANTS);
  assert.ok(Object.values(held).every((v) => v > 0));
  const mary = await control('GET', `/users/${encodeURIComponent('+231770000201')}`);
  assert.ok(mary.entries.some((e: { reason: string; amount: number }) => e.reason === 'fixture' && e.amount > 0));
  const truck = await control('GET', '/fleet-cards/fc_test_truck_01/transactions');
  assert.deepEqual(truck.transactions.map((t: { type: string }) => t.type), ['issue']);
});

test('a mixed run creates and loses no money', async () => {
  const before = await holdings(MERCHANTS);
  const externalIn: ByCurrency = {};
  const ledgerExpect: Record<string, number> = {}; // reason → expected sum of merchant entries

  // A sub-merchant (OTP round trip); its wallet counts like any other.
  await api('POST', '/v1/api/sub-merchants/start', { manager_phone: '+231880000203' }, 200);
  const otp = (await control('GET', `/otp/${encodeURIComponent('+231880000203')}`)).messages[0].code;
  const sub = await api('POST', '/v1/api/sub-merchants/complete', { merchant_name: 'Acme Kakata', manager_phone: '+231880000203', otp });
  const merchants = [...MERCHANTS, sub.id];

  // Link payments from outside (card, MoMo): completed ones bring money in, failed ones do not.
  const usdJar = await api('POST', '/v1/api/payment-links', { title: 'Jar', currency: 'USD' });
  const lrdJar = await api('POST', '/v1/api/payment-links', { title: 'LRD jar', currency: 'LRD' });
  const branch = await api('POST', '/v1/api/payment-links', { title: 'Branch', currency: 'USD', sub_merchant_id: sub.id });
  for (const [link, amount, outcome, method] of [
    [usdJar, 12_345, 'completed', 'card'],
    [usdJar, 999, 'failed', 'card'],
    [usdJar, 50_000, 'completed', 'momo'],
    [lrdJar, 1_500_000, 'completed', 'momo'],
    [branch, 7_777, 'completed', 'card'],
  ] as const) {
    const p = await api('POST', `/v1/api/payment-links/${link.id}/simulate`, { amount, outcome, method });
    assert.equal(p.status, outcome);
    if (outcome === 'completed') {
      add(externalIn, p.currency, amount);
      ledgerExpect.payment = (ledgerExpect.payment ?? 0) + amount;
    }
  }

  // Mandate charges: the card rail brings money in; the wallet rail moves it from a service
  // user's wallet to the merchant (inside the system).
  const card = (await api('POST', '/v1/api/mandates', { rail: 'card', customer_ref: 'cust-1', currency: 'USD', max_amount_cents: 100_000 })).mandate;
  for (const [amount, outcome] of [
    [20_000, 'completed'],
    [30_000, 'failed'],
  ] as const) {
    const p = await api('POST', '/v1/api/charges', { mandate_id: card.id, amount_cents: amount, currency: 'USD', idempotency_key: idem('cycle'), outcome });
    assert.equal(p.status, outcome);
    if (outcome === 'completed') {
      add(externalIn, 'USD', amount);
      ledgerExpect.payment += amount;
    }
  }
  const wallet = (await api('POST', '/v1/api/mandates', { rail: 'wallet', customer_ref: 'cust-2', currency: 'LRD', max_amount_cents: 1_000_000, customer_phone: '+231770000202' })).mandate;
  const walletCharge = await api('POST', '/v1/api/charges', { mandate_id: wallet.id, amount_cents: 400_000, currency: 'LRD', idempotency_key: idem('cycle') });
  assert.equal(walletCharge.status, 'completed', JSON.stringify(walletCharge));
  ledgerExpect.payment += 400_000;

  // Top-ups from outside: a merchant's and a service user's.
  await control('POST', '/wallets/top-up', { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: 10_000 });
  add(externalIn, 'USD', 10_000);
  ledgerExpect.top_up = 10_000;
  await control('POST', '/users/+231770000201/top-up', { environment: 'test', currency: 'USD', amount: 3_000 });
  add(externalIn, 'USD', 3_000);

  // Payouts: two complete, two fail (reversed), two stay processing; one is refused for funds;
  // one is retried with its idempotency key and must debit once.
  await control('POST', '/payouts/provider/outcomes', { outcomes: ['completed', 'failed', 'completed', 'failed', 'completed', 'completed'] });
  for (const [payee, amount, currency] of [
    ['payee_ada', 40_000, 'USD'],
    ['payee_ada', 10_000, 'USD'],
    ['payee_kofi', 1_000_000, 'LRD'],
    ['payee_kofi', 300_000, 'LRD'],
  ] as const) {
    await api('POST', '/v1/api/payouts', { payee_id: payee, amount_cents: amount, currency });
  }
  await control('POST', '/clock/advance', { by: '2s' });
  const key = idem('payout-retry');
  for (let i = 0; i < 2; i++) {
    const res = await emu.request('POST', '/v1/api/payouts', { body: { payee_id: 'payee_ada', amount_cents: 5_000, currency: 'USD' }, idempotencyKey: key });
    assert.equal(res.status, 201, res.text);
  }
  await api('POST', '/v1/api/payouts', { payee_id: 'payee_kofi', amount_cents: 250_000, currency: 'LRD' });
  const bigPayee = await control('POST', '/payees', { merchant_id: 'mer_acme', environment: 'test', name: 'Too Big', currency: 'USD', per_payout_cap: 100_000_000, daily_cap: 100_000_000 });
  await control('POST', `/payees/${bigPayee.id}/approve`, { pin: '1357' });
  const refused = await emu.request('POST', '/v1/api/payouts', { body: { payee_id: bigPayee.id, amount_cents: 90_000_000, currency: 'USD' }, idempotencyKey: idem('big') });
  assert.equal(refused.json.error?.code, 'VALIDATION_ERROR', refused.text);
  assert.match(refused.json.error.message, /^amount_cents: insufficient funds/);

  // Payroll: two lines reach service users (inside the system), one matches nobody.
  const run = await api('POST', '/v1/api/payroll/runs', {
    currency: 'USD',
    payments: [
      { external_ref: 'emp-1', payee_phone: '+231770000201', amount_cents: 15_000 },
      { external_ref: 'emp-2', payee_phone: '+231770000202', amount_cents: 25_000 },
      { external_ref: 'emp-x', payee_phone: '+231779999999', amount_cents: 99_000 },
    ],
  });
  await control('POST', `/payroll-runs/${run.run.id}/approve`, { pin: '1357' });
  const lines = (await api('GET', `/v1/api/payroll/runs/${run.run.id}`, undefined, 200)).payments;
  const paidPayroll = lines.filter((l: any) => l.status === 'paid').reduce((s: number, l: any) => s + l.amount_cents, 0);
  assert.equal(paidPayroll, 40_000, JSON.stringify(lines));
  ledgerExpect.payroll_line = -paidPayroll;

  // Card redemptions move customer money to the merchant.
  const gift = await api('POST', '/v1/gift-cards/redeem', { merchant_wallet_id: 'mw_test_ada_usd', amount: 1_000, idempotency_key: idem('g') });
  const fleet = await api('POST', '/v1/fleet-cards/redeem', { fleet_card_id: 'fc_test_truck_01', category: 'fuel', amount_cents: 5_000, idempotency_key: idem('f') });
  ledgerExpect.gift_card_redemption = gift.transaction.amount;
  ledgerExpect.fleet_card_redemption = fleet.transaction.amount_cents;

  // What the payouts became, from the merchant API.
  const payouts = (await api('GET', '/v1/api/payouts?limit=100', undefined, 200)).payouts as Array<{ id: string; status: string; currency: string; amount_cents: number }>;
  const processingIds = new Set(payouts.filter((p) => p.status === 'processing').map((p) => p.id));
  assert.deepEqual(payouts.map((p) => p.status).sort(), ['completed', 'completed', 'failed', 'failed', 'processing', 'processing']);
  const pending: ByCurrency = {};
  const externalOut: ByCurrency = {};
  for (const p of payouts) {
    if (p.status === 'processing') add(pending, p.currency, p.amount_cents);
    if (p.status === 'completed') add(externalOut, p.currency, p.amount_cents);
    ledgerExpect.payout = (ledgerExpect.payout ?? 0) - p.amount_cents;
    if (p.status === 'failed') ledgerExpect.payout_reversal = (ledgerExpect.payout_reversal ?? 0) + p.amount_cents;
  }

  // 1 and 2: each wallet against its ledger; balances + pending against credits − debits.
  const balances: ByCurrency = {};
  const credits: ByCurrency = {};
  const debits: ByCurrency = {};
  const byReason: Record<string, number> = {};
  for (const id of merchants) {
    for (const w of (await control('GET', `/wallets?merchant_id=${id}&environment=test&entries=10000`)).wallets) {
      assert.equal(w.entries.length, w.entry_count, `${w.id}: every entry read`);
      const sum = w.entries.reduce((s: number, e: any) => s + e.amount, 0);
      assert.equal(w.balance, sum, `${w.id}: balance == sum of its ledger entries`);
      assert.ok(w.balance >= 0, `${w.id}: never negative`);
      add(balances, w.currency, w.balance);
      for (const e of w.entries) {
        // A processing payout's debit is money in transit, not yet gone: it is the `pending` term.
        if (e.amount > 0) add(credits, w.currency, e.amount);
        else if (!(e.reason === 'payout' && processingIds.has(e.ref))) add(debits, w.currency, -e.amount);
        if (e.reason !== 'fixture') byReason[e.reason] = (byReason[e.reason] ?? 0) + e.amount;
      }
    }
  }
  for (const currency of new Set([...Object.keys(balances), ...Object.keys(pending)])) {
    assert.equal((balances[currency] ?? 0) + (pending[currency] ?? 0), (credits[currency] ?? 0) - (debits[currency] ?? 0), `${currency}: balances + pending == credits − final debits`);
  }

  // 3: the ledger says what happened, reason by reason.
  assert.deepEqual(byReason, ledgerExpect);

  // 4: the whole test environment is a closed system apart from declared inflows and outflows.
  const afterHoldings = await holdings(merchants);
  for (const currency of new Set([...Object.keys(before), ...Object.keys(afterHoldings)])) {
    const expected = (before[currency] ?? 0) + (externalIn[currency] ?? 0) - (externalOut[currency] ?? 0);
    assert.equal((afterHoldings[currency] ?? 0) + (pending[currency] ?? 0), expected, `${currency}: held + pending == start + in − out`);
  }

  // And once the processing payouts are answered, nothing is pending and the sums still hold.
  await control('POST', '/clock/advance', { by: '2s' });
  const settled = (await api('GET', '/v1/api/payouts?limit=100', undefined, 200)).payouts as Array<{ status: string; currency: string; amount_cents: number }>;
  assert.ok(settled.every((p) => p.status !== 'processing'));
  const out: ByCurrency = {};
  for (const p of settled) if (p.status === 'completed') add(out, p.currency, p.amount_cents);
  const final = await holdings(merchants);
  for (const currency of Object.keys(final)) {
    assert.equal(final[currency], (before[currency] ?? 0) + (externalIn[currency] ?? 0) - (out[currency] ?? 0), `${currency} after settling`);
  }
  await assertEveryBalanceIsItsLedger(merchants);
});
