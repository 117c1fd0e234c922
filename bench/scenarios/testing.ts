import { named } from '../../test/helpers/collections.js';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmulator } from '../../emulator/server.js';
import { startChild } from '../lib/child.js';
import { endedChildrenCpuMs } from '../lib/proc-cpu.js';
import { measureColdStarts, ratioTarget } from './cli.js';
import type { BenchContext, Row, Scenario, Target } from '../lib/types.js';

// The testing API (svc-toolkit/testing): is an emulator per test affordable?
//
//   testing.node             node -e 0, the floor, timed in the same rounds as testing.import
//   testing.import           a fresh Node process whose only work is `await import('svc-toolkit/testing')`
//                            (the package's own export, dist/testing/index.js), spawn to exit,
//                            interleaved with testing.node round by round (cli.ts measureColdStarts)
//   testing.first-start      that import, then startEmulator() and close(), timed inside the process:
//                            what a test file pays before its first test (median of 10 processes)
//   testing.start            startEmulator() in-process (memory store), median of 20 (module
//                            loading excluded: the first start pays it once per test file)
//   testing.reset            reset() at the default fixtures, median of 50
//   testing.snapshot.<n>     snapshot() then restore() of a world of n extra records (1k, 100k)
//   testing.rss.process      RSS of an idle `svc emulator start` process
//   testing.rss.inprocess    RSS of a Node process whose only work is one in-process emulator
//   testing.files            4 test files, each with its own in-process emulator, under
//                            `node --test --test-concurrency=4`, against 1 such file
//   testing.files.cpu-floor  the same with files that only burn CPU on one thread
//   testing.files.bare       the same test file with a node:http server in place of the emulator
//
// Targets: the import process ≤ 1.5× node -e 0 (issue 49; it was ≤ 100 ms in-process, issue 28);
// start ≤ 150 ms, reset ≤ 10 ms (issue 10); 4 files ≤ 1.2× what 4 CPU-burning files take on this
// machine (issue 49: the machine decides). A test file is CPU-bound (one file here uses ~0.9 s of
// CPU in ~0.65 s), so 4 files at once need about 4 CPUs: on 2 the CPU-burning reference itself
// runs at ~2× one file.

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeIt(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

const silent = { info() {}, warn() {}, notice() {} };
const start = () => startEmulator({ port: 0, store: 'memory', logger: silent });

/**
 * Writes four copies of a test file and times `node --test` on one of them and on all four at
 * --test-concurrency=4, median of 3 rounds each (interleaved, so drift weighs on both alike).
 * `oneCpu`: the CPU time one file's run took, every thread of the runner and its file's process
 * (Linux; undefined elsewhere).
 */
async function fourVsOne(dir: string, name: string, source: string): Promise<{ one: number; four: number; oneCpu: number | undefined }> {
  const files = [1, 2, 3, 4].map((i) => {
    const f = join(dir, `${name}-${i}.test.mjs`);
    writeFileSync(f, source);
    return f;
  });
  const one: number[] = [];
  const four: number[] = [];
  const oneCpu: number[] = [];
  for (let round = 0; round < 3; round++) {
    const before = endedChildrenCpuMs();
    one.push(await exitTime(['--test', files[0]], dir));
    const after = endedChildrenCpuMs();
    if (before !== undefined && after !== undefined) oneCpu.push(after - before);
    four.push(await exitTime(['--test', '--test-concurrency=4', ...files], dir));
  }
  return { one: median(one), four: median(four), oneCpu: oneCpu.length > 0 ? median(oneCpu) : undefined };
}

const cpuNote = (r: { one: number; oneCpu: number | undefined }) => (r.oneCpu === undefined ? '' : `; one file alone: ${r.oneCpu.toFixed(0)} ms of CPU in ${r.one.toFixed(0)} ms (${(r.oneCpu / r.one).toFixed(2)} CPUs)`);

function exitTime(args: string[], cwd: string): Promise<number> {
  return new Promise((ok, fail) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.once('close', (code) => (code === 0 ? ok(performance.now() - t0) : fail(new Error(`node ${args.join(' ')} exited ${code}: ${err}`))));
  });
}

/** What a test file sets up before its tests: `emulator` is the merchant's (svc's testing API), `bare` a node:http server of its own that only parses the JSON and answers 201 (no svc at all). */
function setUp(server: { emulator: string } | 'bare'): string {
  if (server !== 'bare') {
    return `import { startEmulator } from ${JSON.stringify(server.emulator)};
let emu, base, key;
before(async () => { emu = await startEmulator({ rateLimit: 'off' }); base = emu.baseUrl; key = emu.key('acme-test'); });
beforeEach(() => emu.reset());
after(() => emu.close());`;
  }
  return `import { createServer } from 'node:http';
let server, base;
const key = 'none';
before(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { id: 'pl_' + crypto.randomUUID(), ...JSON.parse(body) } })));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  base = 'http://127.0.0.1:' + server.address().port;
});
after(() => server.close());`;
}

