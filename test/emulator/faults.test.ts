import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Fault injection on the merchant API, over HTTP: every kind, before and after commit, with
// exact counts of what was kept. The control API sets the faults; the world is read back
// through GET /_emulator/snapshot.

const LINK = { title: 'Beans', amount: 1200, currency: 'USD' };

async function withEmulator(t: { after(fn: () => unknown): void }): Promise<TestEmulator> {
  const emu = await startTestEmulator();
  t.after(() => emu.stop());
  return emu;
}

const addFault = async (emu: TestEmulator, fault: object) => {
  const r = await emu.request('POST', '/_emulator/faults', { key: null, body: fault });
  assert.equal(r.status, 201, r.text);
  return r.json.data as { id: string };
};
const control = async (emu: TestEmulator, path: string) => (await emu.request('GET', `/_emulator${path}`, { key: null })).json.data;
const links = async (emu: TestEmulator) => ((await control(emu, '/snapshot')).collections.payment_links ?? []) as Array<{ id: string; title: string }>;
const raw = (emu: TestEmulator, key: string, opts: { signal?: AbortSignal; body?: object } = {}) =>
  fetch(`${emu.baseUrl}/v1/api/payment-links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'content-type': 'application/json', 'x-idempotency-key': key },
    body: JSON.stringify(opts.body ?? LINK),
    signal: opts.signal,
  });

test('status before commit: the next 2 POSTs answer 503 in the envelope with Svc-Fault, nothing is kept, the 3rd works', async (t) => {
  const emu = await withEmulator(t);
  const fault = await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'status', status: 503, times: 2 });
  for (let i = 0; i < 2; i++) {
    const r = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: randomUUID() });
    assert.equal(r.status, 503);
    assert.equal(r.json.error.code, 'SERVICE_UNAVAILABLE');
    assert.match(r.json.error.message, new RegExp(`Injected fault ${fault.id}`));
    assert.equal(r.headers.get('svc-fault'), `${fault.id} status=503`);
    assert.ok(r.headers.get('x-trace-id'));
  }
  assert.equal((await links(emu)).length, 0);
  const ok = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: randomUUID() });
  assert.equal(ok.status, 201);
  assert.equal(ok.headers.get('svc-fault'), null);
  assert.equal((await links(emu)).length, 1);
  assert.deepEqual((await control(emu, '/faults')).faults, [], 'a times fault retires after its last firing');
  const log = (await control(emu, '/faults/log')).entries;
  assert.equal(log.length, 2);
  assert.deepEqual(log.map((e: { fault_id: string; target: string; after_commit: boolean }) => [e.fault_id, e.target, e.after_commit]), [
    [fault.id, 'POST /v1/api/payment-links', false],
    [fault.id, 'POST /v1/api/payment-links', false],
  ]);
});

test('429 carries Retry-After: 1; 500 and 502 use the spec codes; other routes are untouched', async (t) => {
  const emu = await withEmulator(t);
  await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'status', status: 429, times: 1 });
  await addFault(emu, { route: 'GET /v1/api/payments/:id', kind: 'status', status: 500, times: 1 });
  await addFault(emu, { route: '* /v1/api/payments*', kind: 'status', status: 502, times: 1 });
  const limited = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: randomUUID() });
  assert.equal(limited.status, 429);
  assert.equal(limited.headers.get('retry-after'), '1');
  assert.equal(limited.json.error.code, 'RATE_LIMITED');
  const five = await emu.request('GET', '/v1/api/payments/pay_nope');
  assert.deepEqual([five.status, five.json.error.code], [500, 'INTERNAL_ERROR']);
  const bad = await emu.request('GET', '/v1/api/payments');
  assert.deepEqual([bad.status, bad.json.error.code], [502, 'BAD_GATEWAY']);
  assert.equal((await emu.request('GET', '/v1/api/payments')).status, 200);
});

test('after commit: a 502 loses the answer of a kept link; the same key replays it, a new key makes a second', async (t) => {
  const emu = await withEmulator(t);
  const fault = await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'status', status: 502, after_commit: true, times: 1 });
  const key = randomUUID();
  const lost = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: key });
  assert.equal(lost.status, 502);
  assert.equal(lost.headers.get('svc-fault'), `${fault.id} after-commit status=502`);
  const kept = await links(emu);
  assert.equal(kept.length, 1, 'the link was created although the answer was a 502');

  const retry = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: key });
  assert.equal(retry.status, 201);
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.equal(retry.json.data.id, kept[0].id);
  assert.equal((await links(emu)).length, 1);

  const again = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: randomUUID() });
  assert.equal(again.status, 201);
  assert.notEqual(again.json.data.id, kept[0].id);
  assert.equal((await links(emu)).length, 2);
});

test('a request that fails validation never spends an after-commit fault', async (t) => {
  const emu = await withEmulator(t);
  await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'status', status: 502, after_commit: true, times: 1 });
  const invalid = await emu.request('POST', '/v1/api/payment-links', { body: { title: '' }, idempotencyKey: randomUUID() });
  assert.equal(invalid.status, 422);
  assert.equal((await control(emu, '/faults')).faults.length, 1);
  assert.equal((await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: randomUUID() })).status, 502);
});

test('reset: before commit nothing is kept; after commit the link is kept and a same-key retry replays it', async (t) => {
  const emu = await withEmulator(t);
  await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'reset', times: 1 });
  await assert.rejects(raw(emu, randomUUID()), /fetch failed/);
  assert.equal((await links(emu)).length, 0);

  await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'reset', after_commit: true, times: 1 });
  const key = randomUUID();
  await assert.rejects(raw(emu, key), /fetch failed/);
  assert.equal((await links(emu)).length, 1);
  const retry = await raw(emu, key);
  assert.equal(retry.status, 201);
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
  assert.equal((await links(emu)).length, 1);
  assert.deepEqual((await control(emu, '/faults/log')).entries.map((e: { kind: string; after_commit: boolean }) => [e.kind, e.after_commit]), [['reset', false], ['reset', true]]);
});

test('truncate (after commit): the headers promise a body that is cut off half-way; the link is kept', async (t) => {
  const emu = await withEmulator(t);
  await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'truncate', after_commit: true, times: 1 });
  const res = await raw(emu, randomUUID());
  assert.equal(res.status, 201);
  assert.match(res.headers.get('svc-fault')!, /after-commit truncate/);
  await assert.rejects(res.text(), /terminated|other side closed/);
  assert.equal((await links(emu)).length, 1);
});

test('hang: no answer ever comes (the client gives up); before commit nothing is kept, after commit the link is', async (t) => {
  const emu = await withEmulator(t);
  await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'hang', times: 1 });
  const gaveUp = new AbortController();
  const pending = raw(emu, randomUUID(), { signal: gaveUp.signal });
  // The fault has fired once it is in the log: only then can "no answer" mean the fault.
  while ((await control(emu, '/faults/log')).entries.length === 0) await new Promise((r) => setImmediate(r));
  gaveUp.abort();
  await assert.rejects(pending, /abort/i);
  assert.equal((await links(emu)).length, 0);

  await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'hang', after_commit: true, times: 1 });
  const gaveUpAgain = new AbortController();
  const key = randomUUID();
  const pendingAgain = raw(emu, key, { signal: gaveUpAgain.signal });
  while ((await control(emu, '/faults/log')).entries.length === 1) await new Promise((r) => setImmediate(r));
  assert.equal((await links(emu)).length, 1, 'kept before the answer was withheld');
  gaveUpAgain.abort();
  await assert.rejects(pendingAgain, /abort/i);
  // Once the client has gone, its key is free: the retry replays.
  let retry = await raw(emu, key);
  while (retry.status === 409) retry = await raw(emu, key); // the server may see the close a moment later
  assert.equal(retry.status, 201);
  assert.equal(retry.headers.get('idempotent-replayed'), 'true');
});

test('latency runs on the emulator clock: with --clock manual the answer comes once time is advanced', async (t) => {
  const emu = await withEmulator(t);
  const fault = await addFault(emu, { route: 'POST /v1/api/payment-links', kind: 'latency', latency: '2s', times: 1 });
  const timersBefore = (await control(emu, '/clock')).pending_timers;
  const pending = raw(emu, randomUUID());
  while ((await control(emu, '/clock')).pending_timers === timersBefore) await new Promise((r) => setImmediate(r));
  assert.equal((await links(emu)).length, 0, 'still waiting before the handler');
  await emu.request('POST', '/_emulator/clock/advance', { key: null, body: { by: '2s' } });
  const res = await pending;
  assert.equal(res.status, 201);
  assert.equal(res.headers.get('svc-fault'), `${fault.id} latency=2000ms`);
});

test('probability with a seed fires on the same requests in every run', async (t) => {
  const pattern = async () => {
    const emu = await startTestEmulator();
    try {
      await addFault(emu, { route: 'GET /v1/api/payments', kind: 'status', status: 503, probability: 0.5, seed: 7 });
      const seen: number[] = [];
      for (let i = 0; i < 20; i++) seen.push((await emu.request('GET', '/v1/api/payments')).status);
      return seen;
    } finally {
      await emu.stop();
    }
  };
  const first = await pattern();
  assert.deepEqual(await pattern(), first);
  const fired = first.filter((s) => s === 503).length;
  assert.ok(fired > 0 && fired < 20, `fired ${fired} of 20`);
  void t;
});

test('environment and key_name narrow a fault; bad faults are 422 naming the field', async (t) => {
  const emu = await withEmulator(t);
  await addFault(emu, { route: 'GET /v1/api/payments', kind: 'status', status: 503, key_name: 'acme-live' });
  assert.equal((await emu.request('GET', '/v1/api/payments')).status, 200);
  assert.equal((await emu.request('GET', '/v1/api/payments', { key: KEYS.acmeLive })).status, 503);
  await addFault(emu, { route: 'GET /v1/api/payments', kind: 'status', status: 500, environment: 'test' });
  assert.equal((await emu.request('GET', '/v1/api/payments')).status, 500);

  for (const [body, field] of [
    [{ route: 'POST charges', kind: 'status', status: 503 }, /route/],
    [{ route: 'POST /v1/api/charges', kind: 'status' }, /status/],
    [{ route: 'POST /v1/api/charges', kind: 'status', status: 418 }, /status/],
    [{ route: 'POST /v1/api/charges', kind: 'latency', latency: 'soon' }, /latency/],
    [{ route: 'POST /v1/api/charges', kind: 'truncate' }, /after_commit/],
    [{ route: 'POST /v1/api/charges', kind: 'reset', times: 1, probability: 0.5 }, /probability/],
  ] as const) {
    const r = await emu.request('POST', '/_emulator/faults', { key: null, body });
    assert.equal(r.status, 422, JSON.stringify(body));
    assert.equal(r.json.error.code, 'VALIDATION_ERROR');
    assert.match(r.json.error.message, field);
  }
  const cleared = await emu.request('POST', '/_emulator/faults/clear', { key: null });
  assert.equal(cleared.json.data.cleared, 2);
  assert.equal((await emu.request('GET', '/v1/api/payments', { key: KEYS.acmeLive })).status, 200);
});
