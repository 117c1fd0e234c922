import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS } from '../helpers/emulator.js';
import { cliSession, familySmokeTest } from './cli.js';

// payments get|list|summary (in-process): --json is exactly the API's data, --all
// follows the cursor, API errors go to stderr with exit 1.

const cli = cliSession();
const { svc } = cli;

test('payments list pages with --before; --all follows next_before through every page', async () => {
  const link = (await svc(['links', 'create', '--title', 'Many', '--json'])).json();
  for (let i = 0; i < 5; i++) await cli.emu.request('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: { amount: 100 + i } });
  const page = await svc(['payments', 'list', '--limit', '2', '--json'], undefined, familySmokeTest);
  const first = page.json();
  assert.equal(first.payments.length, 2);
  assert.ok(first.next_before);
  assert.deepEqual(first, (await cli.emu.request('GET', '/v1/api/payments?limit=2')).json.data);
  const next = (await svc(['payments', 'list', '--limit', '2', '--before', first.next_before, '--json'])).json();
  assert.notEqual(next.payments[0].id, first.payments[0].id);

  const all = await svc(['payments', 'list', '--all', '--limit', '2', '--json']);
  assert.equal(all.code, 0, all.stderr);
  const everything = (await cli.emu.request('GET', '/v1/api/payments?limit=100')).json.data.payments;
  assert.deepEqual(all.json(), { payments: everything, next_before: null });
  assert.equal(all.stderr, '', 'no progress output without a terminal');
  const failedOnly = (await svc(['payments', 'list', '--all', '--status', 'failed', '--json'])).json();
  assert.ok(failedOnly.payments.every((p: { status: string }) => p.status === 'failed'));
});

test('payments summary --json equals the API; --since is passed through; human output is a table', async () => {
  const r = await svc(['payments', 'summary', '--since', '2020-01-01', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json(), (await cli.emu.request('GET', '/v1/api/payments/summary?since=2020-01-01')).json.data);
  const human = await svc(['payments', 'summary']);
  assert.match(human.stdout, /CURRENCY\s+COMPLETED\s+COMPLETED AMOUNT/);
});

test('API errors: exit 1, nothing on stdout, code + message + trace id on stderr', async () => {
  const r = await svc(['payments', 'get', 'pay_missing', '--trace-id', 'trc_my_own_trace']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^error: NOT_FOUND \(HTTP 404\): /);
  assert.match(r.stderr, /trace id: trc_my_own_trace/, 'the client-sent trace id comes back');
  // --json: the error is one JSON object on stderr, for scripts.
  const json = await svc(['payments', 'get', 'pay_missing', '--json', '--trace-id', 'trc_my_own_trace']);
  assert.equal(json.code, 1);
  assert.equal(json.stdout, '');
  const parsed = JSON.parse(json.stderr);
  assert.equal(parsed.error.code, 'NOT_FOUND');
  assert.equal(parsed.error.trace_id, 'trc_my_own_trace');
  assert.equal(typeof parsed.error.message, 'string');
  const usage = await svc(['links', 'create', '--title', 'x', '--currency', 'usd', '--json']);
  assert.equal(usage.code, 2);
  assert.deepEqual(Object.keys(JSON.parse(usage.stderr).error), ['code', 'message', 'trace_id']);
  assert.equal(JSON.parse(usage.stderr).error.code, 'USAGE_ERROR');
  const invalid = await svc(['links', 'create', '--title', ' ']);
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /VALIDATION_ERROR \(HTTP 422\): title: /);
  const scope = await svc(['links', 'create', '--title', 'x'], KEYS.acmeReadOnly);
  assert.equal(scope.code, 1);
  assert.match(scope.stderr, /FORBIDDEN \(HTTP 403\)/);
});
