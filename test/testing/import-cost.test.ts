import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../../emulator/assets.js';
import { closed } from '../helpers/svc-process.js';

// What a test file pays for importing svc-toolkit/testing (issue 49): jest and vitest import it
// afresh in every test file's worker, so the import loads the entry alone, and the emulator (its
// bundle, express, zod) comes with the first startEmulator(). Read from a real process by Node's
// own module debug log (NODE_DEBUG=esm,module names every ES module it stores and every file
// require() loads), in a process whose cwd is the package root, so the package name resolves
// through package.json's exports as in a merchant's project. The bench row testing.import times
// the same import against `node -e 0`.

const root = packageFile('');
const MARK = 'SVC-IMPORTED';

/** Files loaded before and after MARK by `source` (run as an ES module or a CommonJS script). */
async function loads(source: string, type: 'module' | 'commonjs'): Promise<{ before: string[]; after: string[] }> {
  const env = { PATH: process.env.PATH, NODE_DEBUG: 'esm,module' };
  const child = spawn(process.execPath, [`--input-type=${type}`, '-e', source], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  assert.equal(await closed(child), 0, stderr.slice(-2000));
  const files = (text: string) => [
    // The -e source itself is stored as [eval1].
    ...[...text.matchAll(/^ESM \d+: Storing (file:\/\/\S+) /gm)].filter((m) => !m[1].endsWith('[eval1]')).map((m) => relative(root, fileURLToPath(m[1]))),
    ...[...text.matchAll(/^MODULE \d+: load "([^"]+)" for module/gm)].map((m) => relative(root, m[1])),
  ];
  const at = stderr.indexOf(MARK);
  assert.ok(at > 0, `no ${MARK} in the output:\n${stderr.slice(-2000)}`);
  return { before: files(stderr.slice(0, at)), after: files(stderr.slice(at)) };
}

const bytes = (files: string[]) => files.reduce((sum, f) => sum + statSync(`${root}/${f}`).size, 0);

test("import('svc-toolkit/testing') loads a few KB; the emulator's bundle comes with the first startEmulator()", async () => {
  const { before, after } = await loads(`const { startEmulator } = await import('svc-toolkit/testing');\nprocess.stderr.write('${MARK}\\n');\nconst emu = await startEmulator();\nawait emu.close();`, 'module');
  // The entry and esbuild's shared helpers: nothing from node_modules, no emulator chunk.
  assert.ok(before.includes('dist/testing/index.js'), before.join(', '));
  assert.deepEqual(before.filter((f) => !/^dist\/testing\/(index|chunk-\w+)\.js$/.test(f)), [], 'loaded by the import');
  assert.ok(bytes(before) < 10_000, `the import loaded ${bytes(before)} bytes: ${before.join(', ')}`);
  // The first start loads the rest: the emulator's chunk, and it runs (it started and closed).
  assert.ok(after.some((f) => /^dist\/testing\/emulator-\w+\.js$/.test(f)), after.join(', '));
  assert.ok(bytes(after) > 500_000, `the first start loaded only ${bytes(after)} bytes`);
});

test("require('svc-toolkit/testing') loads no dependency until the first startEmulator()", async () => {
  const { before, after } = await loads(`const { startEmulator } = require('svc-toolkit/testing');\nprocess.stderr.write('${MARK}\\n');\nstartEmulator().then((emu) => emu.close());`, 'commonjs');
  // The CommonJS build is one file (dist/cjs/testing.cjs); its dependencies are required when the emulator's code first runs.
  assert.deepEqual(before, ['dist/cjs/testing.cjs']);
  assert.ok(after.some((f) => f.startsWith('node_modules/express/')), after.join(', '));
  assert.ok(after.some((f) => f.startsWith('node_modules/zod/')), after.join(', '));
});
