import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SHIPPED_SCENARIOS } from '../../emulator/assets.js';
import { KEYS } from '../helpers/emulator.js';
import { cliSession, target } from '../cli/cli.js';
import { startProxy } from '../parity/proxy.js';

// Every shipped scenario against a "live" host (issue 44): a second emulator behind a proxy
// that passes only /v1, since the real service has no control surface. Once with a test key,
// once with a live key and --live: the steps that need the emulator (advance, otp, fault,
// webhook, the control API) are skipped with their reason, so are the test-only ones with a live
// key (simulate, forced outcomes) and every step that refers to a skipped one, naming it; the
// rest pass. The host sees /v1 requests and the one credential-free identity probe, nothing else.

const cli = cliSession({ clock: 'system' });
const ALL = [...SHIPPED_SCENARIOS.flows, ...SHIPPED_SCENARIOS.triggers].map((f) => f.replace(/^.*\/|\.yaml$/g, ''));

interface Step {
  name: string;
  outcome: string;
  reason?: string;
  did: string;
}

/** The steps of the report, each as `scenario/step outcome: reason`; asserts nothing failed. */
function outcomes(report: { totals: { failed: number }; scenarios: { name: string; steps: Step[] }[] }): Map<string, Step> {
  const all = new Map<string, Step>();
  for (const s of report.scenarios) for (const step of s.steps) all.set(`${s.name}/${step.name}`, step);
  const failed = [...all].filter(([, s]) => s.outcome === 'fail').map(([n, s]) => `${n}: ${s.reason}`);
  assert.deepEqual(failed, [], 'no step failed');
  return all;
}

const EMULATOR_ONLY = /^emulator only \((advance|otp|fault|webhook|the control API)\): http:\/\/127\.0\.0\.1:\d+ is not an svc emulator/;

test('every shipped scenario against a live host, with a test key: emulator-only steps skipped with their reason, the rest pass', async () => {
  const proxy = await startProxy(cli.emu.baseUrl, undefined, { onlyV1: true });
  try {
    const r = await cli.run(['scenario', 'run', ...ALL, '--env', 'PIN=1357', '--json', ...target(proxy.url, KEYS.acmeTest)], { timeoutMs: 300_000 });
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const steps = outcomes(r.json());
    assert.equal(r.code, 0);
    const skipped = [...steps].filter(([, s]) => s.outcome === 'skip');
    for (const [name, s] of skipped) assert.match(s.reason!, new RegExp(`${EMULATOR_ONLY.source}|^refers to step [\\w-]+, which was skipped$`), name);
    // Exactly the emulator's steps and what needs them.
    const emulatorOnly = skipped.filter(([, s]) => EMULATOR_ONLY.test(s.reason!)).map(([n]) => n);
    assert.deepEqual(emulatorOnly.sort(), [
      'catalog.published/event',
      'inventory.low_stock/event',
      'link-failed/webhook',
      'link-paid/webhook',
      'mandate-charges/charged',
      'mandate-charges/declined',
      'payroll-pin/approve',
      'payroll-pin/webhook',
      'payroll_run.completed/approve',
      'payroll_run.failed/approve',
      'payroll_run.partial/approve',
      'sub-merchant-otp/otp',
    ]);
    assert.equal(steps.get('sub-merchant-otp/complete')?.reason, 'refers to step otp, which was skipped');
    assert.equal(steps.get('sub-merchant-otp/list')?.reason, 'refers to step complete, which was skipped');
    assert.equal(steps.get('link-paid/pay')?.outcome, 'pass', 'simulate runs with a test key');
    assert.equal(steps.get('mandate-charges/charge')?.outcome, 'pass');
    assert.ok([...steps.values()].filter((s) => s.outcome === 'pass').length > 40);
    const outside = proxy.seen.filter((l) => !l.startsWith('GET /v1/') && !l.startsWith('POST /v1/') && !l.startsWith('DELETE /v1/'));
    assert.deepEqual([...new Set(outside)], ['GET /_emulator/health'], 'only the identity probe left /v1');
  } finally {
    await proxy.close();
  }
});

