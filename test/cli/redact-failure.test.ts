import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { runBinary } from './run-binary.js';

// What the CLI says when a command line fails quotes what it was handed (a mistyped flag with
// its value, a value a flag refused, a URL, a live host's message), and none of it may carry a
// key, a card number, a PIN, an OTP or a secret in full (src/cli/redact-failure.ts). Through the
// built binary: commander's usage errors, the CLI's own usage errors, and an API error whose
// message quotes the key, in human and --json output. Each case shows the value was quoted
// (its masked form is there), so none passes by the message changing.

const KEY = 'svc_live_Zq8wXr4TnB2mKp6VyL0sHd3J';
const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-wxyz'; // a signing secret's shape: no pattern finds it
const CARD = '4242424242424242';

let server: Server;
let host = '';
before(async () => {
  // A live host whose 401 quotes the key it was sent (a real service's message is not ours to shape).
  server = createServer((req, res) => {
    const key = String(req.headers.authorization).replace(/^Bearer /, '');
    res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ success: false, error: { code: 'UNAUTHORIZED', message: `Unknown API key ${key}.` } }));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  host = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => new Promise<void>((ok) => server.close(() => ok())));

/** The run's stderr holds `shown` and none of `hidden`. */
function says(stderr: string, shown: string, hidden: string): void {
  assert.ok(stderr.includes(shown), `expected ${JSON.stringify(shown)} in: ${stderr}`);
  assert.ok(!stderr.includes(hidden), `the secret ${JSON.stringify(hidden)} was printed: ${stderr}`);
}

test('commander quotes a mistyped flag and its value: a key keeps its prefix and last 4, a PIN nothing', async () => {
  const key = await runBinary(['links', 'get', 'pl_x', `--bogus=${KEY}`]);
  assert.equal(key.code, 2);
  says(key.stderr, `unknown option '--bogus=svc_live_…${KEY.slice(-4)}'`, KEY);

  const pin = await runBinary(['links', 'get', 'pl_x', '--pin=1357']);
  assert.equal(pin.code, 2);
  says(pin.stderr, "unknown option '--pin=[redacted]'", '1357');
});

test('a value a flag refuses is quoted masked: a card number by its shape, a control token as the flag holds it', async () => {
  const card = await runBinary(['links', 'create', '--title', 'x', '--amount', CARD, '--currency', 'USD']);
  assert.equal(card.code, 2);
  says(card.stderr, `argument '************${CARD.slice(-4)}' is invalid`, CARD);

  const token = await runBinary(['links', 'get', 'pl_x', '--control-token', `${SECRET}!`]);
  assert.equal(token.code, 2);
  says(token.stderr, `argument '…${SECRET.slice(-3)}!' is invalid`, SECRET);
});

test('a secret held in an SVC_* variable is masked wherever the message quotes it', async () => {
  const r = await runBinary(['payments', 'list', '--status', SECRET], { env: { SVC_CONTROL_TOKEN: SECRET } });
  assert.equal(r.code, 2);
  says(r.stderr, `got "…${SECRET.slice(-4)}"`, SECRET);
});

test("the CLI's own usage error and a live host's message quoting the key: masked, in human and --json output", async () => {
  const url = await runBinary(['links', 'get', 'pl_x', '--api-key', KEY, '--base-url', `ftp://h/${KEY}`, '--json']);
  assert.equal(url.code, 2);
  assert.equal(url.stdout, '');
  const usage = JSON.parse(url.stderr) as { error: { code: string; message: string } };
  assert.equal(usage.error.code, 'USAGE_ERROR');
  says(usage.error.message, `ftp://h/svc_live_…${KEY.slice(-4)}`, KEY);

  for (const json of [false, true]) {
    const r = await runBinary(['links', 'get', 'pl_x', '--api-key', KEY, '--base-url', host, ...(json ? ['--json'] : [])]);
    assert.equal(r.code, 1);
    says(r.stderr, `Unknown API key svc_live_…${KEY.slice(-4)}.`, KEY);
  }
});
