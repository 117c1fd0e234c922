import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import {
  generateTestDelivery,
  generateTestHeaderString,
  signPayload,
  verifySignature,
  type VerifyOptions,
  type VerifyResult,
} from '../../src/webhooks/signature.js';

// verifySignature and the test-header helpers on their own, through the package entry
// (svc-toolkit/webhooks). Every expected signature is recomputed here with node:crypto from
// the rule — HMAC-SHA256 keyed by the secret's UTF-8 bytes over `<t>.` and the raw body bytes —
// never with the code under test. Time is always given (`now`, `timestamp`): no wall clock.

const secret = 'Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg';
const body = '{"type":"payment.completed","createdAt":"2026-11-21T12:00:00Z","data":{"payment":{"id":"pay_1","description":"café ☕"}}}';
const T = 1_763_700_000;

/** The v1 hex for `payload` signed at `t`, from the rule alone. */
function hmac(key: string, t: number, payload: string | Buffer): string {
  const bytes = Buffer.concat([Buffer.from(`${t}.`, 'utf8'), typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload]);
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(bytes).digest('hex');
}

const verify = (header: string | null | undefined, over: Partial<VerifyOptions> = {}): VerifyResult => verifySignature({ secret, header, body, now: T, ...over });

function refused(result: VerifyResult, reason: string, message?: RegExp): void {
  assert.equal(result.ok, false, `expected ${reason}, got ok`);
  if (result.ok) return;
  assert.equal(result.reason, reason, result.message);
  if (message) assert.match(result.message, message);
}

const good = `t=${T},v1=${hmac(secret, T, body)}`;
/** A well-formed v1 that is the signature of something else. */
const wrongSig = (seed: string) => hmac(secret, T, seed);

test('a header computed from the rule verifies, the body as a string or as its raw bytes', () => {
  assert.deepEqual(verify(good), { ok: true, timestamp: T });
  assert.deepEqual(verify(good, { body: Buffer.from(body, 'utf8') }), { ok: true, timestamp: T });
  // The secret's UTF-8 bytes are the key: a non-ASCII secret works the same way.
  const unicodeSecret = 'clé-secrète-🔑';
  assert.deepEqual(verify(`t=${T},v1=${hmac(unicodeSecret, T, body)}`, { secret: unicodeSecret }), { ok: true, timestamp: T });
});

test('several v1 entries: any one matching is enough, wherever it stands; none matching is refused', () => {
  const wrongs = [wrongSig('a'), wrongSig('b'), wrongSig('c')];
  const right = hmac(secret, T, body);
  for (const at of [0, 1, 3]) {
    const entries = [...wrongs];
    entries.splice(at, 0, right);
    assert.deepEqual(verify(`t=${T},${entries.map((s) => `v1=${s}`).join(',')}`), { ok: true, timestamp: T }, `matching entry at ${at}`);
  }
  // The matching signature of the previous secret, next to a wrong one: a rotation in progress.
  const old = 'the-previous-secret';
  assert.equal(verify(`t=${T},v1=${wrongSig('x')},v1=${hmac(old, T, body)}`, { secret: old }).ok, true);
  refused(verify(`t=${T},${wrongs.map((s) => `v1=${s}`).join(',')}`), 'no_matching_signature');
});

test('unknown schemes are ignored: a v0 next to a good v1 passes; a v0 alone is no v1 at all', () => {
  assert.equal(verify(`t=${T},v0=not-hex-at-all,v1=${hmac(secret, T, body)},v2=zz`).ok, true);
  refused(verify(`t=${T},v0=${hmac(secret, T, body)}`), 'bad_format', /no v1= signature/);
});

test('a header without t is bad_format, even with a v1 that would match', () => {
  refused(verify(`v1=${hmac(secret, T, body)}`), 'bad_format', /no t= timestamp/);
});

test('whitespace around entries, keys and values is ignored', () => {
  const sig = hmac(secret, T, body);
  for (const header of [`t=${T}, v1=${sig}`, ` t = ${T} ,  v1 = ${sig} `, `t=${T},\tv1=${sig}\t`, `t=${T} ,v1=${wrongSig('w')} , v1=${sig}`]) {
    assert.deepEqual(verify(header), { ok: true, timestamp: T }, JSON.stringify(header));
  }
});