/** A merchant-style test file: its server set up once, then 10 tests of 10 requests each. */
function testFile(server: { emulator: string } | 'bare'): string {
  return `import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
${setUp(server)}
for (let t = 0; t < 10; t++) {
  test('case ' + t, async () => {
    for (let i = 0; i < 10; i++) {
      const res = await fetch(base + '/v1/api/payment-links', { method: 'POST', headers: { authorization: 'Bearer ' + key, 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() }, body: JSON.stringify({ title: 'x', amount: 100, currency: 'USD' }) });
      assert.equal(res.status, 201);
    }
  });
}
`;
}

/** A whole stored payment link (restore() checks every field of every record). */
const benchLink = (i: number) => ({
  id: `pl_bench_${i}`,
  link_code: `PL-BENCH${i}`,
  merchant_id: 'mer_acme',
  environment: 'test',
  title: `Link ${i}`,
  description: null,
  amount: 1200,
  currency: 'USD',
  accepted_methods: ['card'],
  expires_at: null,
  redirect_url: null,
  metadata: null,
  sub_merchant_id: null,
  closed: false,
  total_collected: 0,
  payment_count: 0,
  created_at: new Date(0).toISOString(),
});

const msTarget = (row: string, limit: number): Target => ({
  row,
  text: `p50 ≤ ${limit} ms`,
  check: (rows) => {
    const r = rows.get(row);
    return r?.p50Ms === undefined ? undefined : { actual: `${r.p50Ms.toFixed(1)} ms`, pass: r.p50Ms <= limit };
  },
});

/**
 * Fresh Node processes that import the testing entry by its package name (cwd is the package
 * root, so `svc-toolkit/testing` resolves through package.json's exports, as in a merchant's
 * project), then start and close one emulator; each prints how long that took.
 */
async function firstStartTimes(root: string, runs: number): Promise<number[]> {
  const probe = `const t0 = performance.now();
const { startEmulator } = await import('svc-toolkit/testing');
const emu = await startEmulator();
await emu.close();
console.log(performance.now() - t0);`;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const out = await new Promise<string>((ok, fail) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', probe], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let text = '';
      let err = '';
      child.stdout.on('data', (c) => (text += c));
      child.stderr.on('data', (c) => (err += c));
      child.once('close', (code) => (code === 0 ? ok(text) : fail(new Error(`first-start probe exited ${code}: ${err}`))));
    });
    times.push(Number(out));
  }
  return times;
}

