import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';
import { flagName, type FlagSpec } from '../../src/cli/flags.js';
import { EXEC, START } from '../../src/cli/commands/emulator/flags.js';
import { packageFile } from '../../emulator/assets.js';
import { runBinary, startCli } from './run-binary.js';
import { tempDir } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';

// Every option of `svc emulator start` and `exec` from its SVC_* variable (issue 39): the one
// table (commands/emulator/flags.ts) is what --help, docs/containers.md and docs/emulator.md show;
// each variable, set to a valid value, is taken (the ready line's `sources`, and what the
// emulator then does), and set to a bad one, stops start and exec with exit 2 naming the
// variable and the rule, before anything runs. A flag wins over its variable. The binary:
// start and exec own their process.

const VARIABLES = Object.entries({ ...START, ...EXEC }).map(([prop, spec]: [string, FlagSpec]) => ({ prop, spec, env: spec.env! }));
const TOKEN = 'svc_ctl_from-the-environment-0123456789abcdef';

function optionLine(cmd: Command, prop: string, spec: FlagSpec): string {
  let help = '';
  cmd.configureOutput({ writeOut: (s) => (help += s), writeErr: (s) => (help += s) });
  cmd.outputHelp();
  // Commander wraps long descriptions: join each option's lines before looking.
  const joined = help.replace(/\n {20,}/g, ' ');
  return joined.split('\n').find((l) => l.trimStart().startsWith(`${flagName(prop, spec)}${spec.value ? ` ${spec.value}` : ''} `)) ?? '';
}

/** The cells of each body row of the first table after the line `heading` matches. */
function tableAfter(file: string, heading: RegExp): string[][] {
  const lines = readFileSync(packageFile(file), 'utf8').split('\n');
  const at = lines.findIndex((l) => heading.test(l));
  assert.ok(at >= 0, `${file}: ${heading}`);
  const start = lines.findIndex((l, i) => i > at && l.startsWith('|'));
  const end = lines.findIndex((l, i) => i > start && !l.startsWith('|'));
  return lines.slice(start + 2, end).map((l) => l.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()));
}

const shownDefault = (spec: FlagSpec) => spec.shows ?? (spec.default === undefined ? undefined : String(spec.default));

