import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';

// The testing API must work under vitest as well as node:test: this runs the vitest suite in
// test/vitest (emulator.spec.mjs, named: this file must not be collected by vitest itself)
// with the project's vitest and checks that it ran and passed.

test('the testing API under vitest: a vitest suite with an emulator per file and a reset per test passes', { timeout: 120_000 }, () => {
  const root = packageFile('');
  const vitest = join(root, 'node_modules', 'vitest', 'vitest.mjs');
  const r = spawnSync(process.execPath, [vitest, 'run', '--root', join(root, 'test', 'vitest'), '--reporter', 'json', 'emulator.spec.mjs'], { cwd: root, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  assert.equal(r.status, 0, `${r.stdout}\n${r.stderr}`);
  const report = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as { numPassedTests: number; numFailedTests: number };
  assert.equal(report.numFailedTests, 0);
  assert.equal(report.numPassedTests, 2);
});
