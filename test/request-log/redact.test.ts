import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { clean, isSecretName, redactBody, redactPath, redactRequest, type HeldSecrets } from '../../contract/redact.js';
import { newTraceId } from '../../src/client/http.js';
import { runSeed, seededRng, type Rng } from '../contract-property/seeded.js';

// The redaction rules (contract/redact.ts) on their own: random JSON bodies with
// secrets planted among near misses must come out with none of the secrets and every plain
// value as it was (the quick tests that spare most bodies the parse must never let one through),
// and each rule of issues 37 and 46 shown alone. The HTTP test (request-log/secrets.test.ts) greps
// every surface for the same kinds of secret.

const KEY = 'svc_test_acme0all0scopes0000000000001';

/** A Luhn-valid card number of `length` digits. */
function card(rng: Rng, length: number): string {
  const digits = [rng.int(1, 9), ...Array.from({ length: length - 2 }, () => rng.int(0, 9))];
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits[digits.length - 1 - i];
    if (i % 2 === 0 && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

const ZERO_WIDTH = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'];
/** The card as a person (or someone hiding it) might type it: grouped by separators, or in full-width digits. */
function spelled(rng: Rng, digits: string): string {
  const form = rng.int(0, 9);
  if (form === 0) return digits;
  if (form === 1) return String.fromCharCode(...[...digits].map((d) => 0xff10 + Number(d)));
  const sep = [' ', '-', '.', '\u00a0', ':', '|', rng.pick(ZERO_WIDTH), ' - - ', '\t \t \t '][form - 2];
  return digits.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
}

/** Every word of issue 46's list (and a few more of ours), in every case style. */
const SECRET_WORDS = [
  ['key'], ['api', 'key'], ['secret'], ['token'], ['password'], ['pwd'], ['passcode'], ['pin'], ['otp'], ['one', 'time', 'code'],
  ['cvv'], ['cvc'], ['security', 'code'], ['card'], ['card', 'number'], ['pan'], ['session'], ['session', 'id'], ['authorization'],
  ['access', 'token'], ['client', 'secret'], ['new', 'password'], ['user', 'pin'], ['signing', 'secret'], ['credentials'],
];
const STYLES: Array<(w: string[]) => string> = [
  (w) => w.join('_'),
  (w) => w.join('_').toUpperCase(),
  (w) => w.map((x, i) => (i === 0 ? x : x[0]!.toUpperCase() + x.slice(1))).join(''),
  (w) => w.map((x) => x[0]!.toUpperCase() + x.slice(1)).join(''),
  (w) => w.join('-'),
  (w) => w.join(' '),
  (w) => w.map((x) => x[0]!.toUpperCase() + x.slice(1)).join(' '),
  (w) => w.join('.'),
];
const secretName = (rng: Rng) => rng.pick(STYLES)(rng.pick(SECRET_WORDS));
/** Near misses: the words inside other words, names that end in what is shown on purpose, and `code` over values that are not 4-8 digits. */
const PLAIN_NAMES = ['title', 'amount', 'note', 'status', 'shipping_address', 'company', 'spinner', 'monkey', 'keyboard', 'discard', 'japan', 'tokenizer', 'pinned', 'expand', 'idempotency_key', 'idempotencyKey', 'card_last4', 'cardBrand', 'fleet_card_id', 'key_name', 'secret_hint', 'error_code', 'link_code', 'reference'];
/** Values that must come back as they went in: ids of every kind, times, addresses. (Not phone numbers: about 1 in 10 of 12+ digits passes Luhn.) */
function plainValue(rng: Rng): string | number | boolean | null {
  const kind = rng.int(0, 10);
  if (kind === 0) return randomUUID();
  if (kind === 1) return newTraceId();
  if (kind === 2) return `pay_${Array.from({ length: 20 }, () => rng.pick([...'abcdefXYZ0123456789'])).join('')}`;
  if (kind === 3) return `req_${rng.int(10 ** 15, 10 ** 16 - 1)}${rng.int(1000, 9999)}`;
  if (kind === 4) return new Date(rng.int(0, 4e12)).toISOString().replace('Z', `${rng.int(100, 999)}Z`);
  if (kind === 5) return `${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(0, 255)}:${rng.int(1, 65535)}`;
  if (kind === 6) return `PL-${rng.int(20_000_000, 99_999_999)}`;
  return rng.pick(['hello', 'Request log probe', 'USD', 'pending', 42, 150, true, null]);
}

interface Planted {
  body: unknown;
  secrets: string[];
  plain: string[];
}

function plant(rng: Rng, depth = 0): Planted {
  const out: Record<string, unknown> = {};
  const secrets: string[] = [];
  const plain: string[] = [];
  for (let i = rng.int(1, 5); i > 0; i--) {
    const kind = rng.int(0, depth > 2 ? 5 : 6);
    const taken = new Set(Object.keys(out));
    if (kind === 0) {
      const value = String(rng.int(8_000_000, 8_999_999));
      out[unique(taken, `${secretName(rng)}${rng.chance(0.3) ? i : ''}`)] = rng.chance(0.5) ? value : Number(value);
      secrets.push(value);
    } else if (kind === 1) {
      // A code of 4-8 digits under any name holding the word `code`.
      const value = String(rng.int(1000, 99_999_999));
      out[unique(taken, rng.pick(['code', 'otpCode', 'sms_code', 'Code', 'confirmation-code']))] = rng.chance(0.5) ? value : Number(value);
      secrets.push(value);
    } else if (kind === 2) {
      const digits = card(rng, rng.int(12, 19));
      const asNumber = digits.length <= 15 && rng.chance(0.5);
      out[unique(taken, `${rng.pick(PLAIN_NAMES)}${i}`)] = asNumber ? Number(digits) : `${rng.pick(['', 'card ', 'ref 12 ', 'x'])}${spelled(rng, digits)}`;
      secrets.push(digits.slice(0, -4));
    } else if (kind === 3) {
      const key = rng.pick([KEY, 'svc_live_acme0all0scopes0000000000009', 'svc_ctl_Ab-_0123456789abcdefXYZ0123456789ab']);
      out[unique(taken, `note${i}`)] = `sent with ${key} by mistake`;
      secrets.push(key);
    } else if (kind === 4 || kind === 5) {
      const value = plainValue(rng);
      out[unique(taken, `${rng.pick(PLAIN_NAMES)}${rng.chance(0.3) ? i : ''}`)] = value;
      if (typeof value === 'string') plain.push(value);
    } else {
      const inner = plant(rng, depth + 1);
      out[unique(taken, `nested${i}`)] = rng.chance(0.5) ? inner.body : [inner.body];
      secrets.push(...inner.secrets);
      plain.push(...inner.plain);
    }
  }
  return { body: out, secrets, plain };
}

/** `name`, or with a suffix when the object has it already (a value written twice would hide the first). */
function unique(taken: Set<string>, name: string): string {
  let out = name;
  for (let n = 0; taken.has(out); n++) out = `${name}${n}`;
  return out;
}

/** The digits of a text, full-width ones read as digits and separators gone: a secret hides in no spelling. */
const digitsOf = (text: string) => text.normalize('NFKC').replace(/[^\d]/g, (c) => (/[\s\-.,_/:|\u200b-\u200d\u2060\ufeff]/.test(c) ? '' : '|'));

test('random bodies: no planted secret survives in any spelling, every plain value (ids, times, addresses) does, byte for byte', () => {
  const seed = runSeed();
  const rng = seededRng(seed);
  for (let i = 0; i < 3000; i++) {
    const { body, secrets, plain } = plant(rng);
    const text = JSON.stringify({ success: true, data: body }, null, rng.chance(0.3) ? 2 : undefined);
    for (const out of [redactBody(text)!, redactRequest(text, JSON.parse(text))!]) {
      for (const s of secrets) {
        const hidden = /^\d+$/.test(s) ? !digitsOf(out).includes(s) : !out.includes(s);
        assert.ok(hidden, `seed ${seed}, body ${i}: ${s} survived in ${out}`);
      }
      for (const p of plain) assert.ok(out.includes(JSON.stringify(p).slice(1, -1)), `seed ${seed}, body ${i}: ${p} was changed in ${out}`);
    }
  }
});

test('one word list on whole words: every listed word in every case style is secret, the same letters inside other words are not', () => {
  for (const words of SECRET_WORDS) {
    for (const style of STYLES) {
      const name = style(words);
      assert.equal(isSecretName(name, 'x'), true, name);
      assert.equal(isSecretName(`${name}2`, 'x'), true, `${name}2`);
      assert.equal(redactRequest(`${encodeURIComponent(name)}=hunter2`, undefined), `${encodeURIComponent(name)}=[redacted]`, name);
    }
  }
  // The issue's own example: a JSON api_key is redacted; shipping_address and ?shipping= are not.
  assert.equal(redactRequest('{"api_key":"sk_live_0123456789"}', { api_key: 'sk_live_0123456789' }), '{"api_key":"[redacted]"}');
  assert.equal(redactPath('/v1/api/payments?shipping=door&company=acme'), '/v1/api/payments?shipping=door&company=acme');
  const plain = '{"shipping_address":"12 Broad St","company":"Acme","idempotency_key":"k-1","card_last4":"4242","fleet_card_id":"fc_0123456789abcdefXYZ","secret_hint":"Xy9a","error_code":"LINK_CLOSED","link_code":"PL-ABCD2345"}';
  assert.equal(redactRequest(plain, JSON.parse(plain)), plain);
  for (const name of PLAIN_NAMES) assert.equal(isSecretName(name, 'hello'), false, name);
  // `code` is secret when it holds 4-8 digits (an OTP, a PIN), whatever its case style; not otherwise.
  for (const [value, secret] of [['1234', true], [12345678, true], ['０１２３４５', true], ['123', false], ['123456789', false], ['LINK_CLOSED', false], [42, false]] as const) {
    assert.equal(isSecretName('code', value), secret, `code: ${value}`);
    assert.equal(isSecretName('smsCode', value), secret, `smsCode: ${value}`);
  }
  assert.equal(redactPath('/v1/api/payments?code=482913&error_code=LINK_CLOSED'), '/v1/api/payments?code=[redacted]&error_code=LINK_CLOSED');
  assert.equal(redactRequest('code: 482913\ncode: ABC', undefined), 'code: [redacted]\ncode: ABC');
});

test('ids are never a card: 200,000 random UUIDs and CLI trace ids, emulator ids and times come back byte for byte; a card-shaped or key-shaped one does not', () => {
  const rng = seededRng(runSeed());
  for (let i = 0; i < 100_000; i++) {
    for (const id of [randomUUID(), newTraceId()]) assert.equal(clean(id), id);
  }
  // A UUID whose digit runs pass Luhn, in a sentence, a path and a body (what the issue found masked).
  const luhnUuid = '41111111-1111-1111-4111-111111111111';
  for (const id of [luhnUuid, 'trc_cli_41111111111111111111', 'pay_4111111111111111xYz', 'req_202611251755318740030000', '2026-11-25T17:55:31.874003Z', '17:55:31.874003', '192.168.100.200:54321']) {
    assert.equal(clean(id), id);
    assert.equal(clean(`ids ${id}, ${id}`), `ids ${id}, ${id}`);
    assert.equal(redactPath(`/v1/api/payments/${id}?after=${id}`), `/v1/api/payments/${id}?after=${id}`);
    const body = JSON.stringify({ idempotency_key: id, note: `see ${id}` });
    assert.equal(redactRequest(body, JSON.parse(body)), body);
  }
  // Card-shaped or key-shaped: masked, in or out of an id-like place.
  for (let i = 0; i < 200; i++) {
    const digits = card(rng, 16);
    for (const hidden of [digits, `ref-${digits}`, `x${digits}99`, `card_${digits}`, spelled(rng, digits)]) {
      assert.ok(!digitsOf(clean(hidden)).includes(digits.slice(0, 12)), `${hidden} → ${clean(hidden)}`);
    }
  }
  assert.equal(clean(KEY), 'svc_test_…0001');
  assert.equal(clean('svc_ctl_Ab-_0123456789abcdefXYZ0123456789ab'), 'svc_ctl_…89ab');
});

test('cards split by zero-width spaces, colons, pipes and runs of separators are found, in full-width digits too', () => {
  for (const spelledCard of [
    '4111\u200b1111\u200b1111\u200b1111',
    '4111\u200d1111\u2060111\ufeff11111',
    '4111:1111:1111:1111',
    '4111|1111|1111|1111',
    '4111 | 1111 | 1111 | 1111',
    '4111 - - 1111 - - 1111 - - 1111',
    '4111\t\t\t\t1111\t\t\t\t1111\t\t\t\t1111',
    '４１１１：１１１１：１１１１：１１１１',
    '4-1-1-1-1-1-1-1-1-1-1-1-1-1-1-1',
  ]) {
    for (const out of [clean(spelledCard), redactPath(`/v1/x?note=${encodeURIComponent(spelledCard)}`), redactRequest(JSON.stringify({ note: spelledCard }), { note: spelledCard })!]) {
      assert.ok(!digitsOf(decodeURIComponent(out)).includes('411111111111'), `${JSON.stringify(spelledCard)} → ${out}`);
      assert.ok(digitsOf(decodeURIComponent(out)).includes('1111'), `the last 4 stay: ${out}`);
    }
  }
});

test('a phone after its + is never a card, a card after a + or beside a phone still is', () => {
  // +231395990881's 12 digits pass Luhn: the card rule once masked it (about 1 in 10 such phones).
  for (const phone of ['+231770000201', '+231395990881', '+231 39 599 0881', '+231-39-599-0881', '+231.395.990.881', '+ 231 395990881']) {
    assert.equal(clean(phone), phone);
    assert.equal(clean(`call ${phone}, or ${phone} after 5`), `call ${phone}, or ${phone} after 5`);
    const body = JSON.stringify({ manager_phone: phone });
    assert.equal(redactRequest(body, JSON.parse(body)), body);
    assert.equal(redactPath(`/_emulator/otp/${encodeURIComponent(phone).replace(/%2B/g, '+')}`), `/_emulator/otp/${encodeURIComponent(phone).replace(/%2B/g, '+')}`, 'a + in a path is a +');
    assert.equal(redactPath(`/x?phone=${encodeURIComponent(phone)}`), `/x?phone=${encodeURIComponent(phone)}`);
  }
  // More than 15 digits after the + is no phone; digits after the phone are read on their own.
  for (const text of ['+4111111111111111', '+4111 1111 1111 1111', '4111+1111+1111+1111', '+231770000201 4111111111111111', '+231770000201|4111111111111111', '+231770000201, 4111-1111-1111-1111']) {
    assert.ok(!digitsOf(clean(text)).includes('411111111111'), `${text} → ${clean(text)}`);
  }
  assert.equal(clean('+231770000201|4111111111111111'), '+231770000201|************1111');
});

test('a secret the emulator holds (an endpoint secret, the control token) is masked wherever it sits, whatever the name', () => {
  const endpointSecret = 'Qm9vdHN0cmFwX3NlY3JldF9vZl9mb3J0eV90aHJlZTA';
  const token = 'tok_0123456789abcdef_network_door';
  assert.equal(endpointSecret.length, 43);
  const held: HeldSecrets = { holds: (t) => t.includes(token) || t.includes(endpointSecret) };
  for (const [text, secret] of [
    [`/v1/api/payments?x=${endpointSecret}`, endpointSecret],
    [`/v1/api/payments/${endpointSecret}`, endpointSecret],
    [`/dashboard/${token}`, token],
  ]) {
    const out = redactPath(text, held);
    assert.ok(!out.includes(secret), out);
    assert.ok(out.includes(secret.slice(-4)), out);
  }
  const body = JSON.stringify({ note: `whsec ${endpointSecret}`, nested: [{ any: token }] });
  const out = redactRequest(body, JSON.parse(body), held)!;
  assert.ok(!out.includes(endpointSecret) && !out.includes(token), out);
  assert.equal(clean(`sent ${endpointSecret} and ${token}`, held), `sent …${endpointSecret.slice(-4)} and …door`);
  // Without the emulator's list, nothing of the shape alone is masked (it has no fixed shape).
  assert.equal(clean(`sent ${endpointSecret}`), `sent ${endpointSecret}`);
});

test('a body with nothing to redact is kept byte for byte, layout included, also when a word only looks like a secret name', () => {
  for (const text of ['{\n  "title": "Plain",\n  "amount": 500,\n  "phone": "+231770000100"\n}', '{\n  "shipping_address": "12 Broad St",\n  "idempotency_key": "k-1"\n}']) {
    assert.equal(redactRequest(text, JSON.parse(text)), text);
    assert.equal(redactBody(text), text);
  }
});

test('the examples of issue 37, each alone', () => {
  const cases: Array<[string, string | null, string]> = [
    // [what was sent, request body (null: the path), the secret]
    ['/v1/api/payments?api_key=' + KEY, null, KEY],
    ['/v1/api/payments?apiKey=abc123&limit=2', null, 'abc123'],
    ['/v1/api/payments?Card-Number=4111111111111111', null, '4111111111'],
    ['/v1/api/payments?note=4111%201111%201111%201111', null, '4111'],
    ['/v1/api/payments/' + KEY, null, KEY],
    ['/v1/api/payments?p%69n=2718', null, '2718'],
    ['/v1/api/payments?otp%20code=2718', null, '2718'],
    ['', '{"metadata":{"card":4111111111111111,"userPin":"7392"}}', '7392'],
    ['', '{"metadata":{"card":4111111111111111,"userPin":"7392"}}', '41111111'],
    ['', 'title=t&pin=2718', '2718'],
    ['', 'title=t&p%69n=2718', '2718'],
    ['', '{"title": "x", "pin": "975318",', '975318'],
    ['', 'pin: 2718\ntitle: t', '2718'],
    ['', '{"note":"４１１１ １１１１ １１１１ １１１１"}', '１１１１ １１１１ １１１１ １'],
    ['', '{"note":"4111.1111.1111.1111"}', '4111.1111'],
    ['', '{"note":"4111\u00a01111\u00a01111\u00a01111"}', '4111\u00a01111'],
    ['', '{"note":"order 12 4111111111111111"}', '411111111111'],
    ['', '{"n":41111111111111111111}', '4111111111111111'],
  ];
  for (const [path, body, secret] of cases) {
    const out = body === null ? redactPath(path) : redactRequest(body, parsedOrUndefined(body));
    assert.ok(out !== null && !out.includes(secret), `${path}${body ?? ''}: ${secret} survived in ${out}`);
  }
  assert.equal(redactPath('/v1/api/payments?api_key=' + KEY), '/v1/api/payments?api_key=[redacted]');
  assert.equal(redactRequest('title=t&pin=2718', undefined), 'title=t&pin=[redacted]');
  // `card` is a secret name of its own (issue 46): its value goes whole, not only its digits.
  assert.equal(redactRequest('{"metadata":{"card":4111111111111111,"userPin":"7392"}}', JSON.parse('{"metadata":{"card":4111111111111111,"userPin":"7392"}}')), '{"metadata":{"card":"[redacted]","userPin":"[redacted]"}}');
  assert.equal(redactRequest('{"metadata":{"note":4111111111111111}}', JSON.parse('{"metadata":{"note":4111111111111111}}')), '{"metadata":{"note":"************1111"}}');
  // An escape spells a name the text rules cannot read in text that is not JSON: none of it is kept.
  assert.equal(redactRequest('{"p\\u0069n":"975318",', undefined), '[withheld: not JSON, and it may hold a secret]');
  // Plain paths and queries stay as sent.
  for (const plain of ['/v1/api/payments', '/v1/api/payments?limit=20&status=completed', '/v1/api/payments/pay_3fd76f81', '/v1/api/payment-links?x=1234567890123']) assert.equal(redactPath(plain), plain);
});

function parsedOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
