// The compose recipe's test runner (Node's standard library only): it runs once svc and app
// are healthy, and exits 0 when every check passed, 1 at the first that did not.
//
//   1. the payments API: create a payment link, pay it (test-mode simulate)
//   2. the control API from another host: refused without the token (Svc-Guard: token),
//      answered with it (Svc-Control-Token), and the payment.completed event is there
//   3. the app received that event as a webhook whose signature it verified, once the
//      emulator's manual clock was moved to its first attempt
//
// Environment: SVC_BASE_URL (http://svc:4242), SVC_API_KEY, SVC_CONTROL_TOKEN, APP_URL
// (http://app:3000), RECEIVE_TIMEOUT_SECONDS (default 30).

import { randomUUID } from 'node:crypto';

const { SVC_BASE_URL, SVC_API_KEY, SVC_CONTROL_TOKEN, APP_URL } = process.env;
const RECEIVE_TIMEOUT_MS = Number(process.env.RECEIVE_TIMEOUT_SECONDS ?? 30) * 1000;

function check(ok, what) {
  if (!ok) {
    console.error(`FAIL ${what}`);
    process.exit(1);
  }
  console.log(`ok   ${what}`);
}

async function call(method, url, { headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, json: await res.json().catch(() => undefined) };
}

const merchant = { authorization: `Bearer ${SVC_API_KEY}` };
check(SVC_BASE_URL && SVC_API_KEY && SVC_CONTROL_TOKEN && APP_URL, 'SVC_BASE_URL, SVC_API_KEY, SVC_CONTROL_TOKEN and APP_URL are set');

// 1. The payments API, as the app's own code would call it.
const link = await call('POST', `${SVC_BASE_URL}/v1/api/payment-links`, {
  headers: { ...merchant, 'x-idempotency-key': randomUUID() },
  body: { title: 'Compose example', amount: 1200, currency: 'USD' },
});
check(link.status === 201, `payment link created (HTTP ${link.status})`);
const paid = await call('POST', `${SVC_BASE_URL}/v1/api/payment-links/${link.json.data.id}/simulate`, { headers: merchant, body: { outcome: 'completed' } });
check(paid.status === 201 && paid.json.data.status === 'completed', `payment ${paid.json?.data?.id} completed (HTTP ${paid.status})`);
const paymentId = paid.json.data.id;

// 2. The control API from another host: the door asks for the token.
const eventsUrl = `${SVC_BASE_URL}/_emulator/events?type=payment.completed`;
const refused = await call('GET', eventsUrl);
check(refused.status === 401 && refused.headers.get('svc-guard') === 'token', `control API without the token: 401, Svc-Guard: ${refused.headers.get('svc-guard')}`);
const events = await call('GET', eventsUrl, { headers: { 'svc-control-token': SVC_CONTROL_TOKEN } });
check(events.status === 200, `control API with Svc-Control-Token: HTTP ${events.status}`);
const event = events.json.data.events.find((e) => JSON.parse(e.body).data?.payment?.id === paymentId);
check(event, `the control API lists the payment.completed event of ${paymentId}`);

// 3. The webhook: its first attempt is due 1 s after the event on the emulator's clock, which
//    is manual here (SVC_CLOCK=manual): move it there, and the emulator delivers it to the app.
const moved = await call('POST', `${SVC_BASE_URL}/_emulator/clock/advance-to-next-delivery`, { headers: { 'svc-control-token': SVC_CONTROL_TOKEN }, body: {} });
check(moved.status === 200, `clock moved to the next webhook attempt (HTTP ${moved.status}, ${moved.json?.data?.advanced_ms} ms)`);
const deadline = Date.now() + RECEIVE_TIMEOUT_MS;
let got;
while (!got && Date.now() < deadline) {
  const { json } = await call('GET', `${APP_URL}/received`);
  got = json.events.find((e) => e.type === 'payment.completed' && e.payment_id === paymentId);
  if (!got) await new Promise((ok) => setTimeout(ok, 250));
}
check(got, `the app received payment.completed of ${paymentId} with a verified Svc-Signature (delivery ${got?.delivery})`);
console.log('all checks passed');
