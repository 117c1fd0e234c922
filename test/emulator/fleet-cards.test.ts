import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Fleet-card redemption over HTTP: every rejection code, the spend limit per daily / weekly /
// monthly period on the emulator clock (UTC; weeks start Monday), the station-scoped key's
// location, the body idempotency key, and the dashboard actions (issue, status, top-up).

const WEDNESDAY_NOON = Date.parse('2026-03-04T12:00:00.000Z');
let emu: TestEmulator;

const control = (method: string, path: string, body?: unknown) => emu.request(method, `/_emulator${path}`, { key: null, body });
const redeem = (body: Record<string, unknown>, key: string = KEYS.acmeTest) =>
  emu.request('POST', '/v1/fleet-cards/redeem', { key, body: { idempotency_key: idem('fc'), ...body } });

async function advanceTo(iso: string) {
  const now = Date.parse((await control('GET', '/clock')).json.data.now);
  const target = Date.parse(iso);
  assert.ok(target >= now, `the clock is already past ${iso}`);
  await control('POST', '/clock/advance', { ms: target - now });
}

async function issue(fields: Record<string, unknown>) {
  const res = await control('POST', '/fleet-cards', { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', allowed_categories: ['fuel'], spend_limit: 1_000, spend_period: 'daily', balance: 100_000, ...fields });
  assert.equal(res.status, 201, res.text);
  return res.json.data;
}

function assertCode(res: { status: number; json: any; text: string }, code: string) {
  assert.equal(res.status, 422, res.text);
  assert.equal(res.json.error.code, code, res.text);
}

before(async () => {
  emu = await startTestEmulator({ clockStart: WEDNESDAY_NOON });
});
after(() => emu.stop());

describe('redeeming', () => {
  test('201 with the transaction and the card state; the merchant wallet is credited', async () => {
    const wallets = async () => (await control('GET', '/wallets?merchant_id=mer_acme&environment=test')).json.data.wallets.find((w: any) => w.currency === 'USD').balance;
    const before = await wallets();
    const key = idem('fc');
    const res = await redeem({ fleet_card_id: 'fc_test_truck_01', category: 'fuel', amount_cents: 12_000, reference: 'pump-3', idempotency_key: key, location_id: 'loc_north' });
    assert.equal(res.status, 201, res.text);
    const { transaction: t, card } = res.json.data;
    assert.match(t.id, /^fct_/);
    assert.deepEqual(
      { ...t, id: undefined, created_at: undefined },
      { id: undefined, type: 'redemption', status: 'completed', fleet_card_id: 'fc_test_truck_01', category: 'fuel', amount_cents: 12_000, currency: 'USD', reference: 'pump-3', location_id: 'loc_north', idempotency_key: key, environment: 'test', created_at: undefined },
    );
    assert.deepEqual(card, { id: 'fc_test_truck_01', status: 'active', balance: 188_000, currency: 'USD', spend_limit: 50_000, spend_period: 'daily', period_start: '2026-03-04T00:00:00.000000Z', period_spent: 12_000 });
    assert.equal(await wallets(), before + 12_000);
  });

  test('FLEET_CARD_INACTIVE, CATEGORY_NOT_ALLOWED (exact match), INSUFFICIENT_BALANCE, SPEND_LIMIT_EXCEEDED', async () => {
    assertCode(await redeem({ fleet_card_id: 'fc_test_truck_02', category: 'fuel', amount_cents: 100 }), 'FLEET_CARD_INACTIVE');
    assertCode(await redeem({ fleet_card_id: 'fc_test_truck_01', category: 'snacks', amount_cents: 100 }), 'CATEGORY_NOT_ALLOWED');
    assertCode(await redeem({ fleet_card_id: 'fc_test_truck_01', category: 'Fuel', amount_cents: 100 }), 'CATEGORY_NOT_ALLOWED');
    const small = await issue({ balance: 500, spend_limit: 10_000 });
    assertCode(await redeem({ fleet_card_id: small.id, category: 'fuel', amount_cents: 501 }), 'INSUFFICIENT_BALANCE');
    assert.equal((await redeem({ fleet_card_id: small.id, category: 'fuel', amount_cents: 500 })).status, 201, 'the whole balance may go');
    const limited = await issue({ balance: 10_000, spend_limit: 1_000 });
    assertCode(await redeem({ fleet_card_id: limited.id, category: 'fuel', amount_cents: 1_001 }), 'SPEND_LIMIT_EXCEEDED');
    // Checks run in a fixed order: an inactive card with a bad category says inactive.
    const both = await issue({ status: 'inactive', balance: 0, spend_limit: 0 });
    assertCode(await redeem({ fleet_card_id: both.id, category: 'snacks', amount_cents: 100 }), 'FLEET_CARD_INACTIVE');
    const poor = await issue({ balance: 10, spend_limit: 5 });
    assertCode(await redeem({ fleet_card_id: poor.id, category: 'fuel', amount_cents: 20 }), 'INSUFFICIENT_BALANCE');
  });

  test("another environment's or merchant's card, or an unknown id, is 404", async () => {
    for (const [id, key] of [
      ['fc_live_truck_01', KEYS.acmeTest],
      ['fc_test_truck_01', KEYS.acmeLive],
      ['fc_test_truck_01', KEYS.globexTest],
      ['fc_nope', KEYS.acmeTest],
    ] as const) {
      const res = await redeem({ fleet_card_id: id, category: 'fuel', amount_cents: 1 }, key);
      assert.equal(res.status, 404, `${id} with ${key}`);
    }
  });

  test('a station-scoped key stamps its own location and ignores location_id; other keys keep the body value', async () => {
    const card = await issue({});
    const station = await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 10, location_id: 'loc_somewhere_else' }, KEYS.acmeStation);
    assert.equal(station.status, 201, station.text);
    assert.equal(station.json.data.transaction.location_id, 'loc_station_7');
    const stationNoBody = await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 10 }, KEYS.acmeStation);
    assert.equal(stationNoBody.json.data.transaction.location_id, 'loc_station_7');
    const plain = await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 10 });
    assert.equal(plain.json.data.transaction.location_id, null);
    const ro = await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 10 }, KEYS.acmeReadOnly);
    assert.equal(ro.status, 403);
  });

  test('the body idempotency key: required, replayed, 409 on another body', async () => {
    const card = await issue({});
    const missing = await emu.request('POST', '/v1/fleet-cards/redeem', { body: { fleet_card_id: card.id, category: 'fuel', amount_cents: 10 } });
    assert.equal(missing.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED');
    const body = { fleet_card_id: card.id, category: 'fuel', amount_cents: 10, idempotency_key: idem('fc-replay') };
    const first = await redeem(body);
    const again = await redeem(body);
    assert.equal(again.text, first.text);
    assert.equal(again.status, 201);
    const list = (await control('GET', '/fleet-cards?merchant_id=mer_acme')).json.data.fleet_cards;
    assert.equal(list.find((c: any) => c.id === card.id).balance, 100_000 - 10, 'redeemed once');
    const conflict = await redeem({ ...body, amount_cents: 11 });
    assert.equal(conflict.status, 409);
    assert.equal(conflict.json.error.code, 'IDEMPOTENCY_CONFLICT');
    // The same key at another merchant is that merchant's own key.
    const globexCard = await control('POST', '/fleet-cards', { merchant_id: 'mer_globex', environment: 'test', currency: 'USD', allowed_categories: ['fuel'], spend_limit: 100, spend_period: 'daily', balance: 100 });
    assert.equal((await redeem({ ...body, fleet_card_id: globexCard.json.data.id }, KEYS.globexTest)).status, 201);
  });
});

