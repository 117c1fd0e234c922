import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { join } from 'node:path';
import { KEYS } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';
import { consoleEmulator } from './console-emulator.js';
import { PhoneNumber } from '../../contract/phone.js';

// A phone is no secret, but the card rule took 12-15 digit ones for cards whenever some 12-19
// digits of them passed Luhn (about 1 in 10 of +231770000201's shape), so the request log and
// the console showed `+********0201`. Now a digit run right after a `+` (E.164, or spaced,
// dashed, dotted or bracketed as contract/phone.ts reads phones) is never a card. 1,000 random
// valid phones, half of them chosen among those the old rule masked, go to `svc emulator start`
// in a JSON body (stored as a link's metadata, echoed in the answer), in a query (percent-encoded,
// as URLSearchParams writes it) and in a path (with its `+` as typed): each comes back from the
// request log (path, request body, answer) and from the console's request line as it was sent.
// The card probes of secrets.test.ts and redact.test.ts keep every card caught.

const N = 1_000;
const CONCURRENCY = 8;

/** Whether some 12-19 digits of `digits` in a row pass Luhn: what the card rule looks for. */
function holdsLuhnWindow(digits: string): boolean {
  for (let end = 12; end <= digits.length; end++) {
    for (let start = end - 12; start >= 0 && end - start <= 19; start--) {
      let sum = 0;
      for (let i = 0; i < end - start; i++) {
        let d = Number(digits[end - 1 - i]);
        if (i % 2 === 1 && (d *= 2) > 9) d -= 9;
        sum += d;
      }
      if (sum % 10 === 0) return true;
    }
  }
  return false;
}

/** 8-15 digits, the first not 0 (E.164 without its +). */
const phoneDigits = (length = 8 + randomInt(8)) => String(1 + randomInt(9)) + Array.from({ length: length - 1 }, () => randomInt(10)).join('');

/** The digits written as people write a phone with its +: plain, or grouped by spaces, dashes, dots, brackets. */
function spelled(digits: string): string {
  const cc = digits.slice(0, 1 + randomInt(3));
  const rest = digits.slice(cc.length);
  const groups = rest.match(/.{1,3}/g) ?? [];
  switch (randomInt(6)) {
    case 0:
      return `+${digits}`;
    case 1:
      return `+${cc} ${groups.join(' ')}`;
    case 2:
      return `+${cc}-${groups.join('-')}`;
    case 3:
      return `+${cc}.${groups.join('.')}`;
    case 4:
      return `+${cc} (${groups[0]}) ${groups.slice(1).join('-')}`;
    default:
      return `+ ${cc} ${rest}`;
  }
}

function phones(): Array<{ phone: string; luhn: boolean }> {
  const out: Array<{ phone: string; luhn: boolean }> = [];
  while (out.length < N / 2) {
    // One the old rule masked: 12-15 digits holding a Luhn window.
    const digits = phoneDigits(12 + randomInt(4));
    if (holdsLuhnWindow(digits)) out.push({ phone: spelled(digits), luhn: true });
  }
  while (out.length < N) {
    const digits = phoneDigits();
    out.push({ phone: spelled(digits), luhn: holdsLuhnWindow(digits) });
  }
  for (const { phone } of out) assert.ok(PhoneNumber.safeParse(phone).success, `${phone} is a valid phone`);
  return out;
}

test(`${N} random valid phones in bodies, queries and paths come back from the request log and the console unaltered`, { timeout: 600_000 }, async () => {
  const { run, agent, base, close } = await consoleEmulator('svc-phones-', 4 * N, CONCURRENCY);
  try {
    const sent = phones().map(({ phone, luhn }, i) => ({
      phone,
      luhn,
      body: JSON.stringify({ title: `Phone ${i}`, amount: 500, metadata: { phone, note: `call ${phone} after 5` } }),
      query: `/v1/api/payments?${new URLSearchParams({ phone })}`,
      path: `/v1/api/payment-links/${encodeURIComponent(phone).replace(/%2B/g, '+')}`,
    }));
    assert.ok(sent.filter((s) => s.luhn).length >= N / 2, 'half of them or more hold a run the old rule took for a card');
    const send = (method: string, path: string, body?: string) =>
      new Promise<void>((ok, fail) => {
        const headers: Record<string, string> = { authorization: `Bearer ${KEYS.acmeTest}` };
        if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'x-idempotency-key': randomUUID() });
        const req = request({ host: base.hostname, port: base.port, method, path, agent, headers }, (res) => res.resume().once('end', ok));
        req.once('error', fail);
        req.end(body);
      });
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) {
          const s = sent[next++]!;
          await send('POST', '/v1/api/payment-links', s.body);
          await send('GET', s.query);
          await send('GET', s.path);
        }
      }),
    );

    // The log: every entry, as the control API lists them.
    const entries: Array<{ method: string; path: string; request_body: string | null; response_body: string | null }> = [];
    for (let before: string | null = null; ; ) {
      const res = await rawRequest(base.origin, 'GET', `/_emulator/requests?limit=100${before ? `&before=${encodeURIComponent(before)}` : ''}`);
      assert.equal(res.status, 200, res.text);
      entries.push(...res.json.data.requests);
      before = res.json.data.next_before;
      if (before === null || res.json.data.requests.length < 100) break;
    }
    assert.equal(entries.length, 3 * N, 'one entry per request');
    const paths = new Set(entries.map((e) => e.path));
    const bodies = new Set(entries.map((e) => e.request_body));
    const answers = entries.map((e) => e.response_body ?? '').join('\n');
    const altered = sent.filter((s) => !paths.has(s.query) || !paths.has(s.path) || !bodies.has(s.body) || !answers.includes(JSON.stringify(s.phone)));
    assert.deepEqual(altered.slice(0, 5).map((s) => s.phone), [], `${altered.length} of ${N} phones altered in the log (${altered.filter((s) => s.luhn).length} of them Luhn-shaped)`);

    // The console's request lines show each path and query as sent, a request sent after the others last.
    await send('GET', '/v1/api/payments?after=the-others');
    await run.waitFor(/GET \/v1\/api\/payments\?after=the-others /);
    // (A line is written as its answer finishes: the few not there yet are waited for.)
    const printed = () => new Set([...run.stderr().matchAll(/^(?:GET|POST) (\S+) \d{3} /gm)].map((m) => m[1]));
    const early = printed();
    for (const path of sent.flatMap((s) => [s.query, s.path]).filter((p) => !early.has(p)).slice(0, 10)) {
      await run.waitFor(new RegExp(`^GET ${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `, 'm')).catch(() => undefined);
    }
    const shown = printed();
    const missing = sent.filter((s) => !shown.has(s.query) || !shown.has(s.path));
    assert.deepEqual(missing.slice(0, 5).map((s) => s.phone), [], `${missing.length} of ${N} phones altered on the console`);
  } finally {
    await close();
  }
});
