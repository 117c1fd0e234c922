import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { cliHome, runCli } from './cli.js';

// Where commands send requests: flag > env > profile > an emulator discovered in ./.svc; the
// config file (0600) and its commands; login checks the key before saving; prompts never
// happen without a terminal.

let emu: TestEmulator;
/** An emulator running from `project`/.svc, as `svc emulator start` in that folder would. */
let discovered: TestEmulator;
const project = tempDir('svc-cli-project-');
const cli = cliHome();
const closedPort = 'http://127.0.0.1:9';

before(async () => {
  emu = await startTestEmulator();
  discovered = await startTestEmulator({ dataDir: join(project, '.svc') });
});
after(async () => {
  await emu.stop();
  await discovered.stop();
});

const show = async (args: string[], env: Record<string, string> = {}, cwd?: string) => {
  const r = await cli.run(['config', 'show', '--json', ...args], { env, cwd });
  assert.equal(r.code, 0, r.stderr);
  return r.json();
};

test('discovery: with nothing set, a command run in the project folder uses its emulator and first all-scope test key', async () => {
  const t = await show([], {}, project);
  assert.deepEqual(t, {
    profile: 'default',
    environment: 'test',
    base_url: discovered.baseUrl,
    base_url_source: 'emulator',
    api_key: 'svc_test_…0001',
    api_key_source: 'emulator',
  });
  const r = await cli.run(['links', 'create', '--title', 'found it', '--json'], { cwd: project });
  assert.equal(r.code, 0, r.stderr);
  assert.equal((await discovered.request('GET', `/v1/api/payment-links/${r.json().id}`)).status, 200);
});

test('discovery ignores an emulator.json whose process is gone; with nothing else set the command is a usage error', async () => {
  const stale = tempDir('svc-cli-stale-');
  mkdirSync(join(stale, '.svc'));
  writeFileSync(join(stale, '.svc', 'emulator.json'), JSON.stringify({ base_url: emu.baseUrl, keys: [], pid: 2 ** 22 + 12345 }));
  const r = await cli.run(['payments', 'list'], { cwd: stale });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /no base URL: pass --base-url, set SVC_BASE_URL/);
});

test('precedence: flag > env > profile > emulator, for the base URL and the key independently', async () => {
  const home = cliHome();
  const set = (field: string, value: string) => home.run(['config', 'set', field, value]);
  assert.equal((await set('base_url', 'http://profile.invalid:1')).code, 0);
  assert.equal((await set('api_key', KEYS.globexTest)).code, 0);
  const env = { SVC_BASE_URL: 'http://env.invalid:1', SVC_API_KEY: KEYS.acmeReadOnly };
  const showIn = async (args: string[], e: Record<string, string>) => {
    const r = await home.run(['config', 'show', '--json', ...args], { env: e, cwd: project });
    assert.equal(r.code, 0, r.stderr);
    return r.json();
  };
  const all = await showIn(['--base-url', emu.baseUrl, '--api-key', KEYS.acmeLive], env);
  assert.deepEqual([all.base_url, all.base_url_source, all.api_key, all.api_key_source, all.environment], [emu.baseUrl, 'flag', 'svc_live_…0001', 'flag', 'live']);
  const fromEnv = await showIn([], env);
  assert.deepEqual([fromEnv.base_url, fromEnv.base_url_source, fromEnv.api_key_source], ['http://env.invalid:1', 'env', 'env']);
  const fromProfile = await showIn([], {});
  assert.deepEqual([fromProfile.base_url, fromProfile.base_url_source, fromProfile.api_key_source], ['http://profile.invalid:1', 'profile', 'profile']);
  const mixed = await showIn(['--api-key', KEYS.acmeTest], {});
  assert.deepEqual([mixed.base_url_source, mixed.api_key_source], ['profile', 'flag']);
  // The discovered emulator only fills what nothing else gave, and its key only goes to it.
  const keyOnly = await home.run(['config', 'show', '--json'], { env: { SVC_API_KEY: KEYS.acmeReadOnly }, cwd: project });
  assert.equal(keyOnly.json().base_url_source, 'profile');
});

