import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { cliHome } from './cli.js';

// Where commands send requests: flag > env > profile > an emulator discovered in ./.svc, each
// value on its own (`svc config show` says which source won).

let emu: TestEmulator;
/** An emulator running from `project`/.svc, as `svc emulator start` in that folder would. */
let discovered: TestEmulator;
const project = tempDir('svc-cli-project-');
const cli = cliHome();

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
  // A profile named on the command line is a flag: it beats the environment, for both values.
  assert.equal((await home.run(['config', 'set', 'base_url', 'http://live.invalid:1', '--profile', 'live'])).code, 0);
  assert.equal((await home.run(['config', 'set', 'api_key', KEYS.acmeLive, '--profile', 'live'])).code, 0);
  const named = await showIn(['--profile', 'live'], env);
  assert.deepEqual([named.base_url, named.base_url_source, named.api_key_source, named.environment], ['http://live.invalid:1', 'profile', 'profile', 'live']);
  // A live key from one source sent to a host from another is said out loud.
  const split = await home.run(['payments', 'list', '--api-key', KEYS.acmeLive], { env: { SVC_BASE_URL: emu.baseUrl } });
  assert.equal(split.code, 0, split.stderr);
  assert.match(split.stderr, new RegExp(`note: the LIVE key from the command line goes to ${emu.baseUrl.replace(/[.]/g, '\\.')} \\(from the environment\\)`));
  assert.match(split.stdout, new RegExp(`^\\[LIVE ${emu.baseUrl.replace(/[.]/g, '\\.')}\\] Payments`));
  // The discovered emulator only fills what nothing else gave, and its key only goes to it.
  const keyOnly = await home.run(['config', 'show', '--json'], { env: { SVC_API_KEY: KEYS.acmeReadOnly }, cwd: project });
  assert.equal(keyOnly.json().base_url_source, 'profile');
});
