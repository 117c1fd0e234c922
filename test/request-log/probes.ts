import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { passesLuhn } from '../../emulator/resources/cards/test-cards.js';
import { KEYS } from '../helpers/emulator.js';
import { rawRequest } from '../helpers/raw-http.js';

// Issue 46's battery of secrets: over 200 probes, each a request that carries one secret (a value
// made fresh for the run) somewhere an emulator reads or writes it: in the path, the query under a
// secret name in every case style or under a plain one, the idempotency key, the trace id, JSON
// bodies (refused, or stored as a link's metadata, echoed back and carried by the event of the
// link's payment), form-encoded, broken and plain text bodies, the paths of the control API, the
// dashboard and the checkout pages (the console's request line), the dashboard's login link,
// requests a fault fires on (the fault line), and an OTP sent for real (the SMS line). The kinds:
// keys (test, live, control; real and made up), the control token, an endpoint's signing secret,
// the words of the one list (pin, otp, password, token, api key, cvv, session id,
// authorization…), codes of 4-8 digits, and card numbers in every spelling (spaces, dashes, dots,
// NBSP, zero-width spaces, colons, pipes, runs of separators, full-width, glued to letters).
// request-log/secrets.test.ts sends them to `svc emulator start`, to `svc emulator exec` (this
// file as its command: `node probes.js <out.json>`) and to the testing API, then greps every
// byte of every surface for each one (the dashboard's live feed among them).

export interface Secret {
  /** What it is and where it was sent. */
  what: string;
  value: string;
  /** A card: found by its first 12 digits once a reader's spelling is undone (separators, full width, percent-encoding). */
  card?: boolean;
  /** Shown on purpose where it is made for (the OTP inbox: the dashboard's Approvals page, GET /_emulator/otp). */
  inbox?: boolean;
}

export interface ProbeTarget {
  /** How this process reaches the emulator (loopback). */
  base: string;
  /** The control token the emulator was given, if any: the dashboard's login link carries it. */
  controlToken: string | null;
}

const hex = (n = 6) => randomBytes(n).toString('hex');

