import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { packageFile } from '../../emulator/assets.js';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { report, runProperty } from './harness.js';
import { answerKind, idKind, IdPool } from './id-pool.js';
import { runSeed, type Rng } from './seeded.js';
import { isControlStateRefusal } from './state-refusals.js';

// The same property as merchant.test.ts on the control API's own document
// (/_emulator/openapi.yaml, served as /_emulator/openapi.json): random requests it says are
// valid, for every operation, from loopback (no token needed), accepted or refused only for a
// reason of state at least 99% of the time. The operations that replace the whole world
// (restore a saved or a posted snapshot, reset) or stop the emulator run last, each a few times
// or once (stop), so they do not pull the world from under the others; stop must answer 2xx.

const SAMPLES = 20;

let emu: TestEmulator;
let doc: any;

before(async () => {
  emu = await startTestEmulator();
  const res = await fetch(`${emu.baseUrl}/_emulator/openapi.json`);
  assert.equal(res.status, 200);
  doc = await res.json();
});
after(() => emu.stop());

test('random document-valid requests to every control operation are accepted, or refused only for state', async (t) => {
  const seed = runSeed();
  const pool = new IdPool();
  pool.collect(JSON.parse(readFileSync(packageFile('fixtures/default.json'), 'utf8')));
  // Mandates waiting for a card or a wallet, so the approval routes reach their checks of the card and the phone.
  for (let i = 0; i < 6; i++) {
    const rail = i % 2 === 0 ? 'card' : 'wallet';
    const res = await emu.request('POST', '/v1/api/mandates', { key: KEYS.acmeLive, idempotencyKey: idem('mandate'), body: { rail, customer_ref: `c${i}`, currency: 'USD', max_amount_cents: 1000 } });
    assert.equal(res.status, 201, res.text);
    pool.collect(res.json.data);
  }
  const tallies = await runProperty({
    doc,
    baseUrl: emu.baseUrl,
    seed,
    samples: SAMPLES,
    apiKey: null,
    last: { restoreNamedSnapshot: 3, restoreSnapshot: 3, reset: 3, stop: 1 },
    isStateRefusal: (_op, res, sent) => isControlStateRefusal(res, sent.body),
    idFor: (name: string, path: string, rng: Rng) => pool.draw(idKind(name, path), rng),
    onAccepted: (json, path) => pool.collect(json, answerKind(path)),
  });
  const text = report('/_emulator/openapi.yaml', seed, tallies);
  t.diagnostic(text);
  assert.equal(tallies.length, Object.values(doc.paths).reduce((n: number, ops: any) => n + Object.keys(ops).length, 0), 'every operation was exercised');
  const stop = tallies.find((x) => x.operation === 'stop')!;
  assert.equal(stop.accepted, 1, 'POST /_emulator/stop answered 2xx');
  const sent = tallies.reduce((n, x) => n + x.sent, 0);
  const ok = tallies.reduce((n, x) => n + x.accepted + x.state, 0);
  assert.ok(ok / sent >= 0.99, text);
  assert.deepEqual(tallies.flatMap((x) => x.undocumented), [], text);
});
