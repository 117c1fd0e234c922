import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { launchBrowser, screenshot } from '../pages/browser.js';
import { recordingServer, type RecordingServer } from '../pages/servers.js';
import { advance, attemptsRecorded, control, createEndpoint, simulatePayment, startReceiver, type Receiver } from '../webhooks/receiver.js';

// The dashboard in a real Chromium (JavaScript on: actions go to the control API through the
// page's script) against a real emulator on a manual clock and real webhook receivers. Tests
// wait on signals: a receiver's request, a control-API state, a DOM change.

const OWNER_PIN = '1357';

let emu: TestEmulator;
let browser: Browser;
let laptop: BrowserContext;

before(async () => {
  [emu, browser] = await Promise.all([startTestEmulator(), launchBrowser()]);
  laptop = await browser.newContext({ viewport: { width: 1100, height: 760 }, deviceScaleFactor: 1 });
});
after(async () => {
  await browser?.close();
  await emu?.stop();
});

async function withPage(context: BrowserContext, fn: (page: Page) => Promise<void>) {
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  try {
    await fn(page);
  } finally {
    await page.close();
  }
}

/** A payment whose payment.completed goes to `rx`; returns the delivery's id. */
async function deliveryTo(rx: Receiver): Promise<{ id: string; secret: string }> {
  const ep = await createEndpoint(emu, rx.url, ['payment.completed']);
  await simulatePayment(emu);
  const list = await control(emu, 'GET', `/webhook-endpoints/${ep.id}/deliveries`);
  assert.equal(list.data.deliveries.length, 1);
  return { id: list.data.deliveries[0].id, secret: ep.secret };
}

/** Milliseconds from the emulator's now to the delivery's next attempt (0 when due). */
async function untilNextAttempt(id: string): Promise<number> {
  const d = (await control(emu, 'GET', `/deliveries/${id}`)).data;
  const now = (await control(emu, 'GET', '/clock')).data.now;
  assert.ok(d.next_attempt_at, `delivery ${id} has a next attempt`);
  return Math.max(0, Date.parse(d.next_attempt_at) - Date.parse(now));
}

/** Makes the first attempt due whatever the retry schedule says, and waits for it to be recorded. */
async function firstAttempt(rx: Receiver, id: string) {
  // Only while no attempt is recorded: once attempt 1 has failed, the wait is for attempt 2.
  const [d, now] = await Promise.all([control(emu, 'GET', `/deliveries/${id}`), control(emu, 'GET', '/clock')]);
  const wait = d.data.attempt_count === 0 ? Math.max(0, Date.parse(d.data.next_attempt_at) - Date.parse(now.data.now)) : 0;
  if (wait > 0) await advance(emu, wait);
  await rx.waitFor(1);
  return attemptsRecorded(emu, id, 1);
}

