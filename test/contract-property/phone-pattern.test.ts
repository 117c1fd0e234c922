import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PHONE_PATTERN } from '../../contract/phone.js';
import { normalizePhone } from '../../emulator/resources/users/phone.js';
import { stringMatching } from './regex-gen.js';
import { runSeed, seededRng } from './seeded.js';

// The document's phone pattern (contract/phone.ts) and the emulator's normalizePhone must accept
// exactly the same strings: the pattern is what a client reads, normalizePhone what matching
// (payroll lines, OTPs, wallet approvals) uses. Two draws: strings made from the pattern itself,
// and strings of digits, +, separators and a stray letter, which mostly miss.

const re = new RegExp(PHONE_PATTERN, 'u');

test('every string the phone pattern generates normalizes to E.164', (t) => {
  const seed = runSeed();
  t.diagnostic(`seed ${seed}`);
  const rng = seededRng(seed);
  for (let i = 0; i < 3000; i++) {
    const s = stringMatching(PHONE_PATTERN, rng);
    assert.ok(re.test(s), `seed ${seed}: the generator made ${JSON.stringify(s)}, which the pattern refuses`);
    assert.match(normalizePhone(s) ?? '', /^\+[1-9]\d{7,14}$/, `seed ${seed}: ${JSON.stringify(s)}`);
  }
});

test('the pattern and normalizePhone agree on near misses', (t) => {
  const seed = runSeed();
  t.diagnostic(`seed ${seed}`);
  const rng = seededRng(seed);
  const alphabet = ['0', '0', '1', '2', '3', '1', '9', '5', '+', ' ', '-', '(', ')', '.', '\t', 'a'];
  for (let i = 0; i < 50_000; i++) {
    let s = Array.from({ length: rng.int(1, 20) }, () => rng.pick(alphabet)).join('');
    if (rng.chance(0.3)) s = rng.pick(['+', '00', '0', '231', '']) + s.replace(/\D/g, '');
    assert.equal(re.test(s), normalizePhone(s) !== undefined, `seed ${seed}: ${JSON.stringify(s)}`);
  }
});
