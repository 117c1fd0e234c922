import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ROUTES } from '../../contract/routes.js';
import { packageFile } from '../../emulator/assets.js';
import { loadSuite } from '../../src/parity/format.js';
import { routeOfStep } from '../../src/scenario/runner.js';
import { Normalizer, timestampFormat } from '../../src/parity/normalize.js';
import { compareRuns, compareStep, ignoreMatches } from '../../src/parity/compare.js';
import { EMULATOR_KEYS, EMULATOR_VARS } from '../../src/parity/emulator-defaults.js';
import type { RecordedStep } from '../../src/parity/snapshot.js';

// The suite's data and its pure parts: every /v1 route is exercised, only /v1 paths are named,
// the emulator defaults are the bundled fixtures' objects, the normalizers and the comparator.

test('the suite exercises every route of the contract, and names no path outside /v1', () => {
  const covered = new Set<string>();
  for (const scenario of loadSuite()) {
    const names = new Set<string>();
    for (const step of scenario.steps) {
      assert.ok(!names.has(step.name), `${scenario.name}/${step.name} twice`);
      names.add(step.name);
      if (!step.request) continue;
      const [method, path] = step.request.split(' ');
      assert.match(path, /^\/v1\//, `${scenario.name}/${step.name}`);
      const route = routeOfStep(method, path);
      if (route) covered.add(route);
    }
  }
  const all = Object.values(ROUTES).map((r) => `${r.method} ${r.path}`);
  assert.deepEqual(all.filter((r) => !covered.has(r)), []);
});

test("the emulator defaults name the bundled fixtures' keys and objects", () => {
  const fixtures = JSON.parse(readFileSync(packageFile('fixtures/default.json'), 'utf8'));
  const [acme, globex] = fixtures.merchants;
  const key = (m: { keys: { key: string; scopes: unknown; environment: string }[] }, k: string) => m.keys.find((x) => x.key === k);
  assert.equal(key(globex, EMULATOR_KEYS.other)?.environment, 'test');
  assert.deepEqual(key(acme, EMULATOR_KEYS.restricted)?.scopes, ['payments:read']);
  const payee = (id: string) => acme.payees.find((p: { id: string }) => p.id === id);
  assert.equal(payee(EMULATOR_VARS.payee_id).status, 'approved');
  assert.equal(payee(EMULATOR_VARS.payee_id).currency, EMULATOR_VARS.payee_currency);
  assert.equal(payee(EMULATOR_VARS.payee_revoked_id).status, 'revoked');
  assert.ok(acme.gift_card_wallets.some((w: { id: string; environment: string }) => w.id === EMULATOR_VARS.gift_card_wallet_id && w.environment === 'test'));
  const card = (id: string) => acme.fleet_cards.find((c: { id: string }) => c.id === id);
  assert.equal(card(EMULATOR_VARS.fleet_card_id).status, 'active');
  assert.ok(card(EMULATOR_VARS.fleet_card_id).allowed_categories.includes(EMULATOR_VARS.fleet_category));
  assert.ok(Number(EMULATOR_VARS.fleet_over_limit_amount) > card(EMULATOR_VARS.fleet_card_id).spend_limit);
  assert.equal(card(EMULATOR_VARS.fleet_card_inactive_id).status, 'inactive');
});

test('normalizers: ids keep their prefix and are numbered by first appearance; times keep their format; secrets, codes, URLs', () => {
  const n = new Normalizer({ baseUrl: 'http://127.0.0.1:4242', run: 'ab12cd34', vars: { payee_id: 'payee_ada', payee_currency: 'USD' }, keys: { main: 'svc_test_acme0all0scopes0000000000001' } });
  n.startScenario();
  const body = {
    data: {
      id: 'pl_sSMKVfQTtlQaH6PO0rhT',
      other: 'pl_Zz9Zz9Zz9Zz9Zz9Zz9Zz',
      again: 'pl_sSMKVfQTtlQaH6PO0rhT',
      link_code: 'PL-538RE4UV',
      created_at: '2026-11-25T17:54:12.251000Z',
      ms: '2026-11-25T17:54:12.251Z',
      secret: 'gtbCFSnrfP6zluVdnRhAB3HScKZ-fCMdtZTsoOWeC3g',
      secret_hint: 'eC3g',
      approval_url: 'http://127.0.0.1:4242/checkout/mandate/mdt_CSPUETSDkFUDogxTFnsY',
      self: 'http://127.0.0.1:4242/v1/api/payments',
      key: '97dd3e57-e797-464e-929d-832f978c0d6f',
      ref: 'parity-ab12cd34-x',
      payee_id: 'payee_ada',
      currency: 'USD',
      message: 'Mandate mdt_CSPUETSDkFUDogxTFnsY was revoked at 2026-11-25T17:54:12.251000Z.',
      echoed: 'svc_test_acme0all0scopes0000000000001',
      status: 'needs_attention',
      payments: [{ id: 'pay_Tfvcf1LfWUHDTHn0cIsO' }],
    },
  };
  assert.deepEqual(n.body(body, ['$.data.payments']), {
    data: {
      id: '<pl_id:1>',
      other: '<pl_id:2>',
      again: '<pl_id:1>',
      link_code: '<link_code:1>',
      created_at: '<timestamp:YYYY-MM-DDThh:mm:ss.ffffffZ>',
      ms: '<timestamp:YYYY-MM-DDThh:mm:ss.fffZ>',
      secret: '<secret:base64url43>',
      secret_hint: '<secret_hint:4 chars>',
      approval_url: '<checkout_url>/mandate/<mdt_id:1>',
      self: '<base_url>/v1/api/payments',
      key: '<uuid>',
      ref: 'parity-<run>-x',
      payee_id: '<var:payee_id>',
      currency: 'USD',
      message: 'Mandate <mdt_id:1> was revoked at <timestamp:YYYY-MM-DDThh:mm:ss.ffffffZ>.',
      echoed: '<api_key:main>',
      status: 'needs_attention',
      payments: [{ id: '<pay_id>' }],
    },
  });
  assert.equal(n.requestPath('/v1/api/payment-links/pl_sSMKVfQTtlQaH6PO0rhT/simulate'), '/v1/api/payment-links/<pl_id:1>/simulate');
  n.startScenario();
  assert.equal(n.string('pl_Zz9Zz9Zz9Zz9Zz9Zz9Zz'), '<pl_id:1>', 'numbers start again in each scenario');
  assert.deepEqual(n.headers({ 'x-trace-id': 'mine', 'content-type': 'application/json; charset=utf-8', 'ratelimit-remaining': '99', 'x-powered-by': 'x' }, 'mine'), {
    'x-trace-id': '<sent X-Trace-ID>',
    'content-type': 'application/json',
    'ratelimit-remaining': '<integer>',
  });
  assert.equal(timestampFormat('2026-11-25T17:54:12+01:00'), '<timestamp:YYYY-MM-DDThh:mm:ss±hh:mm>');
});

const step = (body: unknown, extra: Partial<RecordedStep> = {}): RecordedStep => ({ name: 's', route: 'GET /v1/api/x', request: { method: 'GET', path: '/v1/api/x' }, status: 200, headers: {}, body, ...extra });
const diffs = (a: RecordedStep, b: RecordedStep) => {
  const out: string[] = [];
  compareStep(a, b, (where, e, x) => out.push(`${where}: ${e} | ${x}`));
  return out;
};

test('comparator: types, presence, enums and placeholders compared; free text and numbers by type; lists by their first row', () => {
  const base = { success: true, data: { id: '<pl_id:1>', status: 'pending', title: 'a', amount: 1, ok: true, accepted_methods: ['card'], rows: [{ id: '<pay_id>', n: 1 }] } };
  const lists = { lists: ['$.data.rows'] };
  assert.deepEqual(diffs(step(base, lists), step(structuredClone(base), lists)), []);
  const other = { success: true, data: { id: '<pl_id:2>', status: 'completed', title: 'b', amount: 2.5, ok: false, accepted_methods: ['momo', 'card'], extra: null, rows: [{ id: '<pay_id:1>', n: 'x' }, { z: 1 }] } };
  assert.deepEqual(diffs(step(base, lists), step(other, lists)), [
    '$.data.id: string "<pl_id:1>" | string "<pl_id:2>"',
    '$.data.status: string "pending" | string "completed"',
    '$.data.amount: integer 1 | number 2.5',
    '$.data.ok: boolean true | boolean false',
    '$.data.accepted_methods.length: integer 1 | integer 2',
    '$.data.accepted_methods[0]: string "card" | string "momo"',
    '$.data.rows[0].n: integer 1 | string "x"',
    '$.data.extra: absent | null',
  ]);
  // A different status says so once, with the error code, not the whole body.
  assert.deepEqual(diffs(step(base), step({ success: false, error: { code: 'INTERNAL_ERROR', message: 'x' } }, { status: 500 })), ['status: 200 | 500', '$.error.code: absent | "INTERNAL_ERROR"']);
  assert.deepEqual(diffs(step(base, { rules: { sorted: true }, headers: { 'x-trace-id': '<trace_id>' } }), step(base, { rules: { sorted: false }, headers: {} })), ['header:x-trace-id: <trace_id> | absent', 'rule:sorted: true | false']);
});

test('ignore patterns: scenario/step[:where], * for any, a where covers what is under it', () => {
  const d = { scenario: 'payouts', step: 'create', where: '$.data.status' };
  assert.ok(ignoreMatches('payouts/create:$.data.status', d));
  assert.ok(ignoreMatches('payouts/create:$.data', d));
  assert.ok(ignoreMatches('payouts/create', d));
  assert.ok(ignoreMatches('*/*:$.data.status', d));
  assert.ok(!ignoreMatches('payouts/create:$.data.stat', d));
  assert.ok(!ignoreMatches('payouts/get:$.data.status', d));
  const run = [{ name: 'payouts', description: '', steps: [step({ data: { status: 'processing' } }, { name: 'create' })] }];
  const now = [{ name: 'payouts', description: '', steps: [step({ data: { status: 'completed' } }, { name: 'create' })] }];
  const c = compareRuns(run, now, [{ path: 'payouts/create:$.data.status', reason: 'settles at once' }]);
  assert.equal(c.differences[0].ignored, 'settles at once');
  assert.deepEqual(c.tally, [{ scenario: 'payouts', steps: 1, compared: 1, differences: 0, ignored: 1 }]);
  const skipped = compareRuns(run, [{ name: 'payouts', description: '', skipped: 'needs --var payee_id=…', steps: [] }], []);
  assert.equal(skipped.tally[0].skipped, 'skipped now: needs --var payee_id=…');
  assert.equal(skipped.differences.length, 0);
});