test('the option table, --help and the docs agree: every option has a variable, shown on its --help line and in both tables', async () => {
  const program = await buildProgram('0.0.0-test', ['emulator']);
  const emulator = program.commands.find((c) => c.name() === 'emulator')!;
  for (const [name, table] of [['start', START], ['exec', EXEC]] as const) {
    const cmd = emulator.commands.find((c) => c.name() === name)!;
    // Nothing registered beside the table.
    assert.deepEqual(cmd.options.map((o) => o.long).sort(), Object.entries(table).map(([prop, spec]) => flagName(prop, spec)).sort());
    for (const [prop, spec] of Object.entries(table) as [string, FlagSpec][]) {
      assert.match(spec.env ?? '', /^SVC_[A-Z_]+$/, `${name} ${flagName(prop)} has a variable`);
      const line = optionLine(cmd, prop, spec);
      assert.ok(line.includes(`[env: ${spec.env}]`), `svc emulator ${name} --help: ${flagName(prop)} shows [env: ${spec.env}]: ${line}`);
      if (spec.default !== undefined) assert.ok(line.includes(`(default: ${spec.shows ?? JSON.stringify(spec.default)})`), `${line}: its default`);
    }
  }

  // docs/containers.md: one row per variable, its flag and its default (start's), nothing else.
  const rows = tableAfter('docs/containers.md', /^## Every setting from the environment/m);
  assert.deepEqual(rows.map((r) => r[0]).sort(), [...new Set(VARIABLES.map((v) => `\`${v.env}\``))].sort(), 'docs/containers.md lists exactly the variables');
  for (const { prop, spec, env } of VARIABLES) {
    const row = rows.find((r) => r[0] === `\`${env}\``)!;
    assert.equal(row[1], `\`${flagName(prop, spec)}${spec.value ? ` ${spec.value}` : ''}\``, `${env}: its flag`);
    const start = (START as Record<string, FlagSpec>)[prop] ?? spec;
    assert.equal(row[2], shownDefault(start) === undefined ? '—' : `\`${shownDefault(start)}\``, `${env}: its default`);
  }

  // docs/emulator.md's table of start: every start option with its variable and (where it has one) its default.
  const page = tableAfter('docs/emulator.md', /^## `svc emulator start`/m);
  assert.equal(page.length, Object.keys(START).length, 'one docs/emulator.md row per start option');
  for (const [prop, spec] of Object.entries(START) as [string, FlagSpec][]) {
    const row = page.find((r) => r[0]!.startsWith(`\`${flagName(prop, spec)}`));
    assert.ok(row, `docs/emulator.md: ${flagName(prop)}`);
    assert.equal(row[1], `\`${spec.env}\``, `docs/emulator.md: ${flagName(prop)}'s variable`);
    const shown = shownDefault(spec);
    if (shown !== undefined) assert.equal(row[2], `\`${shown}\``, `docs/emulator.md: ${flagName(prop)}'s default`);
  }
});

/** A bad value for each variable, and the rule its message states. */
const BAD: Record<string, [string, RegExp]> = {
  SVC_PORT: ['70000', /expected a number from 0 to 65535, got 70000/],
  SVC_HOST: ['', /is empty/],
  SVC_DATA_DIR: ['', /is empty/],
  SVC_FIXTURES: ['', /is empty/],
  SVC_IMPORT: ['', /is empty/],
  SVC_FAULTS: ['', /is empty/],
  SVC_CLOCK: ['frozen', /expected one of system, manual, got "frozen"/],
  SVC_RATE_LIMIT: ['fast', /fast/],
  SVC_LATENCY: ['-5', /expected a number from 0 to 60000, got -5/],
  SVC_QUIET: ['yes please', /expected true, false, 1 or 0, got "yes please"/],
  SVC_FSYNC: ['sometimes', /expected true, false, 1 or 0, got "sometimes"/],
  SVC_REQUEST_LOG: ['lots', /expected a whole number, got "lots"/],
  SVC_RETAIN_DAYS: ['0', /expected a number from 1 to 3650, got 0/],
  SVC_PAYOUT_DELAY: ['soon', /soon/],
  SVC_PAYOUT_OUTCOME: ['maybe', /expected one of completed, failed, got "maybe"/],
  SVC_MOMO_DELAY: ['2 weeks', /2 weeks/],
  SVC_WEBHOOK_TIMEOUT: ['1x', /1x/],
  SVC_ALLOWED_HOSTS: ['svc,http://app:3000', /is not a host name/],
  SVC_PUBLIC_URL: ['ftp://svc', /must be http:\/\/ or https:\/\//],
  SVC_CONTROL_TOKEN: ['short', /characters/],
  SVC_JSON: ['2', /expected true, false, 1 or 0, got "2"/],
  SVC_EXPORT_ON_EXIT: ['', /is empty/],
  SVC_STOP_TIMEOUT: ['0', /expected a duration from 1ms to 1h, got "0"/],
  SVC_COVERAGE: ['often', /expected true, false, 1 or 0, got "often"/],
  SVC_COVERAGE_OUT: ['', /is empty/],
  SVC_COVERAGE_MIN: ['101', /expected a percentage from 0 to 100, got "101"/],
  SVC_COVERAGE_IGNORE: [' , ', /is empty/],
};

test('a bad value of any variable: start and exec exit 2 naming the variable and its rule, and nothing runs', async () => {
  assert.deepEqual(Object.keys(BAD).sort(), [...new Set(VARIABLES.map((v) => v.env))].sort(), 'a bad value for every variable');
  const cases = Object.entries(BAD).flatMap(([env, [value, rule]]) =>
    (['start', 'exec'] as const).filter((c) => env in Object.fromEntries(Object.values(c === 'start' ? START : EXEC).map((s: FlagSpec) => [s.env, 1]))).map((command) => ({ env, value, rule, command })),
  );
  assert.equal(cases.length, 2 * Object.keys(BAD).length - 7, 'every variable through start and exec (SVC_JSON is start alone, SVC_EXPORT_ON_EXIT, SVC_STOP_TIMEOUT and the four SVC_COVERAGE* exec alone)');
  const dir = tempDir('svc-env-bad-');
  // Four at a time: each is a process of its own.
  for (let i = 0; i < cases.length; i += 4) {
    await Promise.all(
      cases.slice(i, i + 4).map(async ({ env, value, rule, command }) => {
        // A flag wins over its variable: the variable under test has no flag beside it.
        const flags = [...(env === 'SVC_PORT' ? [] : ['--port', '0']), ...(env === 'SVC_DATA_DIR' ? [] : ['--data-dir', join(dir, `${env}-start`)])];
        const args = command === 'start' ? ['emulator', 'start', ...flags] : ['emulator', 'exec', '--', process.execPath, '-e', 'console.log("the command ran")'];
        const r = await runBinary(args, { env: { [env]: value }, cwd: dir });
        assert.equal(r.code, 2, `${command} with ${env}=${value}: ${r.stderr}`);
        assert.match(r.stderr, new RegExp(`^error: ${env}: `, 'm'), `${command} ${env}`);
        assert.match(r.stderr, rule, `${command} ${env}`);
        assert.doesNotMatch(r.stdout, /the command ran|base_url/, `${command} ${env}: nothing ran`);
        assert.equal(existsSync(join(dir, `${env}-start`)), false, `${command} ${env}: no data dir made`);
      }),
    );
  }
});

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
    server.once('error', fail);
  });
}