test('a delivery failing with 500 shows its attempts; Redeliver resends it with the same Svc-Delivery and it turns green live', async () => {
  const rx = await startReceiver();
  rx.behave({ status: 500, body: 'receiver exploded' });
  try {
    const { id, secret } = await deliveryTo(rx);
    const failed = await firstAttempt(rx, id);
    assert.equal(failed.status, 'failed');

    await withPage(laptop, async (page) => {
      await page.goto(`${emu.baseUrl}/dashboard`);
      await page.getByRole('link', { name: 'OpenAPI' }).waitFor();
      const row = page.getByRole('link', { name: new RegExp(`Delivery ${id} .*: failed`) });
      await row.waitFor();
      await screenshot(page, 'dashboard-events');
      await row.click();
      await page.getByRole('heading', { name: `Delivery ${id}` }).waitFor();
      await page.getByRole('heading', { name: 'Attempt 1: HTTP 500' }).waitFor();
      await page.getByText('receiver exploded').waitFor({ state: 'attached' });
      const headers = page.getByRole('region', { name: 'Attempt 1' }).locator('details', { hasText: 'Request headers' });
      await headers.locator('summary').click();
      const sent = String(rx.received[0].headers['svc-signature']);
      await headers.getByText(sent).waitFor();
      await headers.getByText(id).waitFor();
      assert.equal(await page.content().then((h) => h.includes(secret)), false, 'the endpoint secret is never on the page');
      await screenshot(page, 'dashboard-delivery');

      // The same page, no reload: a marker set now must still be there at the end.
      await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
      rx.behave({ status: 200, body: 'ok' });
      await page.getByRole('button', { name: 'Redeliver' }).click();
      await page.getByRole('status').filter({ hasText: `same Svc-Delivery ${id}` }).waitFor();
      const [, again] = await rx.waitFor(2);
      assert.equal(again.headers['svc-delivery'], id);
      await page.getByText('succeeded', { exact: true }).waitFor(); // from the stream, no reload
      await page.getByRole('heading', { name: 'Attempt 2: HTTP 200' }).waitFor();
      assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 42, 'the page was not reloaded');
      assert.equal(await page.getByRole('button', { name: 'Redeliver' }).count(), 0, 'a succeeded delivery offers no Redeliver');
      await screenshot(page, 'dashboard-delivery-redelivered');
    });
    const d = (await control(emu, 'GET', `/deliveries/${id}`)).data;
    assert.equal(d.status, 'succeeded');
    assert.deepEqual(
      d.attempts.map((a: { status_code: number }) => a.status_code),
      [500, 200],
    );
  } finally {
    await rx.close();
  }
});

test('the events page shows a new event without a reload, with its TEST marker', async () => {
  await withPage(laptop, async (page) => {
    await page.goto(`${emu.baseUrl}/dashboard?environment=test`);
    await page.getByText('Live: updates as events arrive').waitFor();
    const rows = page.locator('tr[data-event]');
    const before = await rows.count();
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 7));
    await simulatePayment(emu);
    await page.locator(`tr[data-event]:nth-child(${before + 1})`).waitFor();
    assert.equal(await rows.count(), before + 1);
    await rows.first().getByText('payment.completed').waitFor();
    await rows.first().getByText('TEST').waitFor();
    assert.equal(await page.evaluate(() => (window as unknown as { marker?: number }).marker), 7);
  });
});

test('advancing the manual clock on the Time page fires a due retry', async () => {
  const rx = await startReceiver();
  rx.behave({ status: 503, body: 'down' });
  try {
    const { id } = await deliveryTo(rx);
    await firstAttempt(rx, id);
    const wait = await untilNextAttempt(id);
    assert.ok(wait > 0, 'the retry waits on the clock');
    await withPage(laptop, async (page) => {
      await page.goto(`${emu.baseUrl}/dashboard/time`);
      await page.getByText('manual (moves only when advanced)').waitFor();
      const before = await page.locator('[data-clock-now]').getAttribute('data-clock-now');
      await screenshot(page, 'dashboard-time');
      await page.getByLabel('Advance by').fill(`${wait}ms`);
      await page.getByRole('button', { name: 'Advance' }).click();
      await rx.waitFor(2);
      await page.getByRole('status').filter({ hasText: 'Clock advanced.' }).waitFor();
      await page.locator(`[data-clock-now="${new Date(Date.parse(before!) + wait).toISOString()}"]`).waitFor();
    });
    const d = await attemptsRecorded(emu, id, 2);
    assert.equal(d.attempts[1].status_code, 503);

    // The control API unreachable mid-action: an error is shown, never a success.
    await withPage(laptop, async (page) => {
      await page.goto(`${emu.baseUrl}/dashboard/time`);
      await page.route('**/_emulator/clock/advance', (route) => route.abort('connectionrefused'));
      await page.getByLabel('Advance by').fill('1s');
      await page.getByRole('button', { name: 'Advance' }).click();
      await page.getByRole('alert').filter({ hasText: 'The emulator did not answer' }).waitFor();
      assert.equal(await page.getByText('Clock advanced.').count(), 0);
    });

    // A malformed duration is refused with the control API's message, and the clock stays.
    await withPage(laptop, async (page) => {
      await page.goto(`${emu.baseUrl}/dashboard/time`);
      const now = (await control(emu, 'GET', '/clock')).data.now;
      await page.getByLabel('Advance by').fill('soon');
      await page.getByRole('button', { name: 'Advance' }).click();
      await page.getByRole('alert').filter({ hasText: 'not a duration' }).waitFor();
      assert.equal((await control(emu, 'GET', '/clock')).data.now, now);
    });
  } finally {
    await rx.close();
  }
});

