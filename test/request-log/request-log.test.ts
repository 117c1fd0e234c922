import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { idem, KEYS, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { waitForRequest } from '../../emulator/request-log/control.js';

// The request log over real HTTP: what a 422, a 409, a replay and an after-commit fault leave in
// it, that no secret survives into it, its filters and paging, its bound, and that it is part of
// the world (reset clears it, a restart keeps it).

const LINK = { title: 'Request log probe', amount: 500 };
const CARD = '4242424242424242';
const PIN = '975318';
const SPACED = '4242 4242 4242 4242';

let emu: TestEmulator;
const dataDir = tempDir();
before(async () => {
  emu = await startTestEmulator({ dataDir });
});
after(() => emu.stop());

async function control(path: string): Promise<any> {
  const res = await fetch(`${emu.baseUrl}/_emulator${path}`);
  const json: any = await res.json();
  assert.equal(res.status, 200, JSON.stringify(json));
  return json.data;
}
const byTrace = async (traceId: string) => {
  const { requests } = await control(`/requests?trace_id=${encodeURIComponent(traceId)}`);
  assert.equal(requests.length, 1, `one entry for ${traceId}`);
  return requests[0];
};

test('a 422 is logged with its key, environment, error code and both bodies', async () => {
  const res = await emu.request('POST', '/v1/api/payment-links', { body: { title: '' }, idempotencyKey: idem('bad'), headers: { 'x-trace-id': 'trc-422' } });
  assert.equal(res.status, 422);
  const e = await byTrace('trc-422');
  assert.equal(e.method, 'POST');
  assert.equal(e.path, '/v1/api/payment-links');
  assert.equal(e.status, 422);
  assert.equal(e.error_code, 'VALIDATION_ERROR');
  assert.equal(e.key_name, 'acme-test');
  assert.equal(e.key_last4, KEYS.acmeTest.slice(-4));
  assert.equal(e.environment, 'test');
  assert.ok(e.idempotency_key.startsWith('bad-'));
  assert.equal(e.idempotency, null);
  assert.deepEqual(JSON.parse(e.request_body), { title: '' });
  assert.equal(JSON.parse(e.response_body).error.code, 'VALIDATION_ERROR');
  assert.ok(e.duration_ms >= 0);
  assert.deepEqual(e.resources, []);
  assert.deepEqual(await control(`/requests/${e.id}`), e);
});

test('a created resource, its replay and a 409 conflict on the same key', async () => {
  const key = randomUUID();
  const first = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: key, headers: { 'x-trace-id': 'trc-first' } });
  assert.equal(first.status, 201, first.text);
  const linkId = first.json.data.link?.id ?? first.json.data.id;
  const created = await byTrace('trc-first');
  assert.ok(created.resources.includes(linkId), JSON.stringify(created.resources));
  assert.equal(created.error_code, null);

  const replay = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: key, headers: { 'x-trace-id': 'trc-replay' } });
  assert.equal(replay.headers.get('idempotent-replayed'), 'true');
  const replayed = await byTrace('trc-replay');
  assert.equal(replayed.idempotency, 'replayed');
  assert.equal(replayed.idempotency_key, key);
  assert.deepEqual(replayed.resources, [], 'a replay changes nothing');

  const conflict = await emu.request('POST', '/v1/api/payment-links', { body: { ...LINK, amount: 501 }, idempotencyKey: key, headers: { 'x-trace-id': 'trc-conflict' } });
  assert.equal(conflict.status, 409);
  const refused = await byTrace('trc-conflict');
  assert.equal(refused.status, 409);
  assert.equal(refused.error_code, 'IDEMPOTENCY_CONFLICT');
  assert.equal(refused.idempotency, null);
});