/** A Luhn-valid card number: `prefix`, random digits, the check digit, `length` in all. */
function card(length = 16, prefix = '4'): string {
  const body = prefix + Array.from({ length: length - prefix.length - 1 }, () => randomBytes(1)[0]! % 10).join('');
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0 && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

const group = (digits: string, sep: string) => digits.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
const fullWidth = (s: string) => String.fromCharCode(...[...s].map((d) => 0xff10 + Number(d)));
/** Every spelling of a card the battery sends: [name, spell]. ASCII ones can go in a header. */
const SPELLINGS: Array<[string, (d: string) => string, boolean]> = [
  ['plain', (d) => d, true],
  ['spaces', (d) => group(d, ' '), true],
  ['dashes', (d) => group(d, '-'), true],
  ['dots', (d) => group(d, '.'), true],
  ['colons', (d) => group(d, ':'), true],
  ['pipes', (d) => group(d, '|'), true],
  ['a run of separators', (d) => group(d, ' - - '), true],
  ['glued to letters', (d) => `x${d}99`, true],
  ['after a label', (d) => `ref-${d}`, true],
  ['NBSP', (d) => group(d, '\u00a0'), false],
  ['zero-width spaces', (d) => group(d, '\u200b'), false],
  ['zero-width joiners', (d) => group(d, '\u200d'), false],
  ['full-width', (d) => fullWidth(d), false],
  ['full-width colons', (d) => group(fullWidth(d), '\uff1a'), false],
];

/** Secret names in every case style: the words of issue 46's list and more. */
const NAMES = [
  'pin', 'PIN', 'userPin', 'user-pin', 'USER_PIN', 'User Pin', 'otp', 'otpCode', 'one_time_code', 'oneTimeCode', 'password', 'newPassword', 'pwd', 'passcode',
  'token', 'access.token', 'secret', 'client_secret', 'api_key', 'apiKey', 'x-api-key', 'key', 'cvv', 'CVC', 'security code', 'card_number', 'cardNumber', 'pan',
  'session', 'sessionId', 'session_id', 'authorization', 'Authorization', 'credentials',
];

export async function sendProbes({ base, controlToken }: ProbeTarget): Promise<Secret[]> {
  const secrets: Secret[] = [];
  const send = async (method: string, path: string, opts: { body?: string; type?: string; key?: string | null; headers?: Record<string, string> } = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.key !== null) headers.authorization = `Bearer ${opts.key ?? KEYS.acmeTest}`;
    if (opts.body !== undefined) headers['content-type'] = opts.type ?? 'application/json';
    return rawRequest(base, method, path, { headers, body: opts.body });
  };
  // A link holding the secret in its metadata, then paid: the payment.completed event carries the
  // link's metadata (the live stream, the dashboard's feed and Events page show event bodies).
  const link = async (metadata: Record<string, string>) => {
    const made = await send('POST', '/v1/api/payment-links', { body: JSON.stringify({ title: 'Probe', amount: 500, currency: 'USD', metadata }), headers: { 'x-idempotency-key': `probe-${hex()}` } });
    if (made.status !== 201) throw new Error(`the link was not made: ${made.status} ${made.text}`);
    const paid = await send('POST', `/v1/api/payment-links/${made.json.data.id}/simulate`, { body: '{}' });
    if (paid.status !== 201) throw new Error(`the link was not paid: ${paid.status} ${paid.text}`);
  };
  const secret = (what: string, value: string, extra: Partial<Secret> = {}) => (secrets.push({ what, value, ...extra }), value);

  // A fault that fires on every GET of one payment: the console's fault line names the path and the trace id.
  const fault = await send('POST', '/_emulator/faults', { key: null, body: JSON.stringify({ route: 'GET /v1/api/payments/:id', kind: 'status', status: 503 }) });
  if (fault.status !== 201) throw new Error(`the fault was not set: ${fault.status} ${fault.text}`);

  // Names: each name carries a value of its own in the query, a refused JSON body, a form body, a
  // text body, a broken JSON body, stored metadata, and the query of a control API path.
  for (const name of NAMES) {
    const v = (where: string) => secret(`${name} in ${where}`, `${where.replace(/\W/g, '').slice(0, 6)}V${hex()}`);
    await send('GET', `/v1/api/payments?${encodeURIComponent(name)}=${v('the query')}`);
    await send('POST', '/v1/api/payment-links', { body: JSON.stringify({ title: 'x', [name]: v('a refused JSON body') }), headers: { 'x-idempotency-key': `probe-${hex()}` } });
    await send('POST', '/v1/api/payment-links', { body: `title=t&${encodeURIComponent(name)}=${v('a form body')}`, type: 'application/x-www-form-urlencoded', headers: { 'x-idempotency-key': `probe-${hex()}` } });
    await send('POST', '/v1/api/payment-links', { body: `${name}: ${v('a text body')}\ntitle: t`, type: 'text/plain', headers: { 'x-idempotency-key': `probe-${hex()}` } });
    await send('POST', '/v1/api/payment-links', { body: `{"title": "x", "${name}": "${v('a broken JSON body')}",`, headers: { 'x-idempotency-key': `probe-${hex()}` } });
    await link({ [name]: v('stored metadata') });
    await send('GET', `/_emulator/health?${encodeURIComponent(name)}=${v('a control API query')}`, { key: null });
  }
  // An escape spells the name in a JSON body, valid and broken.
  await send('POST', '/v1/api/payment-links', { body: `{"title":"x","p\\u0069n":"${secret('an escaped pin', `esc${hex()}`)}"}`, headers: { 'x-idempotency-key': `probe-${hex()}` } });
  await send('POST', '/v1/api/payment-links', { body: `{"p\\u0069n":"${secret('an escaped pin, broken JSON', `esc${hex()}`)}",`, headers: { 'x-idempotency-key': `probe-${hex()}` } });

  // Codes of 4-8 digits under a name holding `code`.
  for (const name of ['code', 'smsCode', 'verification_code']) {
    const v = (where: string) => secret(`${name} (8 digits) in ${where}`, String(10_000_000 + (randomBytes(4).readUInt32BE(0) % 89_999_999)));
    await send('GET', `/v1/api/payments?${name}=${v('the query')}`);
    await send('POST', '/v1/api/payment-links', { body: JSON.stringify({ title: 'x', [name]: Number(v('a refused JSON body')) }), headers: { 'x-idempotency-key': `probe-${hex()}` } });
    await link({ [name]: v('stored metadata') });
  }

  // Cards in every spelling, under plain names: the query, the path, stored metadata, a text body,
  // and (ASCII spellings) the idempotency key and the trace id.
  for (const [spelling, spell, ascii] of SPELLINGS) {
    const v = (where: string, digits = card()) => (secret(`a card (${spelling}) in ${where}`, digits, { card: true }), spell(digits));
    await send('GET', `/v1/api/payments?note=${encodeURIComponent(v('the query'))}`);
    await send('GET', `/v1/api/payment-links/${encodeURIComponent(v('the path'))}`);
    await link({ note: v('stored metadata', card(15, '37')) });
    await send('POST', '/v1/api/payment-links', { body: `note: ${v('a text body', card(19, '6011'))}`, type: 'text/plain', headers: { 'x-idempotency-key': `probe-${hex()}` } });
    await send('GET', `/v1/api/payments/${encodeURIComponent(v('a path a fault fires on'))}`);
    if (ascii) {
      await send('GET', '/v1/api/payments', { headers: { 'x-idempotency-key': v('the idempotency key'), 'x-trace-id': v('the trace id') } });
      await send('GET', `/v1/api/payments/pay_probe${hex(4)}`, { headers: { 'x-trace-id': v('the trace id of a faulted request') } });
    }
    await send('GET', `/checkout/${encodeURIComponent(v('a checkout page path'))}`, { key: null });
  }

  // Keys and tokens, real and made up, and the endpoint's signing secret: wherever a value goes.
  // Subscribed to a type the battery never fires: no delivery leaves for example.test.
  const endpoint = await send('POST', '/v1/api/webhook-endpoints', { body: JSON.stringify({ url: 'https://example.test/hooks', events: ['payroll_run.completed'] }) });
  if (endpoint.status !== 201) throw new Error(`no endpoint: ${endpoint.status} ${endpoint.text}`);
  const keyed: Array<[string, string]> = [
    ['the test key in use', KEYS.acmeTest],
    ['the live key in use', KEYS.acmeLive],
    ['a made-up test key', `svc_test_${hex(12)}`],
    ['a made-up live key', `svc_live_${hex(12)}`],
    ['a control key', `svc_ctl_${randomBytes(24).toString('base64url')}`],
    ['the endpoint signing secret', endpoint.json.data.secret as string],
    ...(controlToken === null ? [] : [['the control token', controlToken] as [string, string]]),
  ];
  for (const [what, value] of keyed) {
    secret(what, value);
    await send('GET', `/v1/api/payments?ref=${encodeURIComponent(value)}`);
    await send('GET', `/v1/api/payments/${encodeURIComponent(value)}`, { headers: { 'x-trace-id': value } });
    await send('GET', '/v1/api/payments', { headers: { 'x-idempotency-key': value } });
    await link({ note: `sent ${value} by mistake` });
    await send('POST', '/v1/api/payment-links', { body: `note: ${value}`, type: 'text/plain', headers: { 'x-idempotency-key': `probe-${hex()}` } });
    await send('GET', `/dashboard/nothing/${encodeURIComponent(value)}`, { key: null });
    await send('GET', `/_emulator/nothing?ref=${encodeURIComponent(value)}`, { key: null });
    await send('GET', '/v1/api/payments', { key: value }); // as the key: answered 401 for most, never printed
  }
  if (controlToken !== null) {
    // The dashboard's login link, from this machine (as docker logs would show it).
    const login = await send('GET', `/dashboard/time?token=${encodeURIComponent(controlToken)}`, { key: null });
    if (login.status !== 303) throw new Error(`the login link answered ${login.status}`);
    await send('GET', '/dashboard?token=wrong_token_0123456789abcdefghijklmnop', { key: null });
  }

  // An OTP sent for real: the console says a code went out, never which. The phone's 12 digits
  // fail Luhn: one random phone in ten passes it and is masked as a card on the console (a run of
  // 12-19 digits), so the SMS line the tests look for was not found (a flake, one run in ten).
  let phone = `+23177${String(randomBytes(3).readUIntBE(0, 3) % 10_000_000).padStart(7, '0')}`;
  if (passesLuhn(phone.slice(1))) phone = phone.slice(0, -1) + String((Number(phone.at(-1)) + 1) % 10);
  const started = await send('POST', '/v1/api/sub-merchants/start', { body: JSON.stringify({ manager_phone: phone }) });
  if (started.status !== 200) throw new Error(`sub-merchant start answered ${started.status} ${started.text}`);
  const inbox = await send('GET', `/_emulator/otp/${encodeURIComponent(phone)}`, { key: null });
  secret('the OTP sent for real', inbox.json.data.messages[0].code as string, { inbox: true });
  await send('POST', '/v1/api/sub-merchants/complete', { body: JSON.stringify({ merchant_name: 'Probe', manager_phone: phone, otp: secret('a wrong OTP', String(100_000 + (randomBytes(3).readUIntBE(0, 3) % 900_000))) }) });

  await send('POST', '/_emulator/faults/clear', { key: null });
  if (secrets.length < 100) throw new Error(`only ${secrets.length} probes`);
  return secrets;
}

// `node probes.js <out.json>`: the command of `svc emulator exec`, which hands it the emulator's
// URL (and the control token) in the environment.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secrets = await sendProbes({ base: process.env.SVC_BASE_URL!, controlToken: process.env.SVC_CONTROL_TOKEN ?? null });
  writeFileSync(process.argv[2]!, JSON.stringify(secrets));
}
