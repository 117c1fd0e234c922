import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { cliHome, familySmokeTest, runCli } from './cli.js';

// The config file (0700 dir, 0600 file) and its commands; keys masked; login checks the key
// with a read call before saving it. In-process, but for one smoke test each of config and login.

let emu: TestEmulator;

before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

test('config set/get/list/use: file created 0600 in $XDG_CONFIG_HOME/svc, keys masked everywhere', async () => {
  const home = cliHome();
  assert.equal((await home.run(['config', 'set', 'api_key', KEYS.acmeLive, '--profile', 'live'], familySmokeTest)).code, 0);
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
  const created = await home.run(['login', '--api-key', KEYS.acmeTest, '--base-url', emu.baseUrl, '--profile', 'dev', '--json'], familySmokeTest);
  assert.equal(created.code, 0, created.stderr);
  assert.deepEqual(created.json(), {
    profile: 'dev',
    environment: 'test',
    api_key: 'svc_test_…0001',
    base_url: emu.baseUrl,
    config_file: join(home.configHome, 'svc', 'config.json'),
  });
  assert.match(created.stderr, new RegExp(`warning: ${emu.baseUrl.replace(/[.]/g, '\\.')} is an svc emulator; its port is temporary`), 'login against an emulator warns');
  assert.equal((await home.run(['payments', 'list', '--profile', 'dev', '--json'])).code, 0);
  // Other commands refuse a profile that does not exist rather than guess.
  assert.equal((await home.run(['payments', 'list', '--profile', 'typo'])).code, 2);

  const noKey = await home.run(['login', '--base-url', emu.baseUrl]);
  assert.equal(noKey.code, 2);
  assert.match(noKey.stderr, /missing --api-key/);
});

test('profiles named __proto__ or constructor are profiles like any other: saved, read back, and unknown until saved', async () => {
  const home = cliHome();
  const path = join(home.configHome, 'svc', 'config.json');
  // `constructor` is no profile until one is saved (before: Object's constructor was found, and its base URL was looked for).
  const unknown = await home.run(['payments', 'list', '--profile', 'constructor']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /no profile "constructor" in the config file/);
  for (const name of ['__proto__', 'constructor']) {
    // Before: `__proto__` set Object.prototype.base_url in the process, said "set", and saved nothing.
    const set = await home.run(['config', 'set', 'base_url', emu.baseUrl, '--profile', name]);
    assert.equal(set.code, 0, set.stderr);
    assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')).profiles[name], { base_url: emu.baseUrl }, name);
    assert.equal((await home.run(['config', 'get', 'base_url', '--profile', name])).stdout, `${emu.baseUrl}\n`);
    assert.equal(({} as Record<string, unknown>).base_url, undefined, 'no object gained a base_url');
  }
  const listed = await home.run(['payments', 'list', '--profile', '__proto__', '--api-key', KEYS.acmeTest, '--json']);
  assert.equal(listed.code, 0, listed.stderr);
});
