import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { KEYS } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';
import { consoleEmulator } from './console-emulator.js';
import { newTraceId } from '../../src/client/http.js';

// Issue 46: the card rule masked about 1.2% of UUID idempotency keys and 0.44% of the CLI's own
// trace ids (runs of digits inside them pass Luhn), so filtering the log by the trace id the CLI
// printed found nothing. 10,000 requests to `svc emulator start` (request lines on), each with a
// random UUID as its idempotency key and a trace id made by the CLI's own generator: every one
// comes back byte for byte from the request log (its list and its trace_id filter) and from the
// console's request line. At 1.2% and 0.44%, the old rule would have altered about 120 and 44.

const N = 10_000;
const CONCURRENCY = 8;

test(`${N} random UUID idempotency keys and ${N} CLI trace ids come back from the request log and the console byte for byte`, { timeout: 600_000 }, async () => {
  const { run, agent, base, close } = await consoleEmulator('svc-ids-', 2 * N, CONCURRENCY);
  try {
    const sent = Array.from({ length: N }, () => ({ idem: randomUUID(), trace: newTraceId() }));
    const get = (idem: string, trace: string) =>
      new Promise<void>((ok, fail) => {
        const req = request({ host: base.hostname, port: base.port, path: '/v1/api/payments?limit=1', agent, headers: { authorization: `Bearer ${KEYS.acmeTest}`, 'x-idempotency-key': idem, 'x-trace-id': trace } }, (res) => {
          res.resume().once('end', () => (res.statusCode === 200 && res.headers['x-trace-id'] === trace ? ok() : fail(new Error(`${res.statusCode} ${res.headers['x-trace-id']}`))));
        });
        req.once('error', fail);
        req.end();
      });
    let next = 0;
    await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
      while (next < N) {
        const { idem, trace } = sent[next++]!;
        await get(idem, trace);
      }
    }));

    // The log: every entry, as the control API lists them.
    const logged = new Map<string, string>();
    for (let before: string | null = null; ; ) {
      const res = await rawRequest(base.origin, 'GET', `/_emulator/requests?limit=100&path=/v1/api/payments${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      assert.equal(res.status, 200, res.text);
      for (const e of res.json.data.requests as Array<{ trace_id: string; idempotency_key: string }>) logged.set(e.trace_id, e.idempotency_key);
      before = res.json.data.next_before;
      if (before === null || res.json.data.requests.length < 100) break;
    }
    assert.equal(logged.size, N, 'one entry per request, under the trace id sent');
    const altered = sent.filter(({ idem, trace }) => logged.get(trace) !== idem);
    assert.deepEqual(altered.slice(0, 10), [], `${altered.length} of ${N} pairs changed in the log`);
    // Filtering by the trace id the CLI printed finds its request (a sample: one request each).
    for (const { idem, trace } of sent.filter((_, i) => i % 100 === 0)) {
      const res = await rawRequest(base.origin, 'GET', `/_emulator/requests?trace_id=${encodeURIComponent(trace)}`);
      assert.deepEqual(res.json.data.requests.map((e: { trace_id: string; idempotency_key: string }) => [e.trace_id, e.idempotency_key]), [[trace, idem]]);
    }

    // The console's request lines name each trace id as it was sent. A line is written as its
    // answer finishes: nearly all are there once a request sent after the others is; the rest are waited for.
    await get(randomUUID(), 'trc_after_the_others');
    await run.waitFor(/trace=trc_after_the_others\n/);
    const printed = () => new Set([...run.stderr().matchAll(/^GET \/v1\/api\/payments\?limit=1 200 \S+ key=\S+ trace=(\S+)$/gm)].map((m) => m[1]));
    const early = printed();
    for (const { trace } of sent.filter((t) => !early.has(t.trace)).slice(0, 10)) await run.waitFor(new RegExp(`trace=${trace}\n`)).catch(() => undefined);
    const shown = printed();
    const missing = sent.filter(({ trace }) => !shown.has(trace));
    assert.deepEqual(missing.slice(0, 10), [], `${missing.length} of ${N} trace ids not on the console as sent`);
  } finally {
    await close();
  }
});
