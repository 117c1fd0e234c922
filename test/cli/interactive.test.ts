import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { svcBin } from '../helpers/svc-process.js';
import { cliHome } from './cli.js';
import { until } from './webhook-receiver.js';
import { tmuxPanes, type Pane } from './tty.js';

// A person at a terminal: svc runs in a tmux pane (a real pseudo-terminal); the test types
// with send-keys and reads the screen with capture-pane. Covers the OTP prompt of
// sub-merchants create, the masked PIN prompt of payroll approve, and the live-key confirmation.

const panes = tmuxPanes();
const cli = cliHome();
let emu: TestEmulator;

before(async () => {
  assert.equal(spawnSync('tmux', ['-V']).status, 0, 'tmux is installed (.ci/run installs it)');
  emu = await startTestEmulator();
});
after(async () => {
  panes.close();
  await emu.stop();
});

/** Runs svc in a fresh pane; the pane stays open after exit and shows EXIT=<code>. */
const runInPane = (args: string[], width = 160): Pane =>
  panes.open(['env', '-u', 'CI', 'NO_COLOR=1', `HOME=${cli.home}`, `XDG_CONFIG_HOME=${cli.configHome}`, process.execPath, svcBin, ...args], width);

const targetFlags = (key: string) => ['--base-url', emu.baseUrl, '--api-key', key];

test('sub-merchants create on a terminal: sends the OTP, asks for it, completes', async () => {
  const phone = '+231770000204';
  const pane = runInPane(['sub-merchants', 'create', '--name', 'Kiosk 4', '--phone', phone, ...targetFlags(KEYS.acmeTest)]);
  await until(() => /OTP sent to \+231\*+0204/.test(pane.screen()), 'the OTP prompt', 20_000);
  const inbox = await emu.request('GET', `/_emulator/otp/${encodeURIComponent(phone)}`, { key: null });
  const code = inbox.json.data.messages[0].code as string;
  await until(() => /Which code was sent to \+231\*+0204\?/.test(pane.screen()), 'the question', 20_000);
  // A wrong code is reported and asked again, not the end of the command.
  pane.type(code === '000000' ? '111111' : '000000');
  await until(() => /Wrong code; \d+ tr(y|ies) left/.test(pane.screen()), 'the wrong-code message', 20_000);
  await until(() => (pane.screen().match(/Which code was sent to/g) ?? []).length >= 2, 'the code asked again', 20_000);
  pane.type(code);
  await until(() => /EXIT=\d+/.test(pane.screen()), 'the command to finish', 20_000);
  const screen = pane.screen();
  assert.match(screen, /EXIT=0/, screen);
  assert.match(screen, /\[TEST\] Sub-merchant created/);
  assert.match(screen, /name\s+Kiosk 4/);
  const list = await emu.request('GET', '/v1/api/sub-merchants');
  assert.ok(list.json.data.sub_merchants.some((s: { merchant_name: string }) => s.merchant_name === 'Kiosk 4'));
});

