import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { tempDir } from '../helpers/emulator.js';

// `npm start` (scripts/start.mjs) and the guard that the tests run only what `npm run build`
// made from the sources as they are (scripts/lib/build-stamp.mjs, scripts/run-tests.mjs), in a
// checkout of their own: this repository's files copied to a scratch folder, node_modules linked,
// no dist/, as after `npm install` in a fresh clone. The start script runs as npm runs it (node
// scripts/start.mjs <flags>): a first start bundles the CLI from the sources, a second with
// nothing changed does not, an edit does, a source that does not compile stops it before any
// emulator starts; the test runner refuses what start built, and a build that never finished.

let checkout = '';
before(() => {
  checkout = tempDir('svc-start-checkout-');
  const root = packageFile('');
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted, not yet committed
    mkdirSync(join(checkout, dirname(file)), { recursive: true });
    copyFileSync(join(root, file), join(checkout, file));
  }
  symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir');
});

const running = new Set<ReturnType<typeof spawn>>();
after(() => running.forEach((c) => c.kill('SIGKILL')));

/** `npm start -- <flags>` in the checkout, to its ready line (or its exit); then SIGTERM. */
async function start(tag: string): Promise<{ code: number | null; ready?: { base_url: string }; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/start.mjs', '--port', '0', '--json', '--quiet', '--data-dir', join(checkout, `.svc-${tag}`)], { cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const closed = once(child, 'close');
  const ready = await new Promise<{ base_url: string } | undefined>((ok) => {
    child.stdout!.on('data', (c) => {
      stdout += c;
      const line = /^\{.*\}$/m.exec(stdout);
      if (line) ok(JSON.parse(line[0]));
    });
    void closed.then(() => ok(undefined));
  });
  if (ready) {
    const answer = await fetch(`${ready.base_url}/v1/api/payments?limit=1`, { headers: { authorization: 'Bearer svc_test_acme0all0scopes0000000000001' } });
    assert.equal(answer.status, 200, 'the started emulator answers');
    child.kill('SIGTERM');
  }
  const [code] = (await closed) as [number | null];
  running.delete(child);
  return { code, ready, stderr };
}

/** The test runner in the checkout (without NODE_TEST_CONTEXT, which would make it report to this test instead of running). */
function runTests() {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return spawnSync(process.execPath, ['scripts/run-tests.mjs', 'architecture'], { cwd: checkout, encoding: 'utf8', env });
}
const BUNDLING = /npm start: bundling the CLI from src\//;

test('nothing built: the tests refuse to run, and the first npm start bundles the CLI from the sources and starts', { timeout: 180_000 }, async () => {
  const refused = runTests();
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /^run-tests: nothing is built: run `npm test`/m);

  const first = await start('first');
  assert.ok(first.ready, first.stderr);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stderr, BUNDLING);
  assert.ok(existsSync(join(checkout, 'dist/cli/fast.cjs')));
  assert.ok(!existsSync(join(checkout, 'dist/src')), 'nothing but the CLI bundle: no tsc output');
});

test('a second npm start with nothing changed bundles nothing; an edit bundles again', { timeout: 180_000 }, async () => {
  const again = await start('again');
  assert.ok(again.ready, again.stderr);
  assert.doesNotMatch(again.stderr, BUNDLING);

  appendFileSync(join(checkout, 'src/cli/fast-main.ts'), '\n// an edit\n');
  const edited = await start('edited');
  assert.ok(edited.ready, edited.stderr);
  assert.match(edited.stderr, BUNDLING);
});

test('a source that does not compile stops npm start before any emulator, and it tries again next time', { timeout: 180_000 }, async () => {
  const file = join(checkout, 'src/cli/fast-main.ts');
  const good = readFileSync(file, 'utf8');
  writeFileSync(file, `${good}\nconst = ;\n`);
  const broken = await start('broken');
  assert.equal(broken.ready, undefined);
  assert.notEqual(broken.code, 0);
  assert.match(broken.stderr, /fast-main\.ts:\d+:\d+: ERROR/);
  writeFileSync(file, good);
  const mended = await start('mended');
  assert.ok(mended.ready, mended.stderr);
  assert.match(mended.stderr, BUNDLING, 'the failed bundle left no stamp: the next start bundles');
});

test("the tests refuse npm start's bundle, and a build that began but never finished", { timeout: 60_000 }, () => {
  const refused = runTests();
  assert.equal(refused.status, 1);
  assert.match(refused.stderr, /dist\/ was not made by a whole `npm run build`/);
  // `npm run build` stamps only at its end: begun and stopped (tsc failed, or Ctrl-C), no stamp.
  assert.equal(spawnSync(process.execPath, ['scripts/lib/build-stamp.mjs', 'begin'], { cwd: checkout }).status, 0);
  assert.ok(!existsSync(join(checkout, 'dist/.build-stamp.json')));
  assert.equal(runTests().status, 1);
});
