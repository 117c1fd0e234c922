import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliSession } from './cli.js';

// --idempotency-key goes out in a header: what a header cannot carry is a usage error naming the
// flag (was: a misleading "cannot reach …" network error from the transport), and nothing is sent.

const cli = cliSession();
const create = (key: string) => cli.svc(['links', 'create', '--title', 'Keyed', '--amount', '100', '--currency', 'USD', '--json', '--idempotency-key', key]);

test('an empty key, a control character or more than 255 UTF-8 bytes is exit 2 naming the flag (commander refuses it before the command runs)', async () => {
  for (const [key, why] of [
    ['', /is empty/],
    ['line\nbreak', /control character \(U\+000A\)/],
    ['nul\u0000', /control character \(U\+0000\)/],
    ['é'.repeat(128), /256 bytes in UTF-8; a header key holds at most 255/],
  ] as const) {
    const r = await create(key);
    assert.equal(r.code, 2, `${JSON.stringify(key)}: ${r.stderr}`);
    assert.match(r.stderr, /--idempotency-key <key>/);
    assert.match(r.stderr, why);
  }
});

test('a key with a tab and characters beyond ASCII is sent and replays', async () => {
  const key = `café €\t${process.pid}`;
  const first = await create(key);
  assert.equal(first.code, 0, first.stderr);
  const again = await create(key);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(JSON.parse(again.stdout).id, JSON.parse(first.stdout).id, 'the same key replays the same link');
});