/** A fixtures file whose first key has another name, so the keys show which file seeded the world. */
function renamedFixtures(dir: string): string {
  const fixtures = JSON.parse(readFileSync(packageFile('fixtures/default.json'), 'utf8'));
  fixtures.merchants[0].keys[0].name = 'env-test';
  const file = join(dir, 'fixtures.json');
  writeFileSync(file, JSON.stringify(fixtures));
  return file;
}

/** Every variable both commands take, with a valid value that differs from the default where a check can see it. */
function validEnv(dir: string, port: number): Record<string, string> {
  const faults = join(dir, 'faults.json');
  writeFileSync(faults, JSON.stringify({ faults: [{ route: 'GET /v1/api/payments/summary', kind: 'status', status: 503 }] }));
  return {
    SVC_PORT: String(port),
    SVC_HOST: '127.0.0.1',
    SVC_FIXTURES: renamedFixtures(dir),
    SVC_FAULTS: faults,
    SVC_CLOCK: 'manual',
    SVC_RATE_LIMIT: '3/1m',
    SVC_LATENCY: '0',
    SVC_QUIET: 'true',
    SVC_FSYNC: '1',
    SVC_REQUEST_LOG: '5',
    SVC_RETAIN_DAYS: '3',
    SVC_PAYOUT_DELAY: '7s',
    SVC_PAYOUT_OUTCOME: 'failed',
    SVC_MOMO_DELAY: '9s',
    SVC_WEBHOOK_TIMEOUT: '4s',
    SVC_ALLOWED_HOSTS: 'svc,app,',
    SVC_PUBLIC_URL: `http://svc:${port}`,
    SVC_CONTROL_TOKEN: TOKEN,
  };
}

// What the command under exec reports: the emulator's settings as its control API and /v1 show them.
const PROBE = `
const base = process.env.SVC_BASE_URL, key = process.env.SVC_API_KEY;
const get = async (path, headers = {}) => { const r = await fetch(base + path, { headers }); return { status: r.status, body: await r.json() }; };
(async () => {
  const out = { base, dataDir: process.env.SVC_DATA_DIR };
  out.clock = (await get('/_emulator/clock')).body.data.mode;
  out.keys = (await get('/_emulator/keys')).body.data.keys.map((k) => k.name);
  out.faults = (await get('/_emulator/faults')).body.data.faults.map((f) => f.route);
  out.provider = (await get('/_emulator/payouts/provider')).body.data;
  const auth = { authorization: 'Bearer ' + key };
  out.statuses = [];
  for (let i = 0; i < 6; i++) {
    const page = await get('/v1/api/payments?limit=10', auth);
    out.statuses.push(page.status);
    if (i === 0) out.payments = page.body.data.payments.map((p) => p.status);
  }
  out.logged = (await get('/_emulator/requests?limit=100')).body.data.requests.map((e) => e.method + ' ' + e.path + ' ' + e.status);
  console.log(JSON.stringify(out));
})().catch((err) => { console.error(err); process.exit(1); });
`;

