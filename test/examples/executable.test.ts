import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { KEYS, request, tempDir } from '../helpers/emulator.js';
import { closed, onLines, svcBin, type ReadyLine } from '../helpers/svc-process.js';
import { merchantReceiver, until } from '../cli/webhook-receiver.js';
import { untilExit } from './example-run.js';
import { tmuxPanes } from '../cli/tty.js';

// svc as one file (issue 40, scripts/build-exe.mjs): built once for this file as `npm run
// build:exe` builds it (inside Node.js 24 from the user's cache, fetched there first if need be,
// whatever node runs this test), then run as a
// team without Node would: a copy in a fresh empty folder, an environment holding only what the
// test gives it (`env -i`), and a PATH with no node on it, checked by `command -v node` failing
// in the shell that starts it. Python's folder goes on that PATH for the example suite.

const root = packageFile('');

/** Why the executable cannot be built here, or undefined when it can. */
function cannotBuild(): string | undefined {
  if (process.platform === 'win32') return 'these proofs run the executable under /bin/sh';
  if (!existsSync(packageFile('node_modules/postject/package.json'))) return 'postject (a devDependency) is not installed: npm install';
  return undefined;
}
const skip = cannotBuild();
const python = ['/usr/bin/python3', '/usr/local/bin/python3'].find((f) => existsSync(f));
const hasTmux = spawnSync('tmux', ['-V']).status === 0;

let exe = '';
let home = '';
/** A PATH that holds no node: python3 only (linked), for the example suite. */
let nodelessPath = '';