test('a wrong secret is no_matching_signature (one byte off, or another case)', () => {
  refused(verify(good, { secret: `${secret}x` }), 'no_matching_signature');
  refused(verify(good, { secret: secret.slice(0, -1) }), 'no_matching_signature');
  refused(verify(good, { secret: secret.toLowerCase() }), 'no_matching_signature');
});

test('the same JSON re-serialized with other spacing or key order is another body: refused', () => {
  const parsed = JSON.parse(body) as Record<string, unknown>;
  const respaced = JSON.stringify(parsed, null, 2);
  const withSpaces = body.replace(/":/g, '": ');
  const reordered = JSON.stringify({ data: parsed.data, type: parsed.type, createdAt: parsed.createdAt });
  const trailingNewline = `${body}\n`;
  // A body decoded and re-encoded as latin1 is other bytes too (the é and ☕).
  const latin1 = Buffer.from(body, 'latin1');
  for (const other of [respaced, withSpaces, reordered, trailingNewline]) {
    assert.deepEqual(JSON.parse(other), parsed, 'the same JSON value');
    refused(verify(good, { body: other }), 'no_matching_signature');
  }
  refused(verify(good, { body: latin1 }), 'no_matching_signature');
});

test('an empty or absent header is missing_header', () => {
  for (const header of ['', undefined, null]) refused(verify(header), 'missing_header', /no Svc-Signature header/);
});

test('a v1 that is not 64 lowercase hex characters is bad_format; uppercase hex is refused too (the sender writes lowercase)', () => {
  const sig = hmac(secret, T, body);
  for (const v1 of ['z'.repeat(64), `${sig.slice(0, 63)}g`, sig.slice(0, 62), `${sig}00`, '', `0x${sig.slice(2)}`]) {
    refused(verify(`t=${T},v1=${v1}`), 'bad_format', /v1= must be 64 lowercase hex characters/);
  }
  // The convention is lowercase hex (what signPayload and every delivery send). An uppercase
  // copy of the right signature is refused as malformed rather than compared: a header that no
  // sender produces is not guessed at, and the answer is the same whatever the secret.
  assert.notEqual(sig.toUpperCase(), sig);
  refused(verify(`t=${T},v1=${sig.toUpperCase()}`), 'bad_format', /lowercase/);
  // One malformed entry makes the whole header malformed, even next to a matching one.
  refused(verify(`t=${T},v1=${sig},v1=${'Z'.repeat(64)}`), 'bad_format');
});

test('t must be whole unix seconds: fractions, signs, exponents, letters, milliseconds and empty values are bad_format', () => {
  const sig = hmac(secret, T, body);
  for (const t of [`${T}.5`, `-${T}`, `+${T}`, '1.7637e9', 'abc', '', `${T}000`, '0x10']) {
    refused(verify(`t=${t},v1=${sig}`), 'bad_format', /t= must be unix seconds/);
  }
  refused(verify(`${T},v1=${sig}`), 'bad_format', /is not key=value/);
  refused(verify(`t=${T},v1=${sig},`), 'bad_format', /is not key=value/);
});

test('a duplicated t is bad_format, whichever of the two was signed and even when both are equal', () => {
  const other = T - 10;
  refused(verify(`t=${other},t=${T},v1=${hmac(secret, T, body)}`), 'bad_format', /more than one t=/);
  refused(verify(`t=${T},t=${other},v1=${hmac(secret, T, body)}`), 'bad_format', /more than one t=/);
  refused(verify(`t=${T},v1=${hmac(secret, T, body)},t=${T}`), 'bad_format', /more than one t=/);
});

test('tolerance: 299 s and 300 s either way are accepted; 301 s in the past is too_old, 301 s in the future too_new', () => {
  // Default tolerance (nothing passed): the boundary a merchant's handler gets.
  const signedAt = (t: number) => `t=${t},v1=${hmac(secret, t, body)}`;
  for (const skew of [0, 1, 299, 300]) {
    assert.deepEqual(verify(signedAt(T - skew)), { ok: true, timestamp: T - skew }, `${skew} s in the past`);
    assert.deepEqual(verify(signedAt(T + skew)), { ok: true, timestamp: T + skew }, `${skew} s in the future`);
  }
  refused(verify(signedAt(T - 301)), 'too_old', /signed 301 s ago; tolerance is 300 s/);
  refused(verify(signedAt(T + 301)), 'too_new', /signed 301 s in the future; tolerance is 300 s/);
  refused(verify(signedAt(T - 86_400)), 'too_old');
  // A tolerance given by the caller moves the boundary.
  assert.equal(verify(signedAt(T - 10), { toleranceSeconds: 10 }).ok, true);
  refused(verify(signedAt(T - 11), { toleranceSeconds: 10 }), 'too_old');
  refused(verify(signedAt(T + 1), { toleranceSeconds: 0 }), 'too_new');
});

test('an empty secret throws (an unset variable must never verify), for the verifier and the helpers alike', () => {
  // Signed with the empty key: without the check this would verify.
  const forged = `t=${T},v1=${hmac('', T, body)}`;
  assert.throws(() => verify(forged, { secret: '' }), TypeError);
  assert.throws(() => verify(forged, { secret: undefined as unknown as string }), TypeError);
  assert.throws(() => generateTestHeaderString({ payload: body, secret: '' }), TypeError);
  assert.throws(() => generateTestDelivery({ event: { type: 'payment.completed' }, secret: '' }), TypeError);
});

test('generateTestHeaderString is the header a delivery carries: t=<timestamp>,v1=<the rule>, from a string or its bytes', () => {
  const header = generateTestHeaderString({ payload: body, secret, timestamp: T });
  assert.equal(header, `t=${T},v1=${hmac(secret, T, body)}`);
  assert.equal(generateTestHeaderString({ payload: Buffer.from(body, 'utf8'), secret, timestamp: T }), header);
  assert.equal(generateTestHeaderString({ payload: new Uint8Array(Buffer.from(body, 'utf8')), secret, timestamp: T }), header);
  assert.equal(signPayload(secret, body, T), header, 'the same function the emulator signs with');
  assert.deepEqual(verify(header), { ok: true, timestamp: T });
  // A fraction of a second is floored (Date.now() / 1000 passed as is).
  assert.equal(generateTestHeaderString({ payload: body, secret, timestamp: T + 0.9 }), header);
});

test('generateTestHeaderString: the timestamp defaults to now, in seconds', () => {
  const before = Math.floor(Date.now() / 1000);
  const header = generateTestHeaderString({ payload: body, secret });
  const after = Math.floor(Date.now() / 1000);
  const t = Number(/^t=(\d+),v1=[0-9a-f]{64}$/.exec(header)?.[1]);
  assert.ok(t >= before && t <= after, `t=${t} within [${before}, ${after}]`);
  assert.equal(header, `t=${t},v1=${hmac(secret, t, body)}`);
  assert.equal(verifySignature({ secret, header, body, now: t }).ok, true);
});

test('generateTestHeaderString: scheme and signature overrides make the headers a handler must refuse', () => {
  const v2 = generateTestHeaderString({ payload: body, secret, timestamp: T, scheme: 'v2' });
  assert.equal(v2, `t=${T},v2=${hmac(secret, T, body)}`);
  refused(verify(v2), 'bad_format', /no v1= signature/);
  const forged = generateTestHeaderString({ payload: body, secret, timestamp: T, signature: wrongSig('forged') });
  assert.equal(forged, `t=${T},v1=${wrongSig('forged')}`);
  refused(verify(forged), 'no_matching_signature');
  const garbage = generateTestHeaderString({ payload: body, secret, timestamp: T, signature: 'not-a-signature' });
  assert.equal(garbage, `t=${T},v1=not-a-signature`);
  refused(verify(garbage), 'bad_format');
  // Stale and future headers for the handler's tolerance check.
  refused(verify(generateTestHeaderString({ payload: body, secret, timestamp: T - 301 })), 'too_old');
  refused(verify(generateTestHeaderString({ payload: body, secret, timestamp: T + 301 })), 'too_new');
});

test('generateTestHeaderString refuses a timestamp in milliseconds, a negative one, and a scheme that would change the header’s shape', () => {
  assert.throws(() => generateTestHeaderString({ payload: body, secret, timestamp: T * 1000 }), /milliseconds/);
  assert.throws(() => generateTestHeaderString({ payload: body, secret, timestamp: -1 }), RangeError);
  assert.throws(() => generateTestHeaderString({ payload: body, secret, timestamp: Number.NaN }), RangeError);
  for (const scheme of ['t', 'v1,v1', 'v1=x', '', 'v 1']) {
    assert.throws(() => generateTestHeaderString({ payload: body, secret, timestamp: T, scheme }), RangeError, JSON.stringify(scheme));
  }
});

test('generateTestDelivery: an event object is serialized once; that exact text is signed and sent with the delivery headers', () => {
  const event = { type: 'payment.completed', createdAt: '2026-11-21T12:00:00Z', data: { payment: { id: 'pay_1', description: 'café ☕' } } };
  const d = generateTestDelivery({ event, secret, timestamp: T, deliveryId: 'dlv_retry_1' });
  assert.equal(d.body, JSON.stringify(event));
  assert.deepEqual(d.headers, {
    'content-type': 'application/json',
    'svc-signature': `t=${T},v1=${hmac(secret, T, d.body)}`,
    'svc-event': 'payment.completed',
    'svc-delivery': 'dlv_retry_1',
  });
  assert.deepEqual(verifySignature({ secret, header: d.headers['svc-signature'], body: d.body, now: T }), { ok: true, timestamp: T });

  // Without an id, each delivery gets a fresh one (a retry is the same id: pass it).
  const a = generateTestDelivery({ event, secret, timestamp: T });
  const b = generateTestDelivery({ event, secret, timestamp: T });
  assert.match(a.headers['svc-delivery'], /^dlv_test_[0-9a-f]{16}$/);
  assert.notEqual(a.headers['svc-delivery'], b.headers['svc-delivery']);
});

test('generateTestDelivery: a raw payload is sent as given (string or bytes), with the type it is told', () => {
  const bytes = Buffer.from(body, 'utf8');
  const d = generateTestDelivery({ payload: bytes, type: 'payment.completed', secret, timestamp: T });
  assert.equal(d.body, bytes, 'the very bytes, not a copy or a re-encoding');
  assert.equal(d.headers['svc-signature'], `t=${T},v1=${hmac(secret, T, bytes)}`);
  assert.equal(d.headers['svc-event'], 'payment.completed');
  const s = generateTestDelivery({ payload: body, type: 'payment.completed', secret, timestamp: T });
  assert.equal(s.body, body);
  assert.equal(s.headers['svc-signature'], d.headers['svc-signature']);
  assert.throws(() => generateTestDelivery({ payload: body, type: '', secret }), TypeError);
  assert.throws(() => generateTestDelivery({ event: { type: '' }, secret }), TypeError);
});

// Compile-time checks (never run): the options are typed, and the body keeps its type.
export function typeChecks(): void {
  const fromEvent: string = generateTestDelivery({ event: { type: 'payment.completed', data: { id: 'pay_1' } }, secret }).body;
  const fromBytes: Buffer = generateTestDelivery({ payload: Buffer.from('{}'), type: 'payment.completed', secret }).body;
  // @ts-expect-error a raw payload needs its event type
  generateTestDelivery({ payload: '{}', secret });
  // @ts-expect-error an event needs a type
  generateTestDelivery({ event: { data: {} }, secret });
  // @ts-expect-error the payload is text or bytes, not an object
  generateTestHeaderString({ payload: { type: 'x' }, secret });
  void fromEvent;
  void fromBytes;
  // A test delivery goes to fetch or node:http as it is.
  const d = generateTestDelivery({ event: { type: 'payment.completed' }, secret });
  void fetch('http://127.0.0.1:1/webhooks', { method: 'POST', headers: d.headers, body: d.body });
  void httpRequest('http://127.0.0.1:1/webhooks', { method: 'POST', headers: d.headers }).end(d.body);
}