// A world with one completed payment in it, for SVC_IMPORT to bring back.
const SEED = `
const post = (path, body, key) => fetch(process.env.SVC_BASE_URL + path, { method: 'POST', headers: { authorization: 'Bearer ' + process.env.SVC_API_KEY, 'content-type': 'application/json', 'x-idempotency-key': key }, body: JSON.stringify(body) }).then((r) => r.json());
(async () => {
  const link = await post('/v1/api/payment-links', { title: 'imported', amount: 100 }, 'seed-link');
  await post('/v1/api/payment-links/' + link.data.id + '/simulate', { outcome: 'completed', method: 'card' }, 'seed-pay');
})();
`;

test('every variable through exec: the command sees the emulator they describe, and exports where SVC_EXPORT_ON_EXIT says', async () => {
  const dir = tempDir('svc-env-exec-');
  const port = await freePort();
  const env = validEnv(dir, port);
  const seeded = join(dir, 'seeded');
  const seed = await runBinary(['emulator', 'exec', '--fixtures', env.SVC_FIXTURES!, '--export-on-exit', seeded, '--', process.execPath, '-e', SEED], { cwd: dir });
  assert.equal(seed.code, 0, seed.stderr);
  const world = join(dir, 'world');
  const coverageOut = join(dir, 'coverage');
  Object.assign(env, { SVC_DATA_DIR: join(dir, 'data'), SVC_IMPORT: seeded, SVC_EXPORT_ON_EXIT: world, SVC_COVERAGE: '1', SVC_COVERAGE_OUT: coverageOut, SVC_COVERAGE_MIN: '0.5', SVC_COVERAGE_IGNORE: 'payroll' });
  const r = await runBinary(['emulator', 'exec', '--', process.execPath, '-e', PROBE], { env, cwd: dir, timeoutMs: 60_000 });
  assert.equal(r.code, 0, r.stderr);
  const seen = JSON.parse(r.stdout.trim().split('\n').pop()!);
  // The command reaches it through loopback on SVC_PORT, whatever SVC_PUBLIC_URL says.
  assert.equal(seen.base, `http://127.0.0.1:${port}`);
  assert.equal(seen.dataDir, join(dir, 'data'));
  assert.equal(seen.clock, 'manual');
  assert.ok(seen.keys.includes('env-test'), `SVC_FIXTURES seeded it: ${seen.keys}`);
  assert.deepEqual(seen.faults, ['GET /v1/api/payments/summary']);
  assert.deepEqual({ resolve_ms: seen.provider.resolve_ms, default_outcome: seen.provider.default_outcome }, { resolve_ms: 7000, default_outcome: 'failed' });
  assert.deepEqual(seen.payments, ['completed'], 'SVC_IMPORT brought the seeded world back');
  assert.deepEqual(seen.statuses, [200, 200, 200, 429, 429, 429], 'SVC_RATE_LIMIT=3/1m');
  assert.deepEqual(seen.logged, Array.from({ length: 5 }, (_, i) => `GET /v1/api/payments?limit=10 ${i < 3 ? 429 : 200}`), 'SVC_REQUEST_LOG=5: the newest five of six');
  assert.ok(existsSync(join(world, 'world.json')), 'SVC_EXPORT_ON_EXIT wrote the world');
  // The SVC_COVERAGE* variables: the count of this run, where SVC_COVERAGE_OUT says, payroll left out.
  const coverage = JSON.parse(readFileSync(join(coverageOut, 'coverage.json'), 'utf8'));
  const count = (name: string) => coverage.items.find((i: { name: string }) => i.name === name).count;
  assert.deepEqual([count('GET /v1/api/payments 200'), count('GET /v1/api/payments 429 RATE_LIMITED')], [3, 3]);
  assert.ok(coverage.items.filter((i: { ignored: boolean }) => i.ignored).every((i: { name: string }) => /payroll/i.test(i.name)) && coverage.ignored > 0, 'SVC_COVERAGE_IGNORE=payroll');
  assert.ok(coverage.percent < 5 && coverage.percent >= 0.5, `SVC_COVERAGE_MIN=0.5 passed at ${coverage.percent}%`);
  assert.doesNotMatch(r.stdout + r.stderr, new RegExp(TOKEN), 'the token is never printed');
});