test("a payee approved with the owner's PIN on the dashboard can receive a payout over the API", async () => {
  const added = await emu.request('POST', '/_emulator/payees', {
    key: null,
    body: { merchant_id: 'mer_acme', environment: 'test', name: 'Dashboard Sawmill', currency: 'USD', per_payout_cap: 1_000, daily_cap: 5_000 },
  });
  assert.equal(added.status, 201, added.text);
  const payee = added.json.data;
  const payout = () => emu.request('POST', '/v1/api/payouts', { body: { payee_id: payee.id, amount_cents: 250, currency: 'USD' }, idempotencyKey: idem('dash-payout') });
  assert.equal((await payout()).status, 422, 'no payout before approval');

  await withPage(laptop, async (page) => {
    await page.goto(`${emu.baseUrl}/dashboard/approvals`);
    const row = page.locator(`tr[data-payee="${payee.id}"]`);
    await row.getByText('pending approval').waitFor();
    await row.getByLabel('Owner PIN for Dashboard Sawmill').fill('0000');
    await row.getByRole('button', { name: 'Approve Dashboard Sawmill' }).click();
    await page.getByRole('alert').filter({ hasText: /PIN/ }).waitFor();
    await screenshot(page, 'dashboard-approvals-wrong-pin');
    await row.getByLabel('Owner PIN for Dashboard Sawmill').fill(OWNER_PIN);
    await row.getByRole('button', { name: 'Approve Dashboard Sawmill' }).click();
    await page.getByRole('status').filter({ hasText: 'Payee Dashboard Sawmill approved.' }).waitFor();
    await row.getByText('approved', { exact: true }).waitFor();
    await screenshot(page, 'dashboard-approvals');

    // Raising a cap needs the PIN; with it, the new cap shows in the currency's format.
    await row.getByLabel('Per-payout cap of Dashboard Sawmill, minor units').fill('2500');
    await row.getByLabel('Owner PIN to change the caps of Dashboard Sawmill').fill(OWNER_PIN);
    await row.getByRole('button', { name: 'Set caps' }).click();
    await row.getByText('$25.00 / $50.00').waitFor();
  });
  const paid = await payout();
  assert.equal(paid.status, 201, paid.text);
  assert.equal(paid.json.data.payee_id ?? payee.id, payee.id);
});

test('approvals page: a payroll run waiting for approval links to its approval page; the OTP inbox per phone', async () => {
  const run = await emu.request('POST', '/v1/api/payroll/runs', {
    headers: { 'Idempotency-Key': idem('dash-run') },
    body: { currency: 'USD', payments: [{ external_ref: 'dash-1', payee_phone: '+231770000201', amount_cents: 1234 }] },
  });
  assert.equal(run.status, 201, run.text);
  const runId = run.json.data.run.id as string;
  const otp = await emu.request('POST', '/v1/api/sub-merchants/start', { idempotencyKey: idem('dash-otp'), body: { manager_phone: '+231770000202' } });
  assert.ok(otp.status < 300, otp.text);
  const code = (await control(emu, 'GET', '/otp/+231770000202')).data.messages[0].code as string;
  await withPage(laptop, async (page) => {
    await page.goto(`${emu.baseUrl}/dashboard/approvals`);
    const approve = page.getByRole('link', { name: `Approve payroll run ${runId}` });
    assert.equal(await approve.getAttribute('href'), `/checkout/payroll-approval/${runId}`);
    await page.getByLabel('Phone').fill('+231770000202');
    await page.getByRole('button', { name: 'Show messages' }).click();
    await page.getByRole('table', { name: 'OTP messages' }).getByText(code).waitFor();
    await screenshot(page, 'dashboard-approvals-otp');
    // The run's detail view shows its lines with amounts in the run's currency.
    await page.goto(`${emu.baseUrl}/dashboard/records/payroll-runs/${runId}`);
    await page.getByRole('cell', { name: 'dash-1' }).first().waitFor();
    await screenshot(page, 'dashboard-payroll-run');
    await page.getByRole('cell', { name: '$12.34' }).first().waitFor();
    await page.getByRole('link', { name: 'Open the approval page' }).waitFor();
  });
});

