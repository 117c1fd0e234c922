import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCli } from './run-binary.js';
import { tempDir } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';

// What `svc emulator start` tells the person who starts it for other hosts: the banner names
// the names it accepts, says a control token was made up and where it is (never the token, nor a
// login link holding it: issue 46), says how to add a name when there is none, and warns when `*`
// turns DNS-rebinding protection off.
// The binary, because start owns its process (signals, exit). Traffic goes to loopback only.

test('off loopback with no names: the banner says how to add one and where the made-up token is, and prints the token nowhere', async () => {
  const dataDir = tempDir();
  const run = startCli(['emulator', 'start', '--host', '0.0.0.0', '--port', '0', '--data-dir', dataDir]);
  try {
    await run.waitFor(/Stop: Ctrl-C/);
    const out = run.stdout();
    assert.match(out, /add --allow-host NAME \(or SVC_ALLOWED_HOSTS\)/);
    const discovery = JSON.parse(readFileSync(join(dataDir, 'emulator.json'), 'utf8'));
    const token: string = discovery.control_token;
    assert.match(token, /^svc_ctl_[A-Za-z0-9_-]{32}$/);
    assert.match(out, new RegExp(`Control\\s+svc_ctl_…${token.slice(-4).replace(/[-]/g, '\\-')} .*control_token in ${join(dataDir, 'emulator.json').replace(/[.]/g, '\\.')}`));
    assert.match(out, /Dashboard\s+http:\/\/\S+\/dashboard \(other hosts: add \?token=<control token> once\)/);
    assert.doesNotMatch(out, /0\.0\.0\.0/, 'no URL names 0.0.0.0');
    // The login link works (from loopback, where the emulator's local URL is), and its request line shows no token.
    const login = await rawRequest(discovery.local_url, 'GET', `/dashboard?token=${token}`);
    assert.equal(login.status, 303);
    await run.waitFor(/GET \/dashboard\?token=\S+ 303/);
    assert.match(run.stderr(), /GET \/dashboard\?token=\[redacted\] 303/);
    assert.ok(!(run.stdout() + run.stderr()).includes(token), 'the token is printed nowhere');
  } finally {
    assert.equal(await run.interrupt(), 0);
  }
});

test('--allow-host * is spelled out and warned about; listed names are shown', async () => {
  const star = startCli(['emulator', 'start', '--port', '0', '--data-dir', tempDir(), '--allow-host', '*']);
  try {
    await star.waitFor(/Stop: Ctrl-C/);
    assert.match(star.stdout(), /warning: --allow-host \* accepts any Host name: DNS-rebinding protection is off/);
  } finally {
    await star.interrupt();
  }
  const named = startCli(['emulator', 'start', '--port', '0', '--data-dir', tempDir(), '--allow-host', 'svc', '--allow-host', '.corp.test'], { env: { SVC_ALLOWED_HOSTS: 'ignored.when.flags.given' } });
  try {
    await named.waitFor(/Stop: Ctrl-C/);
    assert.match(named.stdout(), /Names\s+svc, \.corp\.test/);
    assert.doesNotMatch(named.stdout(), /warning/);
  } finally {
    await named.interrupt();
  }
});

test('SVC_ALLOWED_HOSTS, SVC_PUBLIC_URL and SVC_CONTROL_TOKEN configure it when the flags are absent', async () => {
  const token = 'tok_from_the_environment_0123456789';
  const run = startCli(['emulator', 'start', '--port', '0', '--data-dir', tempDir(), '--json'], {
    env: { SVC_ALLOWED_HOSTS: 'svc,app', SVC_PUBLIC_URL: 'http://svc:4242', SVC_CONTROL_TOKEN: token },
  });
  try {
    const [line] = await run.waitFor(/^\{.*\}$/m);
    const ready = JSON.parse(line);
    assert.equal(ready.base_url, 'http://svc:4242');
    assert.equal(ready.public_url, 'http://svc:4242');
    assert.equal(ready.control_token, null, 'a given token is not printed');
    assert.doesNotMatch(run.stdout() + run.stderr(), new RegExp(token), 'nor logged');
    const port = new URL(JSON.parse(readFileSync(join(ready.data_dir, 'emulator.json'), 'utf8')).local_url).port;
    const res = await rawRequest(`http://127.0.0.1:${port}`, 'GET', '/_emulator/health', { headers: { host: `app:${port}` } });
    assert.equal(res.status, 200, res.text);
  } finally {
    await run.interrupt();
  }
});

// SVC_ALLOWED_HOSTS is read by contract/network.ts's parseAllowedHostList, the parser --allow-host
// uses too: a blank item (a list built in a shell, `svc,`) is skipped, not refused as an empty name.
test('SVC_ALLOWED_HOSTS="svc," starts the emulator answering to svc', async () => {
  const run = startCli(['emulator', 'start', '--port', '0', '--data-dir', tempDir(), '--json'], { env: { SVC_ALLOWED_HOSTS: 'svc,' } });
  try {
    const [line] = await run.waitFor(/^\{.*\}$/m);
    const port = new URL(JSON.parse(readFileSync(join(JSON.parse(line).data_dir, 'emulator.json'), 'utf8')).local_url).port;
    const named = await rawRequest(`http://127.0.0.1:${port}`, 'GET', '/_emulator/health', { headers: { host: `svc:${port}` } });
    assert.equal(named.status, 200, named.text);
    const other = await rawRequest(`http://127.0.0.1:${port}`, 'GET', '/_emulator/health', { headers: { host: `other:${port}` } });
    assert.equal(other.status, 403, 'only the listed name');
  } finally {
    assert.equal(await run.interrupt(), 0);
  }
});
