import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser } from 'playwright-core';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { merchantBalance } from '../helpers/balances.js';
import { CHROMIUM } from '../pages/browser.js';
import { recordingServer, type RecordingServer } from '../pages/servers.js';

// What a web page the developer visits can do to a running emulator, tried in a real
// Chromium: a page from another local origin (another port) posts forms and fetches at the
// control API, and a DNS-rebinding name (attacker.example resolved to 127.0.0.1) reads it.

let emu: TestEmulator;
let evil: RecordingServer;
let browser: Browser;
let attackerPage = '';

before(async () => {
  emu = await startTestEmulator();
  evil = await recordingServer(() => ({ status: 200, body: attackerPage, type: 'text/html; charset=utf-8' }));
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // attacker.example resolves to this machine, as a rebinding DNS server would make it.
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-quic', '--host-resolver-rules=MAP attacker.example 127.0.0.1'],
  });
});
after(async () => {
  await browser?.close();
  await evil?.close();
  await emu?.stop();
});

const TOP_UP = { merchant_id: 'mer_acme', environment: 'test', currency: 'USD', amount: 777 };

test('a page on another origin cannot top up a wallet or approve a payroll run, by form or by fetch', async () => {
  const run = await emu.request('POST', '/v1/api/payroll/runs', {
    body: { currency: 'USD', payments: [{ external_ref: 'b-1', payee_phone: '+231770000201', amount_cents: 100 }] },
    headers: { 'Idempotency-Key': idem('run') },
  });
  assert.equal(run.status, 201, run.text);
  const runId = run.json.data.run.id as string;
  const before = await merchantBalance(emu, 'mer_acme', 'test', 'USD');

  // The classic CSRF: a text/plain form whose body is JSON, submitted on load.
  const body = JSON.stringify(TOP_UP).slice(0, -1);
  attackerPage = `<!doctype html><form method="post" enctype="text/plain" action="${emu.baseUrl}/_emulator/wallets/top-up">
    <input type="hidden" name='${body},"x":"' value='"}'></form>
    <script>
      window.fetches = Promise.all([
        fetch(${JSON.stringify(`${emu.baseUrl}/_emulator/wallets/top-up`)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: ${JSON.stringify(JSON.stringify(TOP_UP))} }),
        fetch(${JSON.stringify(`${emu.baseUrl}/_emulator/payroll-runs/${runId}/approve`)}, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"pin":"1357"}' }),
        fetch(${JSON.stringify(`${emu.baseUrl}/_emulator/keys`)}).then((r) => r.text()).catch((e) => 'blocked: ' + e.message),
      ]);
    </script>`;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`http://127.0.0.1:${evil.port}/`);
    // Every fetch has had its answer once this settles (no-cors answers are opaque to the page).
    const [, , keys] = await page.evaluate(() => (window as unknown as { fetches: Promise<unknown[]> }).fetches);
    assert.doesNotMatch(String(keys), /svc_(test|live)_/, 'the page read no key');
    // The form navigates the tab to the emulator's answer: the refusal, in the envelope.
    await Promise.all([page.waitForURL(`${emu.baseUrl}/_emulator/wallets/top-up`), page.evaluate(() => document.forms[0]!.submit())]);
    const refusal = JSON.parse((await page.textContent('body')) ?? '');
    assert.equal(refusal.error.code, 'FORBIDDEN');
    assert.match(refusal.error.message, /Origin "http:\/\/127\.0\.0\.1:\d+" is not the emulator's own/);
  } finally {
    await context.close();
  }
  assert.equal(await merchantBalance(emu, 'mer_acme', 'test', 'USD'), before, 'no money moved');
  const after = await emu.request('GET', `/v1/api/payroll/runs/${runId}`);
  assert.equal(after.json.data.run.status, 'pending_approval', 'the run was not approved');
});

test('a DNS-rebinding name reaches the emulator but gets no keys', async () => {
  const port = new URL(emu.baseUrl).port;
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    // Loaded from attacker.example:<port>, the page is same-origin with the emulator's socket.
    const res = await page.goto(`http://attacker.example:${port}/_emulator/keys`);
    assert.equal(res?.status(), 403);
    const text = (await page.textContent('body')) ?? '';
    assert.doesNotMatch(text, /svc_(test|live)_/);
    assert.match(JSON.parse(text).error.message, /Host "attacker\.example:\d+" does not name this emulator/);
    const sameOrigin = await page.evaluate(() => fetch('/_emulator/keys').then((r) => r.status));
    assert.equal(sameOrigin, 403);
  } finally {
    await context.close();
  }
});
