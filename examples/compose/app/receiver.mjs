// A merchant app's webhook receiver, in Node's standard library only (node:24 image, no npm).
//
// At start it registers its own endpoint with the payments API (replacing an earlier one for
// the same URL, so a restart does not leave a second endpoint whose secret it no longer knows),
// keeps the secret it gets back, and then accepts POST /webhooks only when Svc-Signature
// verifies: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" keyed by the secret>`,
// any one of several v1 entries, compared in constant time, within 300 s of now.
//
//   GET /healthz    200 once the endpoint is registered (the compose health check)
//   GET /received   the events whose signature verified, oldest first
//
// Environment: SVC_BASE_URL, SVC_API_KEY (a test key), WEBHOOK_URL (how the emulator reaches
// this app, e.g. http://app:3000/webhooks), PORT (default 3000).

import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';

const { SVC_BASE_URL, SVC_API_KEY, WEBHOOK_URL } = process.env;
const PORT = Number(process.env.PORT ?? 3000);
const TOLERANCE_SECONDS = 300;
if (!SVC_BASE_URL || !SVC_API_KEY || !WEBHOOK_URL) {
  console.error('receiver: set SVC_BASE_URL, SVC_API_KEY and WEBHOOK_URL');
  process.exit(2);
}

let secret; // set once the endpoint is registered
const received = [];
const seenDeliveries = new Set();

/** One call to the payments API; throws with the API's own error message. */
async function api(method, path, body) {
  const res = await fetch(`${SVC_BASE_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${SVC_API_KEY}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!json.success) throw new Error(`${method} ${path}: HTTP ${res.status} ${json.error?.code ?? ''} ${json.error?.message ?? ''}`);
  return json.data;
}

async function register() {
  const { endpoints } = await api('GET', '/v1/api/webhook-endpoints');
  for (const old of endpoints.filter((e) => e.url === WEBHOOK_URL)) await api('DELETE', `/v1/api/webhook-endpoints/${old.id}`);
  const created = await api('POST', '/v1/api/webhook-endpoints', { url: WEBHOOK_URL, events: ['payment.completed', 'payment.failed'] });
  secret = created.secret;
  console.log(`receiver: registered ${created.endpoint.id} for ${WEBHOOK_URL}`);
}

/** Why the header does not verify, or null when it does. */
function signatureProblem(header, rawBody) {
  if (!header) return 'no Svc-Signature header';
  let timestamp;
  const candidates = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return 'malformed Svc-Signature';
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/.test(value)) candidates.push(Buffer.from(value, 'hex'));
  }
  if (timestamp === undefined || candidates.length === 0) return 'malformed Svc-Signature';
  const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.`).update(rawBody).digest();
  if (!candidates.some((c) => timingSafeEqual(c, expected))) return 'signature does not match';
  if (Math.abs(Math.floor(Date.now() / 1000) - timestamp) > TOLERANCE_SECONDS) return 'signature timestamp outside 300 s';
  return null;
}

const server = createServer((req, res) => {
  const reply = (status, body) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (req.method === 'GET' && req.url === '/healthz') return reply(secret ? 200 : 503, { registered: Boolean(secret) });
  if (req.method === 'GET' && req.url === '/received') return reply(200, { events: received });
  if (req.method !== 'POST' || req.url !== '/webhooks') return reply(404, { error: 'not found' });
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    // Verify the raw bytes first; parse only what verified.
    const raw = Buffer.concat(chunks);
    const problem = secret ? signatureProblem(req.headers['svc-signature'], raw) : 'not registered yet';
    if (problem) {
      console.log(`receiver: refused a delivery: ${problem}`);
      return reply(400, { error: problem });
    }
    const delivery = String(req.headers['svc-delivery'] ?? '');
    // At least once: the same Svc-Delivery may come again; keep it once.
    if (!seenDeliveries.has(delivery)) {
      seenDeliveries.add(delivery);
      const event = JSON.parse(raw.toString('utf8'));
      const paymentId = event.data?.payment?.id ?? null;
      received.push({ delivery, type: event.type, payment_id: paymentId, created_at: event.createdAt });
      console.log(`receiver: ${event.type} of ${paymentId} (delivery ${delivery}) verified`);
    }
    reply(200, { received: true });
  });
});

server.listen(PORT, '0.0.0.0', () => {
  console.log(`receiver: listening on :${PORT}`);
  register().catch((err) => {
    console.error(`receiver: could not register the webhook endpoint: ${err.message}`);
    process.exit(1);
  });
});
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.close(() => process.exit(0)));