test('an after-commit fault: the answer the client got, the fault that fired, the resource it kept', async () => {
  const added = await fetch(`${emu.baseUrl}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ route: 'POST /v1/api/payment-links', kind: 'status', status: 502, after_commit: true, times: 1 }),
  });
  const fault: any = (await added.json()).data;
  const lost = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: randomUUID(), headers: { 'x-trace-id': 'trc-fault' } });
  assert.equal(lost.status, 502);
  const e = await byTrace('trc-fault');
  assert.equal(e.status, 502);
  assert.equal(e.error_code, 'BAD_GATEWAY');
  assert.equal(e.fault, `${fault.id} after-commit status=502`);
  assert.equal(e.resources.filter((id: string) => id.startsWith('pl')).length, 1, `the kept link: ${JSON.stringify(e.resources)}`);
});

test('a duplicate sent while the first is in flight: its entry is the 409 with idempotency "in_flight"', async () => {
  // The first request commits, then an after-commit latency fault holds its answer (and its key)
  // until the manual clock moves; the fault log says when it is surely in flight.
  const added = await fetch(`${emu.baseUrl}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ route: 'POST /v1/api/payment-links', kind: 'latency', latency: '1s', after_commit: true, times: 1 }),
  });
  assert.equal(added.status, 201);
  const fault: any = (await added.json()).data;
  const fired = async () => ((await control('/faults/log')).entries as any[]).some((e) => e.fault_id === fault.id);
  const key = randomUUID();
  const first = emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: key, headers: { 'x-trace-id': 'trc-held' } });
  while (!(await fired())) await new Promise((r) => setImmediate(r));
  const duplicate = await emu.request('POST', '/v1/api/payment-links', { body: LINK, idempotencyKey: key, headers: { 'x-trace-id': 'trc-in-flight' } });
  assert.equal(duplicate.status, 409, duplicate.text);
  assert.equal(duplicate.json.error.code, 'IDEMPOTENCY_IN_FLIGHT');
  const refused = await byTrace('trc-in-flight');
  assert.equal(refused.status, 409);
  assert.equal(refused.error_code, 'IDEMPOTENCY_IN_FLIGHT');
  assert.equal(refused.idempotency, 'in_flight');
  assert.equal(refused.idempotency_key, key);
  assert.deepEqual(refused.resources, []);
  assert.equal((await control('/requests?trace_id=trc-held')).requests.length, 0, 'the held request is not answered yet');

  const advanced = await fetch(`${emu.baseUrl}/_emulator/clock/advance`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ by: '1s' }) });
  assert.equal(advanced.status, 200);
  assert.equal((await first).status, 201);
  const held = await byTrace('trc-held');
  assert.equal(held.status, 201);
  assert.equal(held.idempotency, null);
  assert.equal(held.fault, `${fault.id} after-commit latency=1000ms`);
  assert.ok(held.duration_ms >= 0);
});

test('an answer a fault cuts (a reset connection) is logged when the connection closes, naming the fault', async () => {
  const added = await fetch(`${emu.baseUrl}/_emulator/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ route: 'GET /v1/api/payments', kind: 'reset', times: 1 }),
  });
  assert.equal(added.status, 201);
  const fault: any = (await added.json()).data;
  await assert.rejects(emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-cut' } }));
  // The entry is made when the emulator's side of the connection closes: wait for that, not for time.
  await waitForRequest(emu.services.requestLog, (e) => e.trace_id === 'trc-cut', 5_000);
  const e = await byTrace('trc-cut');
  assert.equal(e.fault, `${fault.id} reset`);
  assert.equal(e.response_body, null);
  assert.equal(e.path, '/v1/api/payments');
});

test('no byte of the log holds the API key, an endpoint secret, a card number or a PIN', async () => {
  const endpoint = await emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hook', events: ['payment.completed'] }, idempotencyKey: idem('ep') });
  assert.equal(endpoint.status, 201, endpoint.text);
  const secret: string = endpoint.json.data.secret ?? endpoint.json.data.endpoint?.secret;
  assert.ok(typeof secret === 'string' && secret.length >= 16, endpoint.text);
  // A client that sends what it must not: a card number and a PIN in a body (refused, and logged).
  const leaky = await emu.request('POST', '/v1/api/payment-links', {
    body: { ...LINK, card_number: CARD, memo: CARD, note: `card ${SPACED}`, pin: PIN, owner: { pin: PIN }, phone: '+231770000100', reference: '1234567890123' },
    idempotencyKey: idem('leak'),
  });
  assert.equal(leaky.status, 422);
  const live = await emu.request('GET', '/v1/api/payments', { key: KEYS.acmeLive });
  assert.equal(live.status, 200);

  const text = JSON.stringify(await control('/requests?limit=100'));
  for (const [what, needle] of [
    ['test key', KEYS.acmeTest],
    ['live key', KEYS.acmeLive],
    ['endpoint secret', secret],
    ['card number', CARD],
    ['spaced card number', SPACED],
    ['PIN', PIN],
  ]) {
    assert.ok(!text.includes(needle), `the ${what} is in the log`);
  }
  assert.ok(text.includes('"card_number\\":\\"[redacted]'), 'a secret name (card number) loses its value whole');
  assert.ok(text.includes('************4242'), 'a card under any other name keeps its last 4');
  assert.ok(text.includes('**** **** **** 4242'), 'a card number in text keeps its spacing and last 4');
  assert.ok(text.includes('+231770000100') && text.includes('1234567890123'), 'a phone number and a digit run that is no card number (Luhn) stay readable');
});

test('the request body as it was sent: its layout kept, text that is not JSON shown, and no secret through an escape or a broken body', async () => {
  const send = async (body: string, trace: string) => {
    const res = await fetch(`${emu.baseUrl}/v1/api/payment-links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'content-type': 'application/json', 'x-idempotency-key': idem('raw'), 'x-trace-id': trace },
      body,
    });
    await res.arrayBuffer();
    return { status: res.status, entry: await byTrace(trace) };
  };
  // Pretty-printed JSON: the entry shows the client's own text, not the parsed value re-serialized.
  const pretty = JSON.stringify(LINK, null, 2);
  const created = await send(pretty, 'trc-raw-pretty');
  assert.equal(created.status, 201);
  assert.equal(created.entry.request_body, pretty);
  // A body that is not JSON: "why was it refused?" needs the text itself beside the error.
  const broken = '{"title": "Broken", "amount": 5,';
  const refused = await send(broken, 'trc-raw-broken');
  assert.equal(refused.status, 422);
  assert.equal(refused.entry.error_code, 'VALIDATION_ERROR');
  assert.equal(refused.entry.request_body, broken);
  // A broken body with a PIN in it: the text rules find the name and hide its value.
  const brokenPin = await send(`{"title": "x", "pin": "${PIN}",`, 'trc-raw-broken-pin');
  assert.equal(brokenPin.status, 422);
  assert.equal(brokenPin.entry.request_body, '{"title": "x", "pin": "[redacted]",');
  // A field name spelled with escapes is the same field: its value is redacted all the same.
  const escaped = await send(`{"title":"Escaped","amount":500,"p\\u0069n":"${PIN}","card_\\u006eumber":"${CARD}"}`, 'trc-raw-escaped');
  assert.equal(escaped.status, 422, 'unknown fields are refused');
  assert.deepEqual(JSON.parse(escaped.entry.request_body), { title: 'Escaped', amount: 500, pin: '[redacted]', card_number: '[redacted]' });
  // The same with a broken body: an escape the text rules cannot read, so none of it is kept.
  const escapedBroken = await send(`{"p\\u0069n":"${PIN}",`, 'trc-raw-escaped-broken');
  assert.equal(escapedBroken.entry.request_body, '[withheld: not JSON, and it may hold a secret]');
  const all = JSON.stringify(await control('/requests?limit=100'));
  assert.ok(!all.includes(PIN) && !all.includes(CARD), 'a PIN or card number sent behind an escape or in a broken body is in the log');
});

