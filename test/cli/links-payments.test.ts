import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { cliHome, target } from './cli.js';

// links create|get|simulate and payments get|list|summary through the built binary: --json is
// exactly the API's data (compared with a direct read), human output carries the TEST marker,
// a failed payment is exit 0 unless --fail-on-failed, errors go to stderr with exit 1.

let emu: TestEmulator;
const cli = cliHome();
const svc = (args: string[], key: string = KEYS.acmeTest) => cli.run([...args, ...target(emu.baseUrl, key)]);

before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

test('links create --json prints the link exactly as the API returns it; get by id and by code agree', async () => {
  const created = await svc(['links', 'create', '--title', 'Coffee beans', '--amount', '1200', '--currency', 'USD', '--methods', 'card,momo', '--metadata', '{"order":"o-1"}', '--json']);
  assert.equal(created.code, 0, created.stderr);
  const link = created.json();
  assert.equal(created.stdout.trim().split('\n')[0], '{', 'one JSON document and nothing before it');
  const direct = await emu.request('GET', `/v1/api/payment-links/${link.id}`);
  assert.deepEqual(link, direct.json.data);
  assert.deepEqual(link.accepted_methods, ['card', 'momo']);
  assert.deepEqual(link.metadata, { order: 'o-1' });

  const byId = await svc(['links', 'get', link.id, '--json']);
  assert.deepEqual(byId.json(), direct.json.data);
  const byCode = await svc(['links', 'get', link.link_code, '--json']);
  assert.deepEqual(byCode.json(), direct.json.data);

  const human = await svc(['links', 'get', link.id]);
  assert.equal(human.code, 0);
  assert.match(human.stdout, /^\[TEST\] Payment link\n/);
  assert.match(human.stdout, /amount\s+12\.00 USD/);
  assert.match(human.stdout, new RegExp(`link code\\s+${link.link_code}`));
  assert.match(human.stderr, /^trace trc_cli_[0-9a-f]{20}/m, 'the trace id is shown');
  assert.doesNotMatch(human.stdout, /\x1b\[/, 'no colour when stdout is not a terminal');
});

test('--idempotency-key on links create replays the same link', async () => {
  const args = ['links', 'create', '--title', 'Replay me', '--amount', '500', '--idempotency-key', 'cli-links-replay-1', '--json'];
  const a = await svc(args);
  const b = await svc(args);
  assert.equal(a.code, 0, a.stderr);
  assert.deepEqual(b.json(), a.json());
});

test('links simulate: completed, failed (exit 0), failed with --fail-on-failed (exit 1); payments get agrees', async () => {
  const link = (await svc(['links', 'create', '--title', 'Any', '--json'])).json();
  const paid = await svc(['links', 'simulate', link.id, '--amount', '700', '--method', 'momo', '--json']);
  assert.equal(paid.code, 0, paid.stderr);
  const payment = paid.json();
  assert.equal(payment.status, 'completed');
  assert.equal(payment.payment_method, 'momo');
  const read = await svc(['payments', 'get', payment.id, '--json']);
  assert.deepEqual(read.json(), (await emu.request('GET', `/v1/api/payments/${payment.id}`)).json.data);

  const failed = await svc(['links', 'simulate', link.id, '--amount', '300', '--outcome', 'failed']);
  assert.equal(failed.code, 0, 'a failed payment is data');
  assert.match(failed.stdout, /^\[TEST\] Payment failed/);
  const strict = await svc(['links', 'simulate', link.id, '--amount', '300', '--outcome', 'failed', '--fail-on-failed', '--json']);
  assert.equal(strict.code, 1);
  assert.equal(strict.json().status, 'failed', 'the payment is still printed');
  const strictGet = await svc(['payments', 'get', strict.json().id, '--fail-on-failed', '--json']);
  assert.equal(strictGet.code, 1);
});

test('simulate with a live key is refused locally (exit 2)', async () => {
  const r = await svc(['links', 'simulate', 'pl_whatever'], KEYS.acmeLive);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /test keys only/);
  assert.match(r.stderr, /^error: /);
});

test('payments list pages with --before; --all follows next_before through every page', async () => {
  const link = (await svc(['links', 'create', '--title', 'Many', '--json'])).json();
  for (let i = 0; i < 5; i++) await emu.request('POST', `/v1/api/payment-links/${link.id}/simulate`, { body: { amount: 100 + i } });
  const page = await svc(['payments', 'list', '--limit', '2', '--json']);
  const first = page.json();
  assert.equal(first.payments.length, 2);
  assert.ok(first.next_before);
  assert.deepEqual(first, (await emu.request('GET', '/v1/api/payments?limit=2')).json.data);
  const next = (await svc(['payments', 'list', '--limit', '2', '--before', first.next_before, '--json'])).json();
  assert.notEqual(next.payments[0].id, first.payments[0].id);

  const all = await svc(['payments', 'list', '--all', '--limit', '2', '--json']);
  assert.equal(all.code, 0, all.stderr);
  const everything = (await emu.request('GET', '/v1/api/payments?limit=100')).json.data.payments;
  assert.deepEqual(all.json(), { payments: everything, next_before: null });
  assert.equal(all.stderr, '', 'no progress output without a terminal');
  const failedOnly = (await svc(['payments', 'list', '--all', '--status', 'failed', '--json'])).json();
  assert.ok(failedOnly.payments.every((p: { status: string }) => p.status === 'failed'));
});

test('payments summary --json equals the API; --since is passed through; human output is a table', async () => {
  const r = await svc(['payments', 'summary', '--since', '2020-01-01', '--json']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(r.json(), (await emu.request('GET', '/v1/api/payments/summary?since=2020-01-01')).json.data);
  const human = await svc(['payments', 'summary']);
  assert.match(human.stdout, /CURRENCY\s+COMPLETED\s+COMPLETED AMOUNT/);
});

test('API errors: exit 1, nothing on stdout, code + message + trace id on stderr', async () => {
  const r = await svc(['payments', 'get', 'pay_missing', '--json', '--trace-id', 'trc_my_own_trace']);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /^error: NOT_FOUND \(HTTP 404\): /);
  assert.match(r.stderr, /trace id: trc_my_own_trace/, 'the client-sent trace id comes back');
  const invalid = await svc(['links', 'create', '--title', 'x', '--currency', 'usd']);
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /VALIDATION_ERROR \(HTTP 422\): currency: /);
  const scope = await svc(['links', 'create', '--title', 'x'], KEYS.acmeReadOnly);
  assert.equal(scope.code, 1);
  assert.match(scope.stderr, /FORBIDDEN \(HTTP 403\)/);
});

test('usage errors exit 2: missing required flag, bad number, bad JSON, unknown command', async () => {
  const missing = await svc(['links', 'create']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /--title/);
  const badNumber = await svc(['links', 'create', '--title', 'x', '--amount', '12.5']);
  assert.equal(badNumber.code, 2);
  assert.match(badNumber.stderr, /--amount/);
  const badJson = await svc(['links', 'create', '--title', 'x', '--metadata', '{nope']);
  assert.equal(badJson.code, 2);
  assert.match(badJson.stderr, /--metadata: not valid JSON/);
  const unknown = await cli.run(['linkz']);
  assert.equal(unknown.code, 2);
});