export const testing: Scenario = {
  name: 'testing',
  targets: [
    ratioTarget('testing.import', 1.5, 'the import alone', 'testing.node'),
    msTarget('testing.start', 150),
    msTarget('testing.reset', 10),
    {
      row: 'testing.files',
      text: '≤ 1.2× the CPU-burning files',
      check: (rows) => {
        const files = rows.get('testing.files')?.ratio;
        const floor = rows.get('testing.files.cpu-floor')?.ratio;
        if (files === undefined || floor === undefined) return undefined;
        const bare = rows.get('testing.files.bare')?.ratio;
        const noSvc = bare === undefined ? '' : `; a file with no svc ${bare.toFixed(2)}×`;
        return { actual: `${(files / floor).toFixed(2)}× (${files.toFixed(2)}× vs ${floor.toFixed(2)}×${noSvc})`, pass: files <= 1.2 * floor };
      },
    },
  ],
  async run(ctx: BenchContext): Promise<Row[]> {
    const rows: Row[] = [];
    const [node, imported] = await measureColdStarts(
      ctx,
      'testing',
      [
        { id: 'testing.node', label: 'node -e 0 (baseline)', args: ['-e', '0'] },
        { id: 'testing.import', label: "testing API: a process that only does import('svc-toolkit/testing')", args: ['--input-type=module', '-e', "await import('svc-toolkit/testing')"] },
      ],
      'testing.node',
    );
    rows.push(node, imported);
    const firstStarts = await firstStartTimes(ctx.root, 10);
    rows.push({ id: 'testing.first-start', label: 'testing API: that import + first startEmulator() + close()', p50Ms: median(firstStarts), maxMs: Math.max(...firstStarts) });

    await (await start()).close(); // module loading, once

    const starts: number[] = [];
    for (let i = 0; i < 20; i++) {
      let emu: Awaited<ReturnType<typeof start>> | undefined;
      starts.push(await timeIt(async () => (emu = await start())));
      await emu!.close();
    }
    rows.push({ id: 'testing.start', label: 'testing API: in-process start (memory store)', p50Ms: median(starts), maxMs: Math.max(...starts) });

    const emu = await start();
    try {
      const resets: number[] = [];
      for (let i = 0; i < 50; i++) resets.push(await timeIt(() => emu.reset()));
      rows.push({ id: 'testing.reset', label: 'testing API: reset() at the default fixtures', p50Ms: median(resets), maxMs: Math.max(...resets) });

      for (const n of [1_000, 100_000]) {
        await emu.reset();
        emu.services.store.transaction((tx) => {
          for (let i = 0; i < n; i++) tx.put(named('payment_links'), benchLink(i));
        });
        let snap: ReturnType<typeof emu.snapshot> | undefined;
        const taken = await timeIt(async () => (snap = emu.snapshot()));
        const restored = await timeIt(() => emu.restore(snap));
        const label = n >= 100_000 ? '100k' : '1k';
        rows.push({ id: `testing.snapshot.${label}`, label: `testing API: snapshot() + restore(), ${label} records`, p50Ms: taken + restored, note: `snapshot ${taken.toFixed(1)} ms, restore ${restored.toFixed(1)} ms` });
      }
    } finally {
      await emu.close();
    }

    const child = await startChild<{ base_url: string }>(process.execPath, [join(ctx.root, 'bin', 'svc.js'), 'emulator', 'start', '--port', '0', '--json', '--quiet', '--data-dir', join(ctx.tmpDir, 'testing-rss')], ctx.root);
    try {
      const m = (await (await fetch(`${child.info.base_url}/_emulator/metrics`)).json()) as { data: { rss_bytes: number } };
      rows.push({ id: 'testing.rss.process', label: 'idle emulator process: RSS', note: `${(m.data.rss_bytes / 1e6).toFixed(1)} MB` });
    } finally {
      await child.stop();
    }
    // The module a merchant's test file imports: the package's ES module export (the bundle).
    const testingModule = pathToFileURL(join(ctx.root, 'dist', 'testing', 'index.js')).href;
    const probe = join(ctx.tmpDir, 'rss-probe.mjs');
    writeFileSync(probe, `const base = process.memoryUsage().rss; const { startEmulator } = await import(${JSON.stringify(testingModule)}); const e = await startEmulator(); globalThis.gc?.(); console.error(JSON.stringify({ base, rss: process.memoryUsage().rss })); await e.close();`);
    const rss = await new Promise<{ base: number; rss: number }>((ok, fail) => {
      const c = spawn(process.execPath, ['--expose-gc', probe], { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      c.stderr.on('data', (d) => (err += d));
      c.once('close', () => {
        try {
          ok(JSON.parse(err.trim().split('\n').pop()!));
        } catch {
          fail(new Error(`rss probe: ${err}`));
        }
      });
    });
    rows.push({ id: 'testing.rss.inprocess', label: 'in-process emulator: RSS of its Node process', note: `${(rss.rss / 1e6).toFixed(1)} MB (Node alone ${(rss.base / 1e6).toFixed(1)} MB)` });

    const merchant = await fourVsOne(ctx.tmpDir, 'merchant', testFile({ emulator: testingModule }));
    rows.push({ id: 'testing.files', label: '4 test files with own emulators (concurrency 4) / 1 file', ratio: merchant.four / merchant.one, note: `${merchant.four.toFixed(0)} vs ${merchant.one.toFixed(0)} ms, median of 3; ${availableParallelism()} CPUs (CPU-bound files: below ~4 CPUs the floor is about 4 ÷ CPUs)${cpuNote(merchant)}` });

    // The same harness with files that only burn as much CPU time as one merchant file takes
    // wall time (no emulator, no I/O): the ratio this machine allows a file that uses one CPU.
    const burn = Math.round(merchant.one);
    const floor = await fourVsOne(ctx.tmpDir, 'cpu', `import { test } from 'node:test';\ntest('burn', () => { const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; const end = cpu() + ${burn}; let x = 0; while (cpu() < end) for (let i = 0; i < 1e5; i++) x += Math.sqrt(x + i); });\n`);
    rows.push({ id: 'testing.files.cpu-floor', label: 'reference: 4 files that only burn CPU (as long as one merchant file runs) / 1 file', ratio: floor.four / floor.one, note: `${(floor.four / floor.one).toFixed(2)}× (${floor.four.toFixed(0)} vs ${floor.one.toFixed(0)} ms); what ${availableParallelism()} CPUs allow a CPU-bound file${cpuNote(floor)}` });

    // And the merchant's file with a node:http server of its own in place of the emulator (no svc
    // loaded at all). A file that serves HTTP in-process and calls it with fetch runs on more than
    // one CPU alone (undici's client, V8's compiler and GC threads), so four of them take more
    // than 4 ÷ CPUs of one: testing.files close to this row is the share svc cannot remove.
    const bare = await fourVsOne(ctx.tmpDir, 'bare', testFile('bare'));
    rows.push({ id: 'testing.files.bare', label: 'reference: 4 test files with a bare node:http server each (no svc) / 1 file', ratio: bare.four / bare.one, note: `${(bare.four / bare.one).toFixed(2)}× (${bare.four.toFixed(0)} vs ${bare.one.toFixed(0)} ms), median of 3${cpuNote(bare)}` });
    return rows;
  },
};
