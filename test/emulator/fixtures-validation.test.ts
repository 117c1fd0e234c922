import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/emulator.js';
import { packageFile } from '../../emulator/assets.js';
import { startEmulator } from '../../src/testing/index.js';
import { runBinary } from '../cli/run-binary.js';

// One check of a fixtures file (contract/fixtures.ts readFixtures) behind every way one is
// given: `svc emulator start --fixtures`, `svc emulator exec --fixtures`, the testing API's
// startEmulator({ fixtures }) and `svc emulator fixtures validate`. A key secret held twice —
// by two merchants, or twice by one — is refused naming both places; before, start seeded it
// and the second merchant's key authenticated as the first merchant. A refused file starts
// nothing: exit 2 (a thrown error in the testing API), no store.lock, no emulator.json.

type Fixtures = { merchants: Array<{ id: string; keys: Array<{ name: string; key: string }> }> };
const bundled = (): Fixtures => JSON.parse(readFileSync(packageFile('fixtures/default.json'), 'utf8'));

function fixturesFile(dir: string, name: string, edit: (f: Fixtures) => void): string {
  const f = bundled();
  edit(f);
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(f));
  return file;
}

const dir = tempDir('svc-fixtures-validation-');
// mer_globex's test key given mer_acme's test secret.
const acrossMerchants = fixturesFile(dir, 'across.json', (f) => (f.merchants[1].keys[0].key = f.merchants[0].keys[0].key));
const ACROSS = /merchants\[1\]\.keys\[0\]\.key: the same secret as merchants\[0\]\.keys\[0\]\.key/;
// One merchant holding one secret under two names.
const withinMerchant = fixturesFile(dir, 'within.json', (f) => f.merchants[0].keys.push({ ...f.merchants[0].keys[0], name: 'acme-test-again' }));
const within = () => new RegExp(`merchants\\[0\\]\\.keys\\[${bundled().merchants[0].keys.length}\\]\\.key: the same secret as merchants\\[0\\]\\.keys\\[0\\]\\.key`);

/** The problem lines of a refusal, as the CLI prints them (one per line, after the file's name). */
const problemLines = (stderr: string) => stderr.split('\n').filter((l) => /^\s+merchants/.test(l)).map((l) => l.trim());

test('fixtures validate: a key secret held by two merchants, or twice by one, is exit 2 naming both paths', async () => {
  const across = await runBinary(['emulator', 'fixtures', 'validate', acrossMerchants]);
  assert.equal(across.code, 2, across.stderr);
  assert.match(across.stderr, ACROSS);
  const inOne = await runBinary(['emulator', 'fixtures', 'validate', withinMerchant]);
  assert.equal(inOne.code, 2, inOne.stderr);
  assert.match(inOne.stderr, within());
});

test('svc emulator start --fixtures: the same refusal, exit 2, nothing started, no lock', async () => {
  const validate = await runBinary(['emulator', 'fixtures', 'validate', acrossMerchants]);
  for (const [file, pattern] of [
    [acrossMerchants, ACROSS],
    [withinMerchant, within()],
  ] as const) {
    const dataDir = join(tempDir('svc-fixtures-start-'), 'data');
    // A timeout (not a hang) if the start went ahead: runBinary kills it and fails the test.
    const r = await runBinary(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--fixtures', file], { timeoutMs: 15_000 });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, pattern);
    assert.equal(existsSync(join(dataDir, 'store.lock')), false, 'no lock');
    assert.equal(existsSync(join(dataDir, 'emulator.json')), false, 'no emulator');
    if (file === acrossMerchants) assert.deepEqual(problemLines(r.stderr), problemLines(validate.stderr), 'the message fixtures validate gives');
  }
});

test('svc emulator exec --fixtures: exit 2 naming both paths, the command never runs', async () => {
  const marker = join(tempDir('svc-fixtures-exec-'), 'ran');
  const r = await runBinary(['emulator', 'exec', '--port', '0', '--fixtures', acrossMerchants, '--', process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`], { timeoutMs: 15_000 });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, ACROSS);
  assert.equal(existsSync(marker), false, 'the command did not run');
});

test('testing API: startEmulator({ fixtures }) throws naming both paths and leaves the data dir unlocked', async () => {
  const dataDir = join(tempDir('svc-fixtures-testing-'), 'data');
  await assert.rejects(startEmulator({ fixtures: acrossMerchants, dataDir }), (err: Error) => ACROSS.test(err.message));
  assert.equal(existsSync(join(dataDir, 'store.lock')), false);
  await assert.rejects(startEmulator({ fixtures: withinMerchant }), (err: Error) => within().test(err.message));
  // The data dir is free: the bundled fixtures start there.
  const emu = await startEmulator({ dataDir });
  await emu.close();
});