test('every shipped scenario against a live host with a live key and --live: test-only steps skipped too, the rest pass', async () => {
  // The live sandbox's own objects, as the merchant has them: a revoked payee and an inactive
  // fleet card (added on the host behind the proxy, through its control API, as a dashboard would).
  const control = async (path: string, body: unknown) => (await cli.emu.request('POST', `/_emulator${path}`, { key: null, body })).json.data;
  const payee = await control('/payees', { merchant_id: 'mer_acme', environment: 'live', name: 'Gone Ltd', currency: 'USD', per_payout_cap: 1000, daily_cap: 2000 });
  await control(`/payees/${payee.id}/revoke`, {});
  const card = await control('/fleet-cards', { merchant_id: 'mer_acme', environment: 'live', currency: 'USD', allowed_categories: ['fuel'], spend_limit: 1000, spend_period: 'daily', status: 'inactive' });
  const env = {
    PIN: '1357',
    PAYEE_ID: 'payee_live_ada',
    CAP: '20000',
    OVER_CAP: '20001',
    REVOKED_PAYEE_ID: payee.id,
    WALLET_ID: 'mw_live_ada_usd',
    CARD_ID: 'fc_live_truck_01',
    INACTIVE_CARD_ID: card.id,
    OVER_LIMIT: '30000',
  };
  const proxy = await startProxy(cli.emu.baseUrl, undefined, { onlyV1: true });
  try {
    const refused = await cli.run(['scenario', 'run', 'link-paid', ...target(proxy.url, KEYS.acmeLive)]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /is a live key .*Pass --live/);
    assert.deepEqual(proxy.seen, [], 'refused before anything was sent');
    const envFlags = Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]);
    const r = await cli.run(['scenario', 'run', ...ALL, ...envFlags, '--live', '--json', ...target(proxy.url, KEYS.acmeLive)], { timeoutMs: 300_000 });
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    const report = r.json();
    assert.equal(report.environment, 'live');
    const steps = outcomes(report);
    assert.equal(r.code, 0);
    const testOnly = [...steps].filter(([, s]) => s.outcome === 'skip' && /^test keys only/.test(s.reason!)).map(([n]) => n);
    assert.deepEqual(testOnly.sort(), ['link-failed/pay', 'link-paid/pay', 'mandate-charges/charge', 'mandate-charges/decline', 'payment.completed/pay', 'payment.failed/pay']);
    assert.equal(steps.get('link-paid/pay')?.reason, 'test keys only: the spec allows simulate with a test key alone');
    assert.equal(steps.get('link-paid/read')?.reason, 'refers to step pay, which was skipped');
    for (const [name, s] of steps) if (s.outcome === 'skip') assert.match(s.reason!, new RegExp(`${EMULATOR_ONLY.source}|^refers to step [\\w-]+, which was skipped$|^test keys only: `), name);
    for (const name of ['link-paid/link', 'mandate-charges/over-cap', 'mandate-charges/after-revoke', 'payouts-cap/at-cap', 'payouts-cap/revoked-payee', 'gift-card/retry', 'fleet-card/inactive', 'fleet-card/over-limit', 'payroll-pin/read', 'idempotency/conflict']) {
      assert.equal(steps.get(name)?.outcome, 'pass', name);
    }
    const outside = proxy.seen.filter((l) => !/^(GET|POST|DELETE) \/v1\//.test(l));
    assert.deepEqual([...new Set(outside)], ['GET /_emulator/health']);
    assert.ok(!proxy.seen.some((l) => /\/simulate$/.test(l)), 'no simulate reached the host with the live key');
  } finally {
    await proxy.close();
  }
});

test('on a live host, webhook steps run when --webhook-url is a public URL that forwards to the runner (--webhook-listen)', async () => {
  const proxy = await startProxy(cli.emu.baseUrl, undefined, { onlyV1: true });
  const { createServer } = await import('node:http');
  // A free port for the runner's receiver; the "public URL" is that port on loopback (a tunnel's far end).
  const port = await new Promise<number>((ok) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => ok(p));
    });
  });
  try {
    const url = `http://127.0.0.1:${port}/hooks`;
    const r = await cli.run(['scenario', 'run', 'link-paid', '--webhook-url', url, '--webhook-listen', String(port), '--json', ...target(proxy.url, KEYS.acmeTest)], { timeoutMs: 120_000 });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(r.json().scenarios[0].steps.map((s: Step) => `${s.name}:${s.outcome}`), ['link:pass', 'pay:pass', 'webhook:pass', 'read:pass', 'link-after:pass']);
    assert.deepEqual(proxy.seen.filter((l) => !/^(GET|POST|DELETE) \/v1\//.test(l)), [], 'no probe needed: nothing but /v1');
    assert.ok(proxy.seen.some((l) => /^DELETE \/v1\/api\/webhook-endpoints\/we_/.test(l)), 'the endpoint the runner registered is deleted after the scenario');
  } finally {
    await proxy.close();
  }
});