before(async () => {
  if (skip) return;
  const build = spawn(process.execPath, [packageFile('scripts/build-exe.mjs')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  build.stdout!.on('data', (c) => (output += c));
  build.stderr!.on('data', (c) => (output += c));
  assert.equal(await closed(build), 0, output);
  assert.doesNotMatch(output, /warning/i, 'the build prints no warnings (postject\'s about node\'s note sections are dropped)');
  const built = readdirSync(packageFile('dist/exe')).filter((f) => f.startsWith('svc-') && !f.endsWith('.txt'));
  assert.equal(built.length, 1, `dist/exe holds one executable: ${built}`);
  // Moved: a copy in a fresh, empty folder is what every test here runs.
  const folder = tempDir('svc-exe-');
  exe = join(folder, 'svc');
  copyFileSync(packageFile(`dist/exe/${built[0]}`), exe);
  home = tempDir('svc-exe-home-');
  nodelessPath = tempDir('svc-exe-path-');
  if (python) symlinkSync(python, join(nodelessPath, 'python3'));
});

const children: ChildProcess[] = [];
after(() => children.forEach((c) => c.exitCode === null && c.signalCode === null && c.kill('SIGKILL')));

/**
 * The only variables a run gets (`env -i`), plus `extra`, and the test runner's mark: with it,
 * a run this process leaves behind when it is killed is found and ended (scripts/run-tests.mjs).
 */
const bareEnv = (extra: Record<string, string> = {}) => ({
  PATH: nodelessPath,
  HOME: home,
  NO_COLOR: '1',
  ...(process.env.SVC_TEST_PROCESS ? { SVC_TEST_PROCESS: process.env.SVC_TEST_PROCESS } : {}),
  ...extra,
});

/** A shell that runs its arguments only after showing it cannot find node (else exit 97). */
const NO_NODE = ['/bin/sh', '-c', 'if command -v node >/dev/null 2>&1; then echo "node is on the PATH" >&2; exit 97; fi; exec "$@"', 'sh'];

/** Runs `command` (the executable, or node for the package) through NO_NODE in the bare environment. */
function inShell(command: string, args: string[], opts: { cwd?: string; detached?: boolean; env?: Record<string, string> } = {}): ChildProcess {
  const child = spawn(NO_NODE[0], [...NO_NODE.slice(1), command, ...args], { cwd: opts.cwd ?? home, env: bareEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'], detached: opts.detached });
  children.push(child);
  // A command that never reads its input may exit before the input is written: the write's EPIPE
  // is not the test's subject (the exit code and output are), and unhandled it ended the process.
  child.stdin!.on('error', () => {});
  return child;
}

interface Result {
  code: number | NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

async function run(command: string, args: string[], opts: { cwd?: string; input?: string } = {}): Promise<Result> {
  const child = inShell(command, args, opts);
  child.stdin!.end(opts.input ?? '');
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  return { code: await closed(child), stdout, stderr };
}

const svc = (args: string[], opts: { cwd?: string; input?: string } = {}) => run(exe, args, opts);

/** `svc emulator start --json` by the executable: its ready line, and the process. */
async function startByExe(args: string[], cwd = home): Promise<{ ready: ReadyLine; child: ChildProcess; stderr: () => string }> {
  const child = inShell(exe, ['emulator', 'start', '--json', '--port', '0', '--rate-limit', 'off', ...args], { cwd });
  child.stdin!.end();
  let stderr = '';
  child.stderr!.on('data', (c) => (stderr += c));
  const ready = await new Promise<ReadyLine>((ok, fail) => {
    onLines(child, (line) => {
      try {
        ok(JSON.parse(line) as ReadyLine);
      } catch {
        fail(new Error(`not a ready line: ${line}`));
      }
    });
    child.once('exit', (code) => fail(new Error(`the emulator exited (${code}) before its ready line: ${stderr}`)));
  });
  return { ready, child, stderr: () => stderr };
}

async function stop(child: ChildProcess): Promise<number | NodeJS.Signals | null> {
  const done = closed(child);
  child.kill('SIGTERM');
  return done;
}

test('built, it runs where node cannot be found', { skip }, async () => {
  const shown = await svc(['--version']);
  assert.deepEqual(shown, { code: 0, stdout: `${JSON.parse(readFileSync(packageFile('package.json'), 'utf8')).version}\n`, stderr: '' });
  // The shell's own check, seen failing: the same shell with node's folder on the PATH refuses.
  const withNode = spawn('/bin/sh', ['-c', 'command -v node >/dev/null 2>&1 && exit 97; exit 0'], { env: { PATH: `${nodelessPath}:${join(process.execPath, '..')}` } });
  assert.equal(await closed(withNode), 97, 'the check finds node when it is there');
  const help = await svc(['--help']);
  assert.equal(help.code, 0, help.stderr);
  assert.match(help.stdout, /^Usage: svc /);
  assert.equal(help.stderr, '', 'no experimental warning');
});

test('a moved executable, copied to a fresh empty folder, finds its assets: fixtures, dashboard, checkout, both OpenAPI documents, licences', { skip }, async () => {
  assert.deepEqual(readdirSync(join(exe, '..')), ['svc'], 'nothing beside it');
  const cwd = tempDir('svc-exe-cwd-');
  const emu = await startByExe([], cwd);
  try {
    // The default fixtures (an asset): the ready line lists their keys, and they work.
    assert.deepEqual(emu.ready.keys.map((k) => k.name).slice(0, 2), ['acme-test', 'acme-live']);
    assert.equal(emu.ready.data_dir, join(cwd, '.svc'), '.svc in the folder it runs in');
    const base = emu.ready.base_url;
    assert.equal((await request(base, 'GET', '/v1/api/payments')).status, 200);
    for (const path of ['/openapi.json', '/_emulator/openapi.json']) {
      const doc = await request(base, 'GET', path, { key: null });
      assert.equal(doc.status, 200, path);
      assert.equal(doc.json.openapi, '3.1.0', path);
    }
    const dashboard = await request(base, 'GET', '/dashboard', { key: null });
    assert.equal(dashboard.status, 200);
    assert.match(dashboard.text, /<style>/);
    // The bundle is ASCII (scripts/build-exe.mjs escapes what its tagged templates keep): the pages still say '·'.
    assert.match(dashboard.text, /<footer>svc emulator \u00b7 local dashboard/);
    const link = (await request(base, 'POST', '/v1/api/payment-links', { body: { title: 'moved', amount: 500 }, idempotencyKey: 'exe-moved' })).json.data;
    const checkout = await request(base, 'GET', `/checkout/${link.link_code}`, { key: null });
    assert.equal(checkout.status, 200);
    assert.match(checkout.text, /moved/);
    assert.match(checkout.text, /<footer>svc emulator \u00b7 hosted checkout<\/footer>/);
    assert.equal(await stop(emu.child), 0, emu.stderr());
  } finally {
    emu.child.kill('SIGKILL');
  }
  // The licences of node and of every bundled package travel inside the file (an asset).
  const bytes = readFileSync(exe);
  // The node inside is the line we ship, whatever node ran the build: its licence names it.
  for (const text of ['Node.js v24.', 'Packages bundled into svc-', 'express@', 'zod@']) assert.ok(bytes.includes(text), text);
});

test('the same answers: twenty command lines, byte for byte, from the executable and from node bin/svc.js', { skip }, async () => {
  const cwd = tempDir('svc-exe-same-');
  const emu = await startByExe(['--data-dir', join(cwd, 'data')]);
  try {
    const base = emu.ready.base_url;
    const target = ['--base-url', base, '--api-key', KEYS.acmeTest];
    const id = (await request(base, 'POST', '/v1/api/payment-links', { body: { title: 'same', amount: 1200 }, idempotencyKey: 'exe-same' })).json.data.id as string;
    const badFixtures = join(cwd, 'bad.json');
    writeFileSync(badFixtures, '{"merchants": 3}');
    const body = join(cwd, 'body.json');
    writeFileSync(body, '{"id":"evt_1"}');
    const lines: string[][] = [
      ['--version'],
      ['-V'],
      ['--help'],
      ['help', 'links'],
      ['links', '--help'],
      ['links', 'get', '--help'],
      ['emulator', 'start', '--help'],
      ['emulator', 'exec', '--help'],
      ['webhooks', 'listen', '--help'],
      ['nosuch'],
      ['--bogus'],
      ['links', 'get'],
      ['links', 'create', '--title', 'x', '--amount', 'abc', ...target],
      ['emulator', 'start', '--port', '99999'],
      ['links', 'get', id, '--json', ...target],
      ['links', 'get', id, ...target],
      ['payments', 'list', '--json', ...target],
      ['payments', 'get', 'pay_missing', '--json', '--trace-id', 'trc_exe_same', ...target],
      ['emulator', 'fixtures', 'validate', badFixtures, '--json'],
      ['webhooks', 'verify', '--secret', 'whsec_x', '--header', 't=1,v1=00', '--body-file', body],
    ];
    assert.equal(lines.length, 20);
    const codes = new Set<Result['code']>();
    for (const line of lines) {
      const fromExe = await svc(line, { cwd });
      const fromPackage = await run(process.execPath, [svcBin, ...line], { cwd });
      assert.deepEqual(fromExe, fromPackage, `svc ${line.join(' ')}`);
      codes.add(fromExe.code);
    }
    assert.deepEqual([...codes].sort(), [0, 1, 2], 'success, failure and usage errors among them');
  } finally {
    await stop(emu.child);
  }
});

test('emulator by executable: the Python example suite passes under its `emulator exec`', { skip: skip ?? (python ? undefined : 'no python3 (npm test installs it: scripts/ensure-test-tools.mjs)') }, async () => {
  const child = inShell(exe, ['emulator', 'exec', '--clock', 'manual', '--', 'python3', '-m', 'unittest', 'discover', '-v', '-s', 'examples/python'], {
    cwd: root,
    detached: true,
    env: { PYTHONDONTWRITEBYTECODE: '1' },
  });
  child.stdin!.end();
  const run = await untilExit(child, 'the Python suite under the executable');
  assert.equal(run.code, 0, run.output);
  assert.match(run.output, /Ran 9 tests/);
  assert.match(run.output, /^OK$/m);
});

test('emulator by executable: the CLI round trip with the same executable (links create, simulate, payments get, webhooks listen --forward, verify)', { skip }, async () => {
  const emu = await startByExe(['--data-dir', join(tempDir('svc-exe-trip-'), 'data')]);
  let secret: string | undefined;
  const app = await merchantReceiver(() => secret);
  const target = ['--base-url', emu.ready.base_url, '--api-key', KEYS.acmeTest];
  const listen = inShell(exe, ['webhooks', 'listen', '--forward', app.url, ...target]);
  listen.stdin!.end();
  let listenErr = '';
  listen.stderr!.on('data', (c) => (listenErr += c));
  try {
    await until(() => /connected; waiting for events/.test(listenErr), 'listen to connect', 30_000);
    secret = /Listen secret: (\S+)/.exec(listenErr)![1];
    const link = await svc(['links', 'create', '--title', 'round trip', '--amount', '1500', '--json', ...target]);
    assert.equal(link.code, 0, link.stderr);
    const linkId = JSON.parse(link.stdout).id as string;
    const paid = await svc(['links', 'simulate', linkId, '--json', ...target]);
    assert.equal(paid.code, 0, paid.stderr);
    const paymentId = JSON.parse(paid.stdout).id as string;
    const payment = await svc(['payments', 'get', paymentId, '--json', ...target]);
    assert.equal(payment.code, 0, payment.stderr);
    assert.equal(JSON.parse(payment.stdout).status, 'completed');
    await until(() => app.received.length === 1, 'the forwarded webhook', 30_000);
    const [got] = app.received;
    assert.equal(got.event, 'payment.completed');
    assert.equal(got.verified, true, 'the receiver checked the signature with node:crypto');
    const verified = await svc(['webhooks', 'verify', '--secret', secret, '--header', got.signature, '--json'], { input: got.body });
    assert.equal(verified.code, 0, verified.stdout + verified.stderr);
    const altered = await svc(['webhooks', 'verify', '--secret', secret, '--header', got.signature, '--json'], { input: `${got.body} ` });
    assert.equal(altered.code, 1, altered.stdout);
  } finally {
    listen.kill('SIGINT');
    assert.equal(await closed(listen), 0, listenErr);
    await app.close();
    assert.equal(await stop(emu.child), 0, `SIGTERM stops the emulator cleanly: ${emu.stderr()}`);
  }
});

test('OTP and PIN prompts on a terminal, by the executable', { skip: skip ?? (hasTmux ? undefined : 'no tmux (npm test installs it: scripts/ensure-test-tools.mjs)') }, async () => {
  const panes = tmuxPanes(`svc-exe-test-${process.pid}`);
  const emu = await startByExe(['--data-dir', join(tempDir('svc-exe-tty-'), 'data')]);
  const base = emu.ready.base_url;
  // The pane's shell gets the bare environment too, and the terminal's type.
  const onTerminal = (args: string[]) => panes.open(['env', '-i', 'TERM=screen', ...Object.entries(bareEnv()).map(([k, v]) => `${k}=${v}`), ...NO_NODE, exe, ...args, '--base-url', base, '--api-key', KEYS.acmeTest]);
  try {
    const phone = '+231770000205';
    const otp = onTerminal(['sub-merchants', 'create', '--name', 'Kiosk 5', '--phone', phone]);
    await until(() => /Which code was sent to \+231\*+0205\?/.test(otp.screen()), 'the OTP question', 20_000);
    const inbox = await request(base, 'GET', `/_emulator/otp/${encodeURIComponent(phone)}`, { key: null });
    otp.type(inbox.json.data.messages[0].code);
    await until(() => /EXIT=\d+/.test(otp.screen()), 'sub-merchants create to finish', 20_000);
    assert.match(otp.screen(), /\[TEST\] Sub-merchant created[\s\S]*EXIT=0/, otp.screen());

    const run = await request(base, 'POST', '/v1/api/payroll/runs', {
      headers: { 'Idempotency-Key': 'exe-tty' },
      body: { currency: 'USD', payments: [{ external_ref: 'T-1', payee_phone: '+231770000201', amount_cents: 1500 }] },
    });
    assert.equal(run.status, 201, run.text);
    const pin = onTerminal(['payroll', 'approve', run.json.data.run.id]);
    await until(() => /What is the owner's PIN/.test(pin.screen()), 'the PIN question', 20_000);
    pin.type('1357');
    await until(() => /EXIT=\d+/.test(pin.screen()), 'payroll approve to finish', 20_000);
    assert.match(pin.screen(), /\*\*\*\*[\s\S]*\[TEST\] Payroll run completed[\s\S]*EXIT=0/, pin.screen());
    assert.doesNotMatch(pin.screen(), /1357/);
  } finally {
    panes.close();
    await stop(emu.child);
  }
});
