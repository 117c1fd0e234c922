import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { advance, iso, M, S } from './clock-control.js';

// OTP expiry and the OTP lockout at their boundaries, to the millisecond, with the clock moved
// through the control API. Both are times stored on the record (expires_at, locked_until_ms)
// compared with the one clock when a code is used, so they need no timer: nothing to re-arm
// after a restart, and nothing that can fire early or late.

const T0 = Date.parse('2026-07-03T09:00:00.000Z');
let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator({ clockStart: T0 });
});
after(() => emu.stop());

const start = (phone: string) => emu.request('POST', '/v1/api/sub-merchants/start', { body: { manager_phone: phone } });
const complete = (phone: string, otp: string) => emu.request('POST', '/v1/api/sub-merchants/complete', { body: { merchant_name: `Branch ${phone.slice(-3)}`, manager_phone: phone, otp } });
async function latest(phone: string): Promise<{ code: string; sent_at: string; expires_at: string }> {
  const res = await emu.request('GET', `/_emulator/otp/${encodeURIComponent(phone)}`, { key: null });
  assert.equal(res.status, 200, res.text);
  return res.json.data.messages[0];
}
const now = async () => Date.parse((await emu.request('GET', '/_emulator/clock', { key: null })).json.data.now);

test('a code is good 1 ms before expires_at and expired at expires_at', async () => {
  const early = '+231770000711';
  assert.equal((await start(early)).status, 200);
  const a = await latest(early);
  assert.equal(Date.parse(a.expires_at) - Date.parse(a.sent_at), 300 * S);
  await advance(emu.baseUrl, { ms: Date.parse(a.expires_at) - (await now()) - 1 });
  assert.equal((await complete(early, a.code)).status, 201, 'still valid 1 ms before');

  const late = '+231770000712';
  assert.equal((await start(late)).status, 200);
  const b = await latest(late);
  await advance(emu.baseUrl, { ms: Date.parse(b.expires_at) - (await now()) });
  const res = await complete(late, b.code);
  assert.equal(res.status, 422);
  assert.equal(res.json.error.code, 'OTP_EXPIRED');
  assert.equal(res.json.error.message, `The code expired at ${b.expires_at}; call start to send a new one.`);
});

test('the lockout after five wrong codes ends exactly 15 minutes later', async () => {
  const phone = '+231770000713';
  assert.equal((await start(phone)).status, 200);
  const { code } = await latest(phone);
  const wrong = code === '111111' ? '222222' : '111111';
  for (let i = 0; i < 4; i++) assert.equal((await complete(phone, wrong)).json.error.code, 'OTP_INVALID');
  const lockedAt = await now();
  const fifth = await complete(phone, wrong);
  assert.equal(fifth.status, 423);
  assert.match(fifth.json.error.message, new RegExp(`locked until ${iso(lockedAt + 15 * M).replace(/\./g, '\\.')}`));
  await advance(emu.baseUrl, { ms: 15 * M - 1 });
  assert.equal((await start(phone)).json.error?.code, 'OTP_LOCKED', 'still locked 1 ms before');
  await advance(emu.baseUrl, { ms: 1 });
  assert.equal((await start(phone)).status, 200, 'unlocked at locked_until');
  assert.equal((await complete(phone, (await latest(phone)).code)).status, 201);
});
