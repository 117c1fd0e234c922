import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { idem, request, tempDir } from '../helpers/emulator.js';
import { svcProcesses, type SvcProcess } from '../helpers/svc-process.js';

// At most seven sends per delivery, whatever is killed (issue 38): an attempt is written as
// started before it is sent (and not sent when that write is refused), and one a kill -9 cut
// off counts as a failed attempt after the restart instead of going out again. Real `svc emulator start` processes on one data dir
// (manual clock), a receiver that always answers 500, and kills that land while an advance
// has attempts on the wire (the receiver holds its answers until the kill).

const ENDPOINTS = 3;
const PAYMENTS = 10;
const KILLS = 10;

interface Delivery {
  id: string;
  status: string;
  attempt_count: number;
  attempts: Array<{ attempt: number; status_code: number | null; error: string | null }>;
}

test('30 deliveries to a receiver that always answers 500, 10 kill -9s inside clock advances: each ends dead_letter with exactly 7 recorded attempts, and the receiver counted at most 7 sends each', { timeout: 120_000 }, async (t) => {
  const dataDir = tempDir('svc-kill-attempts-');
  const procs = svcProcesses(t.signal);
  const sends = new Map<string, number>();
  // While `holding`, requests get no answer (they are on the wire when the kill lands).
  let holding = false;
  const held = new Set<ServerResponse>();
  let onHeld: ((count: number) => void) | undefined;
  const receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['svc-delivery']);
      sends.set(id, (sends.get(id) ?? 0) + 1);
      if (!holding) return void res.writeHead(500, { 'content-type': 'text/plain' }).end('always 500');
      held.add(res);
      onHeld?.(held.size);
    });
  });
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  const hookUrl = (n: number) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook/${n}`;
  const start = () => procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off', '--clock', 'manual']);
  const control = (svc: SvcProcess, method: string, path: string, body?: unknown) => request(svc.ready.base_url, method, `/_emulator${path}`, { key: null, body });
  let svc = await start();
  try {
    const endpoints: string[] = [];
    for (let n = 0; n < ENDPOINTS; n++) {
      const ep = await request(svc.ready.base_url, 'POST', '/v1/api/webhook-endpoints', { body: { url: hookUrl(n), events: ['payment.completed'] } });
      assert.equal(ep.status, 201, ep.text);
      endpoints.push(ep.json.data.endpoint.id);
    }
    const pay = async (i: number) => {
      const link = await request(svc.ready.base_url, 'POST', '/v1/api/payment-links', { idempotencyKey: idem('link'), body: { title: `kill ${i}`, amount: 100, currency: 'USD' } });
      assert.equal(link.status, 201, link.text);
      const paid = await request(svc.ready.base_url, 'POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'completed', method: 'card' } });
      assert.equal(paid.status, 201, paid.text);
    };
    // Half the events 150 ms apart (their deliveries keep falling due apart: three attempts on
    // the wire per step), half at once (five per endpoint on the wire together).
    for (let i = 0; i < PAYMENTS / 2; i++) {
      await pay(i);
      assert.equal((await control(svc, 'POST', '/clock/advance', { ms: 150 })).status, 200);
    }
    for (let i = PAYMENTS / 2; i < PAYMENTS; i++) await pay(i);

    /** How many attempts the next advance puts on the wire at once: the deliveries due first, at most 8 per endpoint. */
    const nextOnWire = async () => {
      const due: Array<[string, number]> = [];
      for (const id of endpoints) {
        for (const d of (await control(svc, 'GET', `/webhook-endpoints/${id}/deliveries?limit=500`)).json.data.deliveries) {
          if (d.next_attempt_at !== null) due.push([id, Date.parse(d.next_attempt_at)]);
        }
      }
      const first = Math.min(...due.map(([, at]) => at));
      return endpoints.reduce((n, id) => n + Math.min(8, due.filter(([e, at]) => e === id && at === first).length), 0);
    };

    for (let k = 0; k < KILLS; k++) {
      // An advance to the next due attempts; once they are all on the wire (held), kill -9.
      const expected = await nextOnWire();
      assert.ok(expected > 0, `round ${k}: attempts are still due`);
      holding = true;
      const onWire = new Promise<void>((ok) => (onHeld = (count) => count >= expected && ok()));
      const advancing = control(svc, 'POST', '/clock/advance-to-next-delivery', {}).catch(() => undefined);
      await onWire;
      svc.child.kill('SIGKILL');
      assert.equal(await svc.done, 'SIGKILL');
      await advancing;
      onHeld = undefined;
      holding = false;
      for (const res of held) res.destroy();
      held.clear();
      svc = await start();
      // What the restart found due (the cut-off attempts, counted as failed, and those that
      // never went out) is done once an advance of 0 answers.
      assert.equal((await control(svc, 'POST', '/clock/advance', { ms: 0 })).status, 200);
    }

    // To the end: every due attempt, until none waits.
    for (let steps = 0; ; steps++) {
      assert.ok(steps < 30 * 7, 'the schedule ends');
      const next = await control(svc, 'POST', '/clock/advance-to-next-delivery', {});
      assert.equal(next.status, 200, next.text);
      if (next.json.data.due_at === null) break;
    }

    const deliveries: Delivery[] = [];
    for (const id of endpoints) {
      const list = await control(svc, 'GET', `/webhook-endpoints/${id}/deliveries?limit=500`);
      assert.equal(list.status, 200, list.text);
      for (const d of list.json.data.deliveries) deliveries.push((await control(svc, 'GET', `/deliveries/${d.id}`)).json.data);
    }
    assert.equal(deliveries.length, ENDPOINTS * PAYMENTS);
    let interrupted = 0;
    for (const d of deliveries) {
      assert.equal(d.status, 'dead_letter', d.id);
      assert.equal(d.attempt_count, 7, `${d.id}: exactly 7 attempts recorded`);
      const sent = sends.get(d.id) ?? 0;
      assert.ok(sent <= 7, `${d.id}: the receiver counted ${sent} sends`);
      // Every attempt recorded with the receiver's 500 did reach it.
      const answered = d.attempts.filter((a) => a.status_code === 500).length;
      assert.ok(sent >= answered, `${d.id}: ${sent} sends, ${answered} answered`);
      for (const a of d.attempts) {
        if (a.status_code === null) {
          assert.match(a.error ?? '', /^interrupted by a restart/, `${d.id} attempt ${a.attempt}`);
          interrupted++;
        }
      }
    }
    assert.ok(interrupted >= KILLS, `each kill cut off at least one attempt (${interrupted} interrupted)`);
    t.diagnostic(`sends: ${[...sends.values()].reduce((a, b) => a + b, 0)} for ${deliveries.length * 7} recorded attempts; ${interrupted} interrupted by a kill`);
  } finally {
    await procs.end();
    for (const res of held) res.destroy();
    receiver.closeAllConnections();
    await new Promise<void>((ok) => receiver.close(() => ok()));
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an attempt whose start cannot be written is not sent; once the disk takes writes again it goes out and is recorded once', { timeout: 60_000 }, async (t) => {
  const dataDir = tempDir('svc-start-refused-');
  const faults = join(dataDir, '..', `${dataDir.split('/').pop()}.faults`);
  const procs = svcProcesses(t.signal);
  let received = 0;
  const receiver = createServer((req, res) => req.resume().on('end', () => (received++, res.writeHead(200).end('ok'))));
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  const start = () => procs.start(['--port', '0', '--data-dir', dataDir, '--quiet', '--clock', 'manual'], { SVC_TEST_STORE_FAULTS: faults });
  const control = (svc: SvcProcess, method: string, path: string, body?: unknown) => request(svc.ready.base_url, method, `/_emulator${path}`, { key: null, body });
  try {
    let svc = await start();
    const ep = await request(svc.ready.base_url, 'POST', '/v1/api/webhook-endpoints', { body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['payment.completed'] } });
    assert.equal(ep.status, 201, ep.text);
    const link = await request(svc.ready.base_url, 'POST', '/v1/api/payment-links', { idempotencyKey: idem('link'), body: { title: 'refused', amount: 100, currency: 'USD' } });
    const paid = await request(svc.ready.base_url, 'POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { body: { outcome: 'completed', method: 'card' } });
    assert.equal(paid.status, 201, paid.text);

    writeFileSync(faults, 'write ENOSPC journal-\n'); // the store's journal refuses every write
    const due = await control(svc, 'POST', '/clock/advance-to-next-delivery', {});
    assert.equal(due.status, 200, due.text); // it answers once the attempt's fate is settled
    const [id] = due.json.data.deliveries as string[];
    assert.equal(received, 0, 'nothing was sent');
    assert.match(svc.stderr(), /webhooks: could not record 0 attempt\(s\) and 1 start\(s\): .*disk is full/);

    rmSync(faults);
    const waiting = (await control(svc, 'GET', `/deliveries/${id}`)).json.data;
    assert.equal(waiting.status, 'pending');
    assert.equal(waiting.attempts.length, 0);
    // Tried again a minute later on the clock.
    assert.equal((await control(svc, 'POST', '/clock/advance', { ms: 60_000 })).status, 200);
    assert.equal(received, 1);
    const sent = (await control(svc, 'GET', `/deliveries/${id}`)).json.data;
    assert.equal(sent.status, 'succeeded');
    assert.deepEqual(sent.attempts.map((a: { status_code: number }) => a.status_code), [200]);

    // Its start mark went with the record: a kill -9 and a restart add no attempt.
    svc.child.kill('SIGKILL');
    await svc.done;
    svc = await start();
    assert.equal((await control(svc, 'POST', '/clock/advance', { ms: 0 })).status, 200);
    assert.equal((await control(svc, 'GET', `/deliveries/${id}`)).json.data.attempts.length, 1);
    assert.equal(received, 1);
  } finally {
    await procs.end();
    receiver.closeAllConnections();
    await new Promise<void>((ok) => receiver.close(() => ok()));
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(faults, { force: true });
  }
});
