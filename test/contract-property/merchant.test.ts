import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { packageFile } from '../../emulator/assets.js';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { report, runProperty } from './harness.js';
import { answerKind, idKind, IdPool } from './id-pool.js';
import { runSeed, type Rng } from './seeded.js';
import { isStateRefusal } from './state-refusals.js';

// The published contract is the whole contract: random requests that /openapi.yaml (served as
// /openapi.json, the same document) says are valid, for every operation, sent with a valid
// test key to a running emulator. At least 99% must be accepted or refused only for a reason of
// state (state-refusals.ts); a refusal for format means the document leaves out a rule the
// server enforces. Seeded: the seed is printed, and SVC_PROPERTY_SEED=<seed> replays it.

const SAMPLES = 40;

let emu: TestEmulator;
let doc: any;

before(async () => {
  emu = await startTestEmulator();
  const res = await fetch(`${emu.baseUrl}/openapi.json`);
  assert.equal(res.status, 200);
  doc = await res.json();
});
after(() => emu.stop());

test('random document-valid requests to every /v1 operation are accepted, or refused only for state', async (t) => {
  const seed = runSeed();
  // The seeded world's ids (payees, gift-card pockets, fleet cards…) and every id handed out during the run.
  const pool = new IdPool();
  pool.collect(JSON.parse(readFileSync(packageFile('fixtures/default.json'), 'utf8')));
  const tallies = await runProperty({
    doc,
    baseUrl: emu.baseUrl,
    seed,
    samples: SAMPLES,
    apiKey: KEYS.acmeTest,
    isStateRefusal: (_op, res) => isStateRefusal(res),
    idFor: (name: string, path: string, rng: Rng) => pool.draw(idKind(name, path), rng),
    onAccepted: (json, path) => pool.collect(json, answerKind(path)),
  });
  const text = report('/openapi.yaml', seed, tallies);
  t.diagnostic(text);
  assert.equal(tallies.length, Object.values(doc.paths).reduce((n: number, ops: any) => n + Object.keys(ops).length, 0), 'every operation was exercised');
  const sent = tallies.reduce((n, x) => n + x.sent, 0);
  const ok = tallies.reduce((n, x) => n + x.accepted + x.state, 0);
  assert.ok(ok / sent >= 0.99, text);
  assert.deepEqual(tallies.flatMap((x) => x.undocumented), [], text);
});
