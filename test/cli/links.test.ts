import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator } from '../helpers/emulator.js';
import { cliSession, familySmokeTest } from './cli.js';

// links create|get|simulate (in-process): --json is exactly the API's data (compared
// with a direct read), human output carries the TEST marker, a failed payment is exit 0 unless
// --fail-on-failed; usage errors exit 2.

const cli = cliSession();
const { svc } = cli;

test('links create --json prints the link exactly as the API returns it; get by id and by code agree', async () => {
  const created = await svc(['links', 'create', '--title', 'Coffee beans', '--amount', '1200', '--currency', 'USD', '--methods', 'card,momo', '--metadata', '{"order":"o-1"}', '--json'], undefined, familySmokeTest);
  assert.equal(created.code, 0, created.stderr);
  const link = created.json();
  assert.equal(created.stdout.trim().split('\n')[0], '{', 'one JSON document and nothing before it');
  const direct = await cli.emu.request('GET', `/v1/api/payment-links/${link.id}`);
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
  assert.match(human.stdout, new RegExp(`checkout url\\s+${cli.emu.baseUrl.replace(/[.]/g, '\\.')}/checkout/${link.link_code}\n`), 'where to send the payer');
  assert.equal(human.stderr, '', 'a call that worked prints no trace line');
  const verbose = await svc(['links', 'get', link.id, '--verbose']);
  assert.match(verbose.stderr, /^trace trc_cli_[0-9a-f]{20}/m, 'the trace id is shown with --verbose');
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
  assert.deepEqual(read.json(), (await cli.emu.request('GET', `/v1/api/payments/${payment.id}`)).json.data);

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

test("an emulator reached by another name: create and get print the checkout URL it hands out (its public URL's), fast path or not", async () => {
  // On 127.0.0.2: not a name the CLI takes for this machine (as svc is not, from a compose
  // service), so only the answer's Svc-Checkout-Url can name the payer page.
  const emu = await startTestEmulator({ host: '127.0.0.2', publicUrl: 'http://svc.test:4242' });
  try {
    const target = ['--base-url', emu.localUrl, '--api-key', KEYS.acmeTest];
    assert.match(emu.localUrl, /^http:\/\/127\.0\.0\.2:\d+$/);
    const created = await cli.run(['links', 'create', '--title', 'Remote', '--amount', '500', ...target]);
    assert.equal(created.code, 0, created.stderr);
    const code = /PL-\w+/.exec(created.stdout)?.[0];
    assert.ok(code, created.stdout);
    assert.match(created.stdout, new RegExp(`checkout url\\s+http://svc\\.test:4242/checkout/${code}\\n`));
    for (const fast of ['1', '0']) {
      const got = await cli.run(['links', 'get', code, ...target], { env: { SVC_FAST_PATH: fast } });
      assert.match(got.stdout, new RegExp(`checkout url\\s+http://svc\\.test:4242/checkout/${code}\\n`), `SVC_FAST_PATH=${fast}`);
    }
  } finally {
    await emu.stop();
  }
});