test('the events filter keeps only events with a delivery in that status', async () => {
  await withPage(laptop, async (page) => {
    await page.goto(`${emu.baseUrl}/dashboard`);
    await page.getByLabel('Delivery status').selectOption('succeeded');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=succeeded/);
    const chips = page.locator('tr[data-event] a.chip');
    assert.ok((await chips.count()) > 0);
    for (const text of await chips.allTextContents()) assert.equal(text, 'succeeded');
    await page.getByLabel('Delivery status').selectOption('dead_letter');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=dead_letter/);
    await page.getByText('0 events, newest first.').waitFor();
  });
});

test('every page renders: endpoints, records with a detail view, wallets and cards, a narrow screen', async () => {
  const link = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('dash-link'), body: { title: 'Dashboard tea', amount: 1500, currency: 'USD', description: '<img src=x onerror="document.title=1">' } });
  assert.equal(link.status, 201, link.text);
  await withPage(laptop, async (page) => {
    await page.goto(`${emu.baseUrl}/dashboard/endpoints`);
    await page.getByRole('columnheader', { name: 'Recent success' }).waitFor();
    await page.getByText(/\d+% \(\d+\/\d+\)/).first().waitFor();
    await screenshot(page, 'dashboard-endpoints');

    await page.goto(`${emu.baseUrl}/dashboard/records?kind=payment-links`);
    await page.getByRole('link', { name: link.json.data.id }).click();
    await page.getByText('Dashboard tea', { exact: true }).waitFor();
    await page.getByText('$15.00').first().waitFor();
    // Stored text is shown as text: the description's markup is not a live element.
    await page.getByText('<img src=x onerror="document.title=1">', { exact: true }).waitFor();
    assert.equal(await page.locator('main img').count(), 0);
    await screenshot(page, 'dashboard-record');

    const topUp = await emu.request('POST', '/_emulator/wallets/top-up', { key: null, body: { merchant_id: 'mer_acme', environment: 'live', currency: 'LRD', amount: 123_456 } });
    assert.equal(topUp.status, 200, topUp.text);
    await page.goto(`${emu.baseUrl}/dashboard/wallets`);
    await page.getByRole('heading', { name: 'Merchant wallets' }).waitFor();
    const wallet = page.getByRole('region', { name: `Wallet ${topUp.json.data.id}` });
    await wallet.getByText('LIVE').waitFor();
    await wallet.locator('summary').click();
    await wallet.getByRole('cell', { name: 'top up' }).first().waitFor();
    await wallet.getByRole('cell', { name: /LRD\s?1,234\.56/ }).first().waitFor();
    await page.getByRole('heading', { name: 'Gift-card wallets' }).waitFor();
    await page.getByRole('heading', { name: 'Fleet cards' }).waitFor();
    await screenshot(page, 'dashboard-wallets');
  });
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    await withPage(phone, async (page) => {
      await page.goto(`${emu.baseUrl}/dashboard`);
      await page.getByRole('navigation', { name: 'Dashboard' }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `the page itself does not scroll sideways on a phone (${overflow}px); wide tables scroll in their own box`);
      await screenshot(page, 'dashboard-events-narrow');
    });
  } finally {
    await phone.close();
  }
});