test('filters, newest first, paging with before / next_before, and 422 for a malformed filter', async () => {
  for (let i = 0; i < 3; i++) assert.equal((await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': `trc-page-${i}` } })).status, 200);
  const gets = await control('/requests?method=GET&path=/v1/api/payments&status=succeeded&key=acme-test&environment=test&limit=2');
  assert.deepEqual(
    gets.requests.map((e: any) => e.trace_id),
    ['trc-page-2', 'trc-page-1'],
  );
  const next = await control(`/requests?method=GET&path=/v1/api/payments&status=200&key=acme-test&limit=2&before=${encodeURIComponent(gets.next_before)}`);
  assert.equal(next.requests[0].trace_id, 'trc-page-0');
  const failed = await control('/requests?status=failed&limit=100');
  assert.ok(failed.requests.length >= 3 && failed.requests.every((e: any) => e.status >= 400));
  assert.ok((await control('/requests?status=409')).requests.every((e: any) => e.status === 409));
  assert.equal((await control('/requests?environment=live')).requests.every((e: any) => e.key_name === 'acme-live'), true);
  const future = new Date(Date.parse(gets.requests[0].at) + 1).toISOString();
  assert.deepEqual((await control(`/requests?since=${future}`)).requests, []);
  for (const bad of ['status=abc', 'since=yesterday', 'limit=0', 'method=BREW', 'path=v1', 'color=red']) {
    const res = await fetch(`${emu.baseUrl}/_emulator/requests?${bad}`);
    const json: any = await res.json();
    assert.equal(res.status, 422, bad);
    assert.equal(json.error.code, 'VALIDATION_ERROR');
    assert.match(json.error.message, new RegExp(bad.split('=')[0]), bad);
  }
  const missing = await fetch(`${emu.baseUrl}/_emulator/requests/req_nope`);
  assert.equal(missing.status, 404);
});

test('reset clears the log; a restart keeps it', async () => {
  assert.ok((await control('/requests')).requests.length > 0);
  const reset = await fetch(`${emu.baseUrl}/_emulator/reset`, { method: 'POST' });
  assert.equal(reset.status, 200);
  assert.deepEqual((await control('/requests')).requests, []);
  await emu.request('GET', '/v1/api/payments', { headers: { 'x-trace-id': 'trc-kept' } });
  await emu.stop({ keepData: true });
  emu = await startTestEmulator({ dataDir });
  const kept = await control('/requests');
  assert.deepEqual(
    kept.requests.map((e: any) => e.trace_id),
    ['trc-kept'],
  );
});
