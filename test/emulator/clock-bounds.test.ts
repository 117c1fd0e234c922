import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { EmulatorClock, MAX_CLOCK_MS } from '../../emulator/clock.js';

// The clock stays where dates and creation stamps are exact (up to 2200): an absurd advance is refused (422) and
// leaves the emulator working, instead of making every later write a 500.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator({ clockStart: Date.parse('2026-05-05T08:00:00.000Z') });
});
after(() => emu.stop());

const advance = (body: unknown) => emu.request('POST', '/_emulator/clock/advance', { key: null, body });
const createLink = () => emu.request('POST', '/v1/api/payment-links', { body: { title: 'after', amount: 100, currency: 'USD' }, idempotencyKey: idem('pl') });

test('an advance past 2200 gets 422 naming its field, and the clock does not move', async () => {
  for (const [body, field] of [
    [{ ms: 8_640_000_000_000_000 }, 'ms'],
    [{ ms: Number.MAX_SAFE_INTEGER }, 'ms'],
    [{ by: '99999999999d' }, 'by'],
    [{ by: `${'9'.repeat(400)}d` }, 'by'],
  ] as const) {
    const res = await advance(body);
    assert.equal(res.status, 422, res.text);
    assert.equal(res.json.error.code, 'VALIDATION_ERROR');
    assert.match(res.json.error.message, new RegExp(`^${field}: would move the clock past 2200-01-01T00:00:00.000Z`));
  }
  const clock = await emu.request('GET', '/_emulator/clock', { key: null });
  assert.equal(clock.json.data.now, '2026-05-05T08:00:00.000000Z');
  const link = await createLink();
  assert.equal(link.status, 201, link.text);
});

test('the clock can be moved to its very end (2200-01-01), and writes still work there', async () => {
  const now = Date.parse((await emu.request('GET', '/_emulator/clock', { key: null })).json.data.now);
  const res = await advance({ ms: MAX_CLOCK_MS - now });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.data.now, '2200-01-01T00:00:00.000000Z');
  const link = await createLink();
  assert.equal(link.status, 201, link.text);
  assert.match(link.json.data.created_at, /^2200-01-01T00:00:00\.000/);
  // Not one millisecond further.
  const over = await advance({ ms: 1 });
  assert.equal(over.status, 422, over.text);
  assert.equal((await createLink()).status, 201);
});

test('a start time outside the representable range is refused', () => {
  assert.throws(() => new EmulatorClock('manual', 8_640_000_000_000_001), /between 1970 and 2200-01-01T00:00:00.000Z/);
  assert.throws(() => new EmulatorClock('manual', MAX_CLOCK_MS + 1), /between 1970 and 2200-01-01T00:00:00.000Z/);
  const clock = new EmulatorClock('manual', MAX_CLOCK_MS - 5);
  assert.throws(() => clock.beginAdvance(6), /past 2200-01-01T00:00:00.000Z/);
  assert.equal(clock.now(), MAX_CLOCK_MS - 5);
});