test('a page from another origin cannot act through the dashboard or the control API', async () => {
  const rx = await startReceiver();
  rx.behave({ status: 500 });
  let attacker: RecordingServer | undefined;
  try {
    const { id } = await deliveryTo(rx);
    await firstAttempt(rx, id);
    const clockBefore = (await control(emu, 'GET', '/clock')).data.now;
    const target = emu.baseUrl;
    attacker = await recordingServer(() => ({
      status: 200,
      type: 'text/html; charset=utf-8',
      body: `<!doctype html><title>Free prizes</title>
<form id="redeliver" method="post" action="${target}/_emulator/deliveries/${id}/redeliver" enctype="text/plain"><input name='{"a":"' value='"}'></form>
<form id="advance" method="post" action="${target}/_emulator/clock/advance" enctype="text/plain"><input name='{"by":"1h","a":"' value='"}'></form>
<script>
async function attempt() {
  const out = {};
  try { await fetch(${JSON.stringify(`${target}/_emulator/deliveries/${id}/redeliver`)}, { method: 'POST', mode: 'no-cors', body: '{}' }); out.noCors = 'sent'; } catch (e) { out.noCors = 'blocked'; }
  try { await fetch(${JSON.stringify(`${target}/_emulator/clock/advance`)}, { method: 'POST', mode: 'no-cors', body: '{"by":"1h"}' }); out.noCorsClock = 'sent'; } catch (e) { out.noCorsClock = 'blocked'; }
  try { const r = await fetch(${JSON.stringify(`${target}/_emulator/deliveries/${id}/redeliver`)}, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }); out.cors = r.status; } catch (e) { out.cors = 'blocked'; }
  try { const r = await fetch(${JSON.stringify(`${target}/dashboard`)}); out.read = r.status; } catch (e) { out.read = 'blocked'; }
  return out;
}
</script>`,
    }));
    await withPage(laptop, async (page) => {
      await page.goto(`http://127.0.0.1:${attacker!.port}/`);
      const out = await page.evaluate(() => (window as unknown as { attempt(): Promise<Record<string, unknown>> }).attempt());
      assert.equal(out.cors, 'blocked', 'a CORS fetch gets no answer to read');
      assert.equal(out.read, 'blocked', 'another origin cannot read a dashboard page');
      for (const form of ['redeliver', 'advance']) {
        await page.goto(`http://127.0.0.1:${attacker!.port}/`);
        const [response] = await Promise.all([page.waitForNavigation(), page.evaluate((f) => (document.getElementById(f) as HTMLFormElement).submit(), form)]);
        assert.equal(response?.status(), 403, `the cross-site ${form} form is refused`);
      }
      // The dashboard itself, embedded or opened with a foreign Origin header, is refused too.
      const direct = await page.request.post(`${target}/_emulator/deliveries/${id}/redeliver`, { data: {}, headers: { origin: `http://127.0.0.1:${attacker!.port}` } });
      assert.equal(direct.status(), 403);
    });
    const d = (await control(emu, 'GET', `/deliveries/${id}`)).data;
    assert.equal(d.status, 'failed', 'not put back to pending');
    assert.equal(d.attempts.length, 1);
    assert.equal((await control(emu, 'GET', '/clock')).data.now, clockBefore, 'the clock did not move');

    // The same action from the dashboard's own origin works: the refusals above are the Origin's.
    await withPage(laptop, async (page) => {
      await page.goto(`${emu.baseUrl}/dashboard/deliveries/${id}`);
      await page.getByRole('button', { name: 'Redeliver' }).click();
      await page.getByRole('status').filter({ hasText: 'Redelivery queued' }).waitFor();
    });
    await rx.waitFor(2);
  } finally {
    await attacker?.close();
    await rx.close();
  }
});