describe('spend periods on the emulator clock (UTC)', () => {
  test('daily: the limit resets at midnight UTC', async () => {
    const card = await issue({ spend_limit: 1_000, spend_period: 'daily' });
    assert.equal((await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 600 })).status, 201);
    assertCode(await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 401 }), 'SPEND_LIMIT_EXCEEDED');
    const exact = await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 400 });
    assert.equal(exact.status, 201, 'reaching the limit exactly is allowed');
    assert.equal(exact.json.data.card.period_spent, 1_000);
    await advanceTo('2026-03-04T23:59:59.999Z');
    assertCode(await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1 }), 'SPEND_LIMIT_EXCEEDED');
    await advanceTo('2026-03-05T00:00:00.000Z');
    const next = await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1_000 });
    assert.equal(next.status, 201, next.text);
    assert.equal(next.json.data.card.period_start, '2026-03-05T00:00:00.000000Z');
  });

  test('weekly: Monday 00:00 UTC starts a new week', async () => {
    const card = await issue({ spend_limit: 1_000, spend_period: 'weekly' });
    const first = await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1_000 });
    assert.equal(first.json.data.card.period_start, '2026-03-02T00:00:00.000000Z', 'the Monday of this week');
    await advanceTo('2026-03-08T23:59:59.999Z'); // Sunday
    assertCode(await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1 }), 'SPEND_LIMIT_EXCEEDED');
    await advanceTo('2026-03-09T00:00:00.000Z'); // Monday
    const monday = await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1_000 });
    assert.equal(monday.status, 201, monday.text);
    assert.equal(monday.json.data.card.period_start, '2026-03-09T00:00:00.000000Z');
  });

  test('monthly: the first of the month UTC starts a new period', async () => {
    const card = await issue({ spend_limit: 1_000, spend_period: 'monthly' });
    assert.equal((await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1_000 })).json.data.card.period_start, '2026-03-01T00:00:00.000000Z');
    await advanceTo('2026-03-31T23:59:59.999Z');
    assertCode(await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1 }), 'SPEND_LIMIT_EXCEEDED');
    await advanceTo('2026-04-01T00:00:00.000Z');
    assert.equal((await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1_000 })).status, 201);
  });

  test('refused redemptions do not count toward the limit', async () => {
    const card = await issue({ spend_limit: 1_000, spend_period: 'daily', allowed_categories: ['fuel', 'lubricants'] });
    assertCode(await redeem({ fleet_card_id: card.id, category: 'fuel', amount_cents: 1_500 }), 'SPEND_LIMIT_EXCEEDED');
    assert.equal((await redeem({ fleet_card_id: card.id, category: 'lubricants', amount_cents: 1_000 })).status, 201);
  });
});

