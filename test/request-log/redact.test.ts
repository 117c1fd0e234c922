import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactBody, redactPath, redactRequest } from '../../emulator/request-log/redact.js';
import { runSeed, seededRng, type Rng } from '../contract-property/seeded.js';

// The redaction rules (emulator/request-log/redact.ts) on their own: random JSON bodies with
// secrets planted among near misses must come out with none of the secrets and every plain
// value as it was (the quick tests that spare most bodies the parse must never let one through),
// and each rule of issue 37 shown alone. The HTTP test (request-log/secrets.test.ts) greps every
// surface for the same secrets.

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

/** The card as a person might type it: grouped by a separator, or in full-width digits. */
function spelled(rng: Rng, digits: string): string {
  const form = rng.int(0, 5);
  if (form === 0) return digits;
  if (form === 1) return String.fromCharCode(...[...digits].map((d) => 0xff10 + Number(d)));
  const sep = [' ', '-', '.', '\u00a0'][form - 2];
  return digits.replace(/(\d{4})(?=\d)/g, `$1${sep}`);
}

const SECRET_NAMES = ['pin', 'PIN', 'userPin', 'user_pin', 'user-pin', 'User Pin', 'otp', 'otpCode', 'secret', 'signing_secret', 'password', 'newPassword', 'token', 'accessToken', 'cvv', 'CVC'];
const PLAIN_NAMES = ['title', 'amount', 'note', 'status', 'code', 'error_code', 'key', 'currency', 'reference'];
const PLAIN_VALUES = ['hello', 'Request log probe', 'USD', '+231770000100', '1234567890123', 'pending', '2026-11-25T17:55:31.874003Z', 'pl_3fd76f81', 42, 150000, true, null];

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
    const kind = rng.int(0, depth > 2 ? 3 : 4);
    if (kind === 0) {
      const value = String(rng.int(8_000_000, 8_999_999));
      out[`${rng.pick(SECRET_NAMES)}${i}`] = rng.chance(0.5) ? value : Number(value);
      secrets.push(value);
    } else if (kind === 1) {
      const digits = card(rng, rng.int(12, 19));
      const asNumber = digits.length <= 15 && rng.chance(0.5);
      out[`${rng.pick(PLAIN_NAMES)}${i}`] = asNumber ? Number(digits) : `${rng.pick(['', 'card ', 'ref 12 '])}${spelled(rng, digits)}`;
      secrets.push(digits.slice(0, -4));
    } else if (kind === 2) {
      out[`note${i}`] = `sent with ${KEY} by mistake`;
      secrets.push(KEY);
    } else if (kind === 3) {
      const value = rng.pick(PLAIN_VALUES);
      out[`${rng.pick(PLAIN_NAMES)}${i}`] = value;
      if (typeof value === 'string') plain.push(value);
    } else {
      const inner = plant(rng, depth + 1);
      out[`nested${i}`] = rng.chance(0.5) ? inner.body : [inner.body];
      secrets.push(...inner.secrets);
      plain.push(...inner.plain);
    }
  }
  return { body: out, secrets, plain };
}

/** The digits of a text, full-width ones read as digits: a secret hides in no spelling. */
const digitsOf = (text: string) => text.normalize('NFKC').replace(/[^\d]/g, (c) => (/[\s\-.,_/]/.test(c) ? '' : '|'));

test('random bodies: no planted secret survives in any spelling, every plain value does', () => {
  const seed = runSeed();
  const rng = seededRng(seed);
  for (let i = 0; i < 2000; i++) {
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

test('a body with nothing to redact is kept byte for byte, layout included', () => {
  const text = '{\n  "title": "Plain",\n  "amount": 500,\n  "phone": "+231770000100"\n}';
  assert.equal(redactRequest(text, JSON.parse(text)), text);
  assert.equal(redactBody(text), text);
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
  assert.equal(redactRequest('{"metadata":{"card":4111111111111111,"userPin":"7392"}}', JSON.parse('{"metadata":{"card":4111111111111111,"userPin":"7392"}}')), '{"metadata":{"card":"************1111","userPin":"[redacted]"}}');
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
