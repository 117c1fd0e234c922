import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactBody, redactJson } from '../../emulator/request-log/redact.js';
import { runSeed, seededRng, type Rng } from '../contract-property/seeded.js';

// The quick tests that spare most bodies the parse and walk (redact.ts) must never let through a
// body the walk would change: for random JSON bodies full of near misses (field names that hold a
// sensitive word, digit runs around 13 digits, keys, quotes and colons inside values), the body
// as logged is exactly what the whole walk makes of it.

const KEYS = ['title', 'amount', 'pin', 'PIN', 'owner_pin', 'pin_hash', 'spin', 'pinned', 'pending', 'shipping', 'card_number', 'cardNumber', 'Number', 'phone_number', 'pan', 'company', 'span', 'secret', 'x_secret_y', 'secrets', 'otp', 'otp_code', 'verification_code', 'code', 'error_code', 'code_hash', 'password', 'cvv', 'cvc', 'metadata', 'note', 'id'];

function luhnCard(rng: Rng): string {
  const digits = Array.from({ length: 15 }, () => rng.int(0, 9));
  let sum = 0;
  for (let i = 0; i < 15; i++) {
    let d = digits[14 - i];
    if (i % 2 === 0 && (d *= 2) > 9) d -= 9;
    sum += d;
  }
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

function digitRun(rng: Rng): string {
  const n = rng.int(9, 20);
  let out = String(rng.int(1, 9));
  for (let i = 1; i < n; i++) out += (rng.chance(0.25) ? rng.pick([' ', '-', '  ', '--']) : '') + String(rng.int(0, 9));
  return out;
}

function text(rng: Rng): string {
  const parts = ['ok', 'pin": 1', '"secret":', 'svc_test_abc123', 'SVC_LIVE_X', 'svc_', '2026-11-25T17:48:42.692000Z', '3fd76f81-8052-44ed-88ad-6754f55f2b06', 'card', '\\"pan\\":', 'é', '\u0012', '\u001f', '\\'];
  let out = '';
  for (let i = rng.int(0, 3); i > 0; i--) out += rng.pick([...parts, digitRun(rng), luhnCard(rng), ' ']);
  return out;
}

function value(rng: Rng, depth: number): unknown {
  const kind = rng.int(0, depth > 2 ? 4 : 6);
  if (kind === 0) return null;
  if (kind === 1) return rng.chance(0.5);
  if (kind === 2) return rng.chance(0.3) ? Number(luhnCard(rng).slice(0, 15)) : rng.int(0, 1e6);
  if (kind <= 4) return text(rng);
  if (kind === 5) return Array.from({ length: rng.int(0, 3) }, () => value(rng, depth + 1));
  const out: Record<string, unknown> = {};
  for (let i = rng.int(0, 4); i > 0; i--) out[rng.chance(0.2) ? text(rng) : rng.pick(KEYS)] = value(rng, depth + 1);
  return out;
}

test('a body the quick tests keep as it is is one the whole walk would not change', () => {
  const seed = runSeed();
  const rng = seededRng(seed);
  for (let i = 0; i < 3000; i++) {
    const body = JSON.stringify({ success: true, data: value(rng, 0) });
    assert.equal(redactBody(body), redactJson(JSON.parse(body)), `seed ${seed}, body ${i}: ${body}`);
  }
});

test('what the quick tests must catch, each alone in an otherwise plain body', () => {
  const cases: Array<[unknown, string]> = [
    [{ note: 'card 4242 4242 4242 4242' }, '4242 4242 4242 4242'],
    [{ note: '4-2-4-2-4-2-4-2-4-2-4-2-4-2-4-2' }, '4-2-4-2-4-2-4-2-4-2-4-2-4-2-4-2'],
    [{ n: 12345, note: 'x4242424242424242y' }, '4242424242424242'],
    [{ Owner_PIN: '1234' }, '1234'],
    [{ signing_secret: 'whsec_abc' }, 'whsec_abc'],
    [{ card_number: 4242424242424242 }, '4242424242424242'],
    [{ code_hash: 'abc' }, 'abc'],
    [{ verification_code: '777111' }, '777111'],
    [{ note: 'key svc_test_acme0all0scopes0000000000001' }, 'svc_test_acme0all0scopes0000000000001'],
    // An escape in front of a card moves where the text's digit runs start (\u0012 adds "0012").
    [{ note: '\u00124242424242424242' }, '4242424242424242'],
  ];
  for (const [data, secret] of cases) {
    const body = JSON.stringify({ data });
    assert.ok(!redactBody(body)!.includes(secret), `${secret} survived: ${redactBody(body)}`);
  }
});