describe('dashboard actions (control API)', () => {
  test('issue, deactivate and reactivate, top up, list', async () => {
    const card = await issue({ balance: 0, spend_limit: 5_000, spend_period: 'weekly', allowed_categories: ['fuel', 'wash'] });
    assert.match(card.id, /^fc_/);
    assert.deepEqual({ ...card, id: undefined }, { id: undefined, merchant_id: 'mer_acme', environment: 'test', status: 'active', allowed_categories: ['fuel', 'wash'], balance: 0, spend_limit: 5_000, spend_period: 'weekly', currency: 'USD' });
    assertCode(await redeem({ fleet_card_id: card.id, category: 'wash', amount_cents: 1 }), 'INSUFFICIENT_BALANCE');
    const topped = await control('POST', `/fleet-cards/${card.id}/top-up`, { amount: 3_000 });
    assert.equal(topped.json.data.balance, 3_000);
    const off = await control('POST', `/fleet-cards/${card.id}/status`, { status: 'inactive' });
    assert.equal(off.json.data.status, 'inactive');
    assertCode(await redeem({ fleet_card_id: card.id, category: 'wash', amount_cents: 1 }), 'FLEET_CARD_INACTIVE');
    await control('POST', `/fleet-cards/${card.id}/status`, { status: 'active' });
    assert.equal((await redeem({ fleet_card_id: card.id, category: 'wash', amount_cents: 3_000 })).status, 201);
    const listed = (await control('GET', '/fleet-cards?merchant_id=mer_acme&environment=test')).json.data.fleet_cards;
    assert.equal(listed.find((c: any) => c.id === card.id).balance, 0);
    assert.ok(listed.every((c: any) => c.environment === 'test'));
  });

  test('control validation: categories, periods, ids, merchants', async () => {
    for (const body of [
      { allowed_categories: [] },
      { allowed_categories: ['fuel', 'fuel'] },
      { spend_period: 'yearly' },
      { spend_limit: -1 },
      { currency: 'EUR' },
    ]) {
      const res = await control('POST', '/fleet-cards', { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', allowed_categories: ['fuel'], spend_limit: 1, spend_period: 'daily', ...body });
      assert.equal(res.status, 422, JSON.stringify(body));
    }
    assert.equal((await control('POST', '/fleet-cards', { merchant_id: 'mer_nobody', environment: 'test', currency: 'USD', allowed_categories: ['fuel'], spend_limit: 1, spend_period: 'daily' })).status, 404);
    assert.equal((await control('POST', '/fleet-cards/fc_nope/status', { status: 'inactive' })).status, 404);
    assert.equal((await control('POST', '/fleet-cards/fc_nope/top-up', { amount: 1 })).status, 404);
    assert.equal((await control('POST', '/fleet-cards/fc_test_truck_01/status', { status: 'frozen' })).status, 422);
  });
});
