import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { cliHome, type CliResult } from './cli.js';

// `svc login --api-key -` reads the key from stdin, so it stays out of shell history and the
// process list. What was read is never printed, whatever happens to it.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const savedKey = (configHome: string, profile: string) => {
  try {
    return JSON.parse(readFileSync(join(configHome, 'svc', 'config.json'), 'utf8')).profiles[profile]?.api_key;
  } catch {
    return undefined; // no config file: nothing saved
  }
};

const neverEchoes = (r: CliResult, secret: string) => assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), `the key is never printed\n${r.stdout}\n${r.stderr}`);

test('the key piped on stdin (a real pipe into the binary): its trailing newline goes, it is checked and saved, and never printed', async () => {
  const home = cliHome();
  // The binary: a real process reading a real stdin pipe to its end.
  const r = await home.run(['login', '--api-key', '-', '--base-url', emu.baseUrl, '--profile', 'piped', '--json'], { input: `${KEYS.acmeLive}\n`, binary: true });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json().api_key, 'svc_live_…0001');
  assert.equal(r.json().environment, 'live');
  assert.equal(savedKey(home.configHome, 'piped'), KEYS.acmeLive);
  neverEchoes(r, KEYS.acmeLive);

  // CRLF too (a file saved on Windows), in-process.
  const crlf = await home.run(['login', '--api-key', '-', '--base-url', emu.baseUrl, '--profile', 'crlf'], { input: `${KEYS.acmeTest}\r\n` });
  assert.equal(crlf.code, 0, crlf.stderr);
  assert.equal(savedKey(home.configHome, 'crlf'), KEYS.acmeTest);
  neverEchoes(crlf, KEYS.acmeTest);
});

test('an empty stdin is exit 2 naming the flag; more than one key is refused too; nothing is saved', async () => {
  const home = cliHome();
  for (const input of ['', '\n']) {
    const r = await home.run(['login', '--api-key', '-', '--base-url', emu.baseUrl], { input });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /--api-key -: stdin was empty/);
  }
  const two = await home.run(['login', '--api-key', '-', '--base-url', emu.baseUrl], { input: `${KEYS.acmeTest}\n${KEYS.acmeLive}\n` });
  assert.equal(two.code, 2, two.stderr);
  assert.match(two.stderr, /--api-key -: stdin holds more than one key/);
  neverEchoes(two, KEYS.acmeTest);
  neverEchoes(two, KEYS.acmeLive);
  assert.equal(savedKey(home.configHome, 'default'), undefined, 'nothing saved');
});

test('a key the service refuses, from stdin, fails like one from the flag and is not printed', async () => {
  const home = cliHome();
  const r = await home.run(['login', '--api-key', '-', '--base-url', emu.baseUrl], { input: `${KEYS.acmeRevoked}\n` });
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, /UNAUTHORIZED/);
  neverEchoes(r, KEYS.acmeRevoked);
  assert.equal(savedKey(home.configHome, 'default'), undefined);
});