test('payroll approve on a terminal: the PIN is asked masked, and the run executes', async () => {
  const created = await emu.request('POST', '/v1/api/payroll/runs', {
    headers: { 'Idempotency-Key': `tty-${process.pid}` },
    body: { currency: 'USD', payments: [{ external_ref: 'T-1', payee_phone: '+231770000201', amount_cents: 1500 }] },
  });
  assert.equal(created.status, 201, created.text);
  const runId = created.json.data.run.id as string;
  const pane = runInPane(['payroll', 'approve', runId, ...targetFlags(KEYS.acmeTest)]);
  await until(() => /What is the owner's PIN to approve payroll run prun_\S+ \(15\.00 USD in 1 line\)\?/.test(pane.screen()), 'the PIN prompt', 20_000);
  // A wrong PIN is reported and asked again (the emulator counts it towards its lock).
  pane.type('0000');
  await until(() => /Wrong PIN/i.test(pane.screen()), 'the wrong-PIN message', 20_000);
  await until(() => (pane.screen().match(/What is the owner's PIN/g) ?? []).length >= 2, 'the PIN asked again', 20_000);
  pane.type('1357');
  await until(() => /EXIT=\d+/.test(pane.screen()), 'the command to finish', 20_000);
  const screen = pane.screen();
  assert.match(screen, /EXIT=0/, screen);
  assert.match(screen, /\*\*\*\*/, 'the PIN is echoed as stars');
  assert.doesNotMatch(screen, /1357/, 'never in clear');
  assert.match(screen, /\[TEST\] Payroll run completed/);
});

test('a live key on a terminal asks before moving money: "n" cancels (exit 130), "y" proceeds', async () => {
  const args = ['payouts', 'create', '--payee', 'payee_live_ada', '--amount', '100', '--currency', 'USD', ...targetFlags(KEYS.acmeLive)];
  const no = runInPane(args);
  await until(() => new RegExp(`LIVE key on ${emu.baseUrl.replace(/[.]/g, '\\.')}: pay out 1\\.00 USD to payee_live_ada\\?`).test(no.screen()), 'the confirmation', 20_000);
  no.type('n');
  await until(() => /EXIT=\d+/.test(no.screen()), 'the command to finish', 20_000);
  assert.match(no.screen(), /cancelled\.[\s\S]*EXIT=130/);
  const before = (await emu.request('GET', '/v1/api/payouts', { key: KEYS.acmeLive })).json.data.total;

  const yes = runInPane(args);
  await until(() => /LIVE key on http:\/\/127\.0\.0\.1:\d+: pay out/.test(yes.screen()), 'the confirmation', 20_000);
  yes.type('y');
  await until(() => /EXIT=\d+/.test(yes.screen()), 'the command to finish', 20_000);
  assert.match(yes.screen(), /\[LIVE http:\/\/127\.0\.0\.1:\d+\] Payout/);
  assert.match(yes.screen(), /EXIT=0/);
  assert.equal((await emu.request('GET', '/v1/api/payouts', { key: KEYS.acmeLive })).json.data.total, before + 1);
});

test('payments list --all shows its progress on a terminal (and only there)', async () => {
  const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'pages' }, idempotencyKey: `tty-pages-${process.pid}` });
  for (let i = 0; i < 3; i++) await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { amount: 100 + i } });
  const total = (await emu.request('GET', '/v1/api/payments?limit=100')).json.data.payments.length;
  const pane = runInPane(['payments', 'list', '--all', '--limit', '1', ...targetFlags(KEYS.acmeTest)]);
  await until(() => /EXIT=\d+/.test(pane.screen()), 'the command to finish', 20_000);
  const screen = pane.screen();
  // Every page is full at --limit 1, so the empty page after the last row ends paging: one more request.
  assert.match(screen, new RegExp(`fetched ${total} payments \\(${total + 1} pages\\)`), screen);
  assert.match(screen, new RegExp(`\\[TEST\\] Payments \\(${total}\\)`));
  assert.match(screen, /EXIT=0/);
});

test('webhooks deliveries list fits a narrow terminal (lines cut with …); --wide shows every column', async () => {
  const endpoint = await emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hooks', events: ['payment.completed'] }, idempotencyKey: `tty-we-${process.pid}` });
  assert.equal(endpoint.status, 201, endpoint.text);
  const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'narrow', amount: 100 }, idempotencyKey: `tty-narrow-${process.pid}` });
  await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'completed' } });
  const id = endpoint.json.data.endpoint.id as string;
  const width = 60;
  const pane = runInPane(['webhooks', 'deliveries', 'list', id, ...targetFlags(KEYS.acmeTest)], width);
  await until(() => /EXIT=\d+/.test(pane.screen()), 'the command to finish', 20_000);
  // -J joins lines tmux wrapped: what the program wrote, line by line.
  const joined = pane.joined();
  assert.match(joined, /EXIT=0/, joined);
  assert.match(joined, /dlv_/);
  for (const line of joined.split('\n')) assert.ok(line.trimEnd().length <= width, `fits in ${width}: ${JSON.stringify(line)}`);
  const wide = runInPane(['webhooks', 'deliveries', 'list', id, '--wide', ...targetFlags(KEYS.acmeTest)], width);
  await until(() => /EXIT=\d+/.test(wide.screen()), 'the command to finish', 20_000);
  const wideJoined = wide.joined();
  assert.ok(wideJoined.split('\n').some((l) => l.trimEnd().length > width), '--wide is not cut');
  assert.match(wideJoined, /NEXT ATTEMPT/);
});
