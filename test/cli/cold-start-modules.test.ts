import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { KEYS, startTestEmulator, tempDir } from '../helpers/emulator.js';
import { closed, svcBin } from '../helpers/svc-process.js';

// What a cold `svc` loads (issue 28, fast starts): the built binary runs CommonJS only — bin/svc.js
// and the CLI bundle's chunks in dist/cli (scripts/build-bundles.mjs) — and a command loads only
// the code it runs. Node's own module debug log (NODE_DEBUG=module,esm) names every file and
// built-in it loads, so this is read from the real process, not from the bundle's layout.

const root = dirname(dirname(svcBin));

interface Loaded {
  files: string[];
  builtins: string[];
  /** Lines of the ES module loader's log: none when no ES module was loaded. */
  esm: string[];
  stdout: string;
  code: number | NodeJS.Signals | null;
}

async function coldRun(args: string[]): Promise<Loaded> {
  const home = tempDir('svc-cold-');
  const child = spawn(process.execPath, [svcBin, ...args], {
    cwd: home,
    env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: home, NODE_DEBUG: 'module,esm' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const code = await closed(child);
    const lines = stderr.split('\n');
    return {
      files: lines.flatMap((l) => /^MODULE \d+: load "([^"]+)" for module/.exec(l)?.[1] ?? []).map((f) => relative(root, f)),
      builtins: lines.flatMap((l) => /^MODULE \d+: load built-in module (\S+)/.exec(l)?.[1] ?? []),
      esm: lines.filter((l) => /^ESM \d+:/.test(l)),
      stdout,
      code,
    };
  } finally {
    child.kill('SIGKILL');
    rmSync(home, { recursive: true, force: true });
  }
}

const outsideBundle = (files: string[]) => files.filter((f) => !['bin/svc.js', 'package.json'].includes(f) && !/^dist\/cli\/[\w-]+\.cjs$/.test(f));
const chunksOf = (files: string[]) => files.filter((f) => f.startsWith('dist/cli/')).map((f) => f.slice('dist/cli/'.length).replace(/-[A-Z0-9]{8}\.cjs$/, '-….cjs'));
/**
 * The chunks esbuild names after a module loaded with import() (a command's index.js, the module
 * a subcommand runs: links-….cjs, get-….cjs), by that name; shared code is in chunk-….cjs.
 */
const lazyChunks = (files: string[]) => files.flatMap((f) => /^dist\/cli\/(?!chunk-)([\w-]+)-[A-Z0-9]+\.cjs$/.exec(f)?.[1] ?? []).sort();

test('svc --help loads bin/svc.js and the CLI bundle only: no dependency, no ES module, no network or process modules', async () => {
  const run = await coldRun(['--help']);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^Usage: svc /);
  assert.deepEqual(outsideBundle(run.files), [], 'files outside the bundle');
  assert.deepEqual(run.esm, [], 'the ES module loader ran');
  // commander's node:child_process is loaded on its first spawn only; no command runs here.
  assert.deepEqual(run.builtins.filter((b) => /^(node:)?(child_process|http|https|crypto|net)$/.test(b)), []);
  assert.deepEqual(lazyChunks(run.files), [], 'no command module');
  // The program is one file (scripts/build-bundles.mjs programInMain): each further file is a
  // read and a compile at every start, six of them before (issue 49).
  assert.deepEqual(chunksOf(run.files), ['fast.cjs', 'main.cjs']);
});

test('svc links get --json loads the links command and the client, not the emulator, zod or express', async () => {
  const emu = await startTestEmulator();
  try {
    const created = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'cold start', amount: 1200 }, idempotencyKey: `cold-${process.pid}` });
    assert.equal(created.status, 201);
    const id = created.json.data.id as string;
    const run = await coldRun(['links', 'get', id, '--json', '--base-url', emu.baseUrl, '--api-key', KEYS.acmeTest]);
    assert.equal(run.code, 0);
    assert.equal(JSON.parse(run.stdout).id, id);
    // Every package (zod, express, undici, chalk) would be a file under node_modules; the
    // emulator's chunk requires express and zod the moment it loads.
    assert.deepEqual(outsideBundle(run.files), [], 'files outside the bundle');
    assert.deepEqual(run.esm, [], 'the ES module loader ran');
    // The fast path (src/cli/fast-path.ts): its two files, not commander's program (main.cjs).
    assert.deepEqual(chunksOf(run.files), ['fast.cjs', 'fast-fast-run-….cjs']);
    assert.ok(run.builtins.some((b) => /^(node:)?http$/.test(b)), 'the request went through node:http');
    // node:crypto costs a read ~1.5 ms; only a write's idempotency key needs it (client/http.ts).
    assert.deepEqual(run.builtins.filter((b) => /^(node:)?crypto$/.test(b)), [], 'node:crypto loaded');
    // A command line the fast path declines goes on to the program: its help comes from commander.
    const help = await coldRun(['links', 'get', '--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^Usage: svc links get \[options\] <id>/);
    assert.deepEqual(lazyChunks(help.files), ['links'], 'the links command, not what get runs');
    assert.ok(chunksOf(help.files).includes('main.cjs'));
  } finally {
    await emu.stop();
  }
});
