import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allRoutes } from '../../emulator/registry.js';
import { RouteTable } from '../../emulator/gateway/dispatch.js';
import type { RouteDef } from '../../emulator/gateway/route.js';
import { idem, startTestEmulator } from '../helpers/emulator.js';

// A fault's route names routes the way a request is routed (issue 39): a fault on
// `GET /v1/api/payments/:id` never fires on /v1/api/payments/summary, which is a route of its
// own. Checked for every pair of merchant routes whose path patterns overlap (some path matches
// both), over HTTP: at a path both patterns match, for each method of the two, a fault on either
// route's pattern fires exactly when the request is that route's.

const routes = allRoutes();
const table = new RouteTable(routes);
const segments = (r: RouteDef) => r.path.split('/').slice(1);
const isParam = (s: string) => s.startsWith(':');

/** A path both patterns match, or undefined when none does. */
function commonPath(a: RouteDef, b: RouteDef): string | undefined {
  const [sa, sb] = [segments(a), segments(b)];
  if (sa.length !== sb.length) return undefined;
  const parts: string[] = [];
  for (let i = 0; i < sa.length; i++) {
    if (isParam(sa[i]!) && isParam(sb[i]!)) parts.push('probe_x1');
    else if (isParam(sa[i]!)) parts.push(sb[i]!);
    else if (isParam(sb[i]!) || sa[i] === sb[i]) parts.push(sa[i]!);
    else return undefined;
  }
  return `/${parts.join('/')}`;
}

const pairs = routes.flatMap((a, i) => routes.slice(i + 1).flatMap((b) => (commonPath(a, b) === undefined ? [] : [[a, b] as const])));

test('every pair of routes whose patterns overlap: a fault on one fires only on requests that are that route', async (t) => {
  // The pairs this must cover, by name: a change to the route table shows up here.
  const named = pairs.map(([a, b]) => `${a.name}~${b.name}`).sort();
  assert.ok(named.includes('getPayment~paymentSummary') || named.includes('paymentSummary~getPayment'), named.join(', '));
  assert.ok(pairs.length >= 5, `${pairs.length} overlapping pairs: ${named.join(', ')}`);

  const emu = await startTestEmulator();
  t.after(() => emu.stop());
  let checked = 0;
  for (const [a, b] of pairs) {
    const path = commonPath(a, b)!;
    for (const faulted of [a, b]) {
      const pattern = `${faulted.method.toUpperCase()} ${faulted.path}`;
      const added = await emu.request('POST', '/_emulator/faults', { key: null, body: { route: pattern, kind: 'status', status: 503 } });
      assert.equal(added.status, 201, added.text);
      for (const method of new Set([a.method.toUpperCase(), b.method.toUpperCase()])) {
        const reached = table.find(method, path)?.route;
        const r = await emu.request(method, path, { body: method === 'GET' ? undefined : {}, idempotencyKey: idem('route') });
        const fired = r.headers.get('svc-fault') !== null;
        assert.equal(fired, reached === faulted, `fault "${pattern}", ${method} ${path} (the ${reached?.name ?? 'no'} route): ${r.status} ${r.text}`);
        checked++;
      }
      assert.equal((await emu.request('POST', '/_emulator/faults/clear', { key: null, body: {} })).status, 200);
    }
  }
  assert.ok(checked >= pairs.length * 2, `${checked} requests`);
});

test('GET /v1/api/payments/:id never fires on /summary; a concrete id names that payment alone; a * pattern stays a path pattern', async (t) => {
  const emu = await startTestEmulator();
  t.after(() => emu.stop());
  const add = (route: string) => emu.request('POST', '/_emulator/faults', { key: null, body: { route, kind: 'status', status: 503 } });
  const fired = async (path: string) => (await emu.request('GET', path)).headers.get('svc-fault') !== null;
  await add('GET /v1/api/payments/:id');
  assert.equal(await fired('/v1/api/payments/summary'), false);
  assert.equal(await fired('/v1/api/payments/pay_doesnotexist00000000'), true);
  await emu.request('POST', '/_emulator/faults/clear', { key: null, body: {} });
  await add('GET /v1/api/payments/pay_one000000000000000');
  assert.equal(await fired('/v1/api/payments/pay_two000000000000000'), false);
  assert.equal(await fired('/v1/api/payments/pay_one000000000000000'), true);
  await emu.request('POST', '/_emulator/faults/clear', { key: null, body: {} });
  await add('GET /v1/api/payments/*');
  assert.equal(await fired('/v1/api/payments/summary'), true, 'a glob names paths, summary included');
});