test('every variable through start: the ready line says each came from the environment, and the emulator does what they say', async () => {
  const dir = tempDir('svc-env-start-');
  const port = await freePort();
  // A world to import, written the way SVC_IMPORT's help says.
  const world = join(dir, 'world');
  const exported = await runBinary(['emulator', 'exec', '--export-on-exit', world, '--', process.execPath, '-e', '0'], { cwd: dir });
  assert.equal(exported.code, 0, exported.stderr);
  const env = { ...validEnv(dir, port), SVC_DATA_DIR: join(dir, 'data'), SVC_IMPORT: world, SVC_JSON: 'true' };
  const run = startCli(['emulator', 'start'], { env, cwd: dir });
  try {
    const [line] = await run.waitFor(/^\{.*\}$/m, 30_000);
    const ready = JSON.parse(line);
    const expected = Object.fromEntries(Object.keys(START).map((prop) => [prop.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), 'env']));
    assert.deepEqual(ready.sources, expected, 'every option from its variable');
    assert.equal(ready.base_url, `http://svc:${port}`);
    assert.equal(ready.data_dir, join(dir, 'data'));
    assert.equal(ready.control_token, null, 'a given token is not printed');
    const local = `http://127.0.0.1:${port}`;
    const clock = await rawRequest(local, 'GET', '/_emulator/clock');
    assert.equal(clock.json.data.mode, 'manual');
    // SVC_ALLOWED_HOSTS: the name app is answered (a trailing comma is no name, not an error).
    const named = await rawRequest(local, 'GET', '/_emulator/health', { headers: { host: `app:${port}` } });
    assert.equal(named.status, 200, named.text);
    const faults = await rawRequest(local, 'GET', '/_emulator/faults');
    assert.deepEqual(faults.json.data.faults.map((f: { route: string }) => f.route), ['GET /v1/api/payments/summary']);
    assert.doesNotMatch(run.stdout() + run.stderr(), new RegExp(TOKEN));
  } finally {
    assert.equal(await run.interrupt(), 0);
  }
});

test('a flag wins over its variable, a variable over the default; the banner names the variables it used, never their values', async () => {
  const dir = tempDir('svc-env-order-');
  const run = startCli(['emulator', 'start', '--clock', 'system', '--data-dir', join(dir, 'data')], {
    env: { SVC_CLOCK: 'manual', SVC_PORT: '0', SVC_RATE_LIMIT: 'off', SVC_CONTROL_TOKEN: TOKEN },
    cwd: dir,
  });
  try {
    await run.waitFor(/Stop: Ctrl-C/);
    const out = run.stdout();
    assert.match(out, /ready \(clock: system, rate limit: off\)/, 'the flag beat SVC_CLOCK; SVC_RATE_LIMIT beat the default');
    assert.match(out, /From env\s+SVC_PORT, SVC_RATE_LIMIT, SVC_CONTROL_TOKEN \(a flag wins over its variable\)/);
    assert.doesNotMatch(out, /SVC_CLOCK/);
    assert.doesNotMatch(out + run.stderr(), new RegExp(TOKEN));
  } finally {
    assert.equal(await run.interrupt(), 0);
  }
});