test('config set/get/list/use: file created 0600 in $XDG_CONFIG_HOME/svc, keys masked everywhere', async () => {
  const home = cliHome();
  assert.equal((await home.run(['config', 'set', 'api_key', KEYS.acmeLive, '--profile', 'live'])).code, 0);
  assert.equal((await home.run(['config', 'set', 'base_url', 'https://pay.example.com/', '--profile', 'live'])).code, 0);
  const path = join(home.configHome, 'svc', 'config.json');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(join(home.configHome, 'svc')).mode & 0o777, 0o700);
  const file = JSON.parse(readFileSync(path, 'utf8'));
  assert.deepEqual(file.profiles.live, { api_key: KEYS.acmeLive, base_url: 'https://pay.example.com' });

  const got = await home.run(['config', 'get', 'api_key', '--profile', 'live']);
  assert.equal(got.stdout, 'svc_live_…0001\n');
  assert.equal((await home.run(['config', 'get', 'base_url', '--profile', 'live'])).stdout, 'https://pay.example.com\n');
  const list = await home.run(['config', 'list']);
  assert.match(list.stdout, /live\s+LIVE\s+svc_live_…0001\s+https:\/\/pay\.example\.com/);
  assert.ok(!list.stdout.includes(KEYS.acmeLive) && !list.stderr.includes(KEYS.acmeLive), 'never the full key');
  assert.ok(!(await home.run(['config', 'list', '--json'])).stdout.includes(KEYS.acmeLive));
  assert.equal((await home.run(['config', 'use', 'live'])).code, 0);
  assert.equal((await home.run(['config', 'show', '--json'])).json().profile, 'live');

  const bad = await home.run(['config', 'set', 'api_key', 'sk_nope']);
  assert.equal(bad.code, 2);
  assert.equal((await home.run(['config', 'set', 'colour', 'red'])).code, 2);
  assert.equal((await home.run(['config', 'get', 'base_url', '--profile', 'nobody'])).code, 2);
});

test('HOME/.config is used when XDG_CONFIG_HOME is unset', async () => {
  const home = tempDir('svc-cli-home2-');
  const r = await runCli(['config', 'set', 'base_url', emu.baseUrl], { env: { HOME: home, XDG_CONFIG_HOME: undefined } });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(statSync(join(home, '.config', 'svc', 'config.json')).mode & 0o777, 0o600);
});

test('login validates the key with a read call before saving it', async () => {
  const home = cliHome();
  const revoked = await home.run(['login', '--api-key', KEYS.acmeRevoked, '--base-url', emu.baseUrl]);
  assert.equal(revoked.code, 1);
  assert.match(revoked.stderr, /UNAUTHORIZED/);
  assert.equal((await home.run(['config', 'list', '--json'])).json().profiles.default, undefined, 'nothing saved');

  // --profile names a profile that does not exist yet: login creates it.
  const created = await home.run(['login', '--api-key', KEYS.acmeTest, '--base-url', emu.baseUrl, '--profile', 'dev', '--json']);
  assert.equal(created.code, 0, created.stderr);
  assert.deepEqual(created.json(), {
    profile: 'dev',
    environment: 'test',
    api_key: 'svc_test_…0001',
    base_url: emu.baseUrl,
    config_file: join(home.configHome, 'svc', 'config.json'),
  });
  assert.equal((await home.run(['payments', 'list', '--profile', 'dev', '--json'])).code, 0);
  // Other commands refuse a profile that does not exist rather than guess.
  assert.equal((await home.run(['payments', 'list', '--profile', 'typo'])).code, 2);

  const noKey = await home.run(['login', '--base-url', emu.baseUrl]);
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /missing --api-key/);
});

test('no prompt without a terminal: --no-input, CI=true and a closed stdin all give a usage error naming the flag', async () => {
  const base = ['--base-url', emu.baseUrl, '--api-key', KEYS.acmeTest];
  for (const [args, env] of [
    [['sub-merchants', 'create', '--name', 'X', '--phone', '+231770000203', ...base], {}],
    [['sub-merchants', 'create', '--name', 'X', '--phone', '+231770000203', '--no-input', ...base], {}],
    [['payroll', 'approve', 'prun_x', ...base], { CI: 'true' }],
    [['emulator', 'payees', 'approve', 'payee_x', '--base-url', emu.baseUrl], {}],
  ] as [string[], Record<string, string>][]) {
    const r = await cli.run(args, { env, timeoutMs: 15_000 });
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /missing --(otp|pin)/);
  }
});

test('a key that is neither test nor live is a usage error; a bad base URL too', async () => {
  const r = await cli.run(['payments', 'list', '--api-key', 'sk_live_123', '--base-url', emu.baseUrl]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /does not start with svc_test_ or svc_live_/);
  const u = await cli.run(['payments', 'list', '--api-key', KEYS.acmeTest, '--base-url', 'ftp://x']);
  assert.equal(u.code, 2);
  const unreachable = await cli.run(['payments', 'list', '--api-key', KEYS.acmeTest, '--base-url', closedPort]);
  assert.equal(unreachable.code, 1);
});
