import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildInventory, CONTRACT, COVERAGE_KINDS } from '../../contract/coverage.js';
import { EVENT_TYPES } from '../../contract/common.js';
import { ERROR_STATUS } from '../../contract/errors.js';
import { ROUTES, type RouteFacts } from '../../contract/routes.js';

// The coverage inventory is read from the contract, never written beside it: each route of the
// table with its success status, each error code the route can answer (the gateway's, from the
// route's facts, and its own) with its status, each event type, the delivery outcomes and the
// flows. A route added to the contract is in the inventory with no other change.

const names = (items: ReturnType<typeof buildInventory>) => items.map((i) => `${i.kind} ${i.name}`);

test('the inventory is the contract: every route with its status and codes, every event type; names are unique', () => {
  const items = buildInventory();
  assert.equal(new Set(names(items)).size, items.length, 'no name twice');
  assert.deepEqual([...new Set(items.map((i) => i.kind))], [...COVERAGE_KINDS]);
  const routes = items.filter((i) => i.kind === 'route');
  assert.deepEqual(
    routes.map((i) => i.name),
    Object.values(ROUTES).map((r: RouteFacts) => `${r.method} ${r.path} ${r.status ?? 200}`),
  );
  // A route that needs a business account, takes a required key and names its own codes.
  const payroll = items.filter((i) => i.kind === 'error' && i.route === 'createPayrollRun').map((i) => i.name);
  assert.deepEqual(payroll.sort(), [
    'POST /v1/api/payroll/runs 401 UNAUTHORIZED',
    'POST /v1/api/payroll/runs 403 BUSINESS_ACCOUNT_REQUIRED',
    'POST /v1/api/payroll/runs 403 FORBIDDEN',
    'POST /v1/api/payroll/runs 409 IDEMPOTENCY_CONFLICT',
    'POST /v1/api/payroll/runs 409 IDEMPOTENCY_IN_FLIGHT',
    'POST /v1/api/payroll/runs 422 IDEMPOTENCY_KEY_INVALID',
    'POST /v1/api/payroll/runs 422 IDEMPOTENCY_KEY_REQUIRED',
    'POST /v1/api/payroll/runs 422 VALIDATION_ERROR',
    'POST /v1/api/payroll/runs 429 RATE_LIMITED',
    'POST /v1/api/payroll/runs 500 INTERNAL_ERROR',
    'POST /v1/api/payroll/runs 502 BAD_GATEWAY',
    'POST /v1/api/payroll/runs 503 SERVICE_UNAVAILABLE',
  ]);
  for (const [name, r] of Object.entries(ROUTES) as Array<[string, RouteFacts]>) {
    for (const code of r.errors ?? []) assert.ok(items.some((i) => i.route === name && i.code === code && i.status === ERROR_STATUS[code]), `${name} ${code}`);
  }
  assert.deepEqual(items.filter((i) => i.kind === 'event').map((i) => i.name), [...EVENT_TYPES]);
  for (const i of items) assert.ok(i.how.length > 10 && i.weight > 0, `${i.name}: a how and a weight`);
  // Every flow names what marks it, and every route a flow names is one of the contract's.
  for (const f of items.filter((i) => i.kind === 'flow' || i.kind === 'delivery')) {
    assert.ok(f.signal !== undefined || (f.answers?.length ?? 0) > 0, f.name);
    for (const a of f.answers ?? []) assert.ok(a.route === undefined || a.route in ROUTES, `${f.name}: ${a.route}`);
  }
});

test('a route added to the contract is in the inventory with its codes, and nothing else changes', () => {
  const refund: RouteFacts = {
    method: 'POST',
    path: '/v1/api/refunds/:id/cancel',
    scope: 'payments:create',
    summary: 'Cancel a refund',
    idempotency: { header: 'X-Idempotency-Key', required: true },
    status: 201,
    errors: ['INVALID_STATE'],
  };
  const before = buildInventory();
  const after = buildInventory({ ...CONTRACT, routes: { ...CONTRACT.routes, cancelRefund: refund } });
  const added = names(after).filter((n) => !names(before).includes(n));
  assert.deepEqual(added, [
    'route POST /v1/api/refunds/:id/cancel 201',
    ...['401 UNAUTHORIZED', '403 FORBIDDEN', '429 RATE_LIMITED', '422 VALIDATION_ERROR', '500 INTERNAL_ERROR', '502 BAD_GATEWAY', '503 SERVICE_UNAVAILABLE', '404 NOT_FOUND']
      .concat(['422 IDEMPOTENCY_KEY_INVALID', '409 IDEMPOTENCY_CONFLICT', '409 IDEMPOTENCY_IN_FLIGHT', '422 IDEMPOTENCY_KEY_REQUIRED', '409 INVALID_STATE'])
      .map((c) => `error POST /v1/api/refunds/:id/cancel ${c}`),
  ]);
  assert.deepEqual(names(after).filter((n) => !added.includes(n)), names(before), 'every other item as it was');
  assert.match(after.find((i) => i.name === 'POST /v1/api/refunds/:id/cancel 429 RATE_LIMITED')!.how, /faults add --route "POST \/v1\/api\/refunds\/:id\/cancel" --status 429/);
});
