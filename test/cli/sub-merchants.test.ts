import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cliSession, familySmokeTest } from './cli.js';

// sub-merchants start|create|list without a terminal (in-process): the OTP comes from a flag, and a missing
// one is a usage error naming --otp, before anything is sent.

const cli = cliSession();
const { svc } = cli;

test('sub-merchants: create without --otp and without a terminal is refused before anything is sent', async () => {
  const r = await svc(['sub-merchants', 'create', '--name', 'Station 7', '--phone', '+231770000202']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /missing --otp/);
  const inbox = await cli.emu.request('GET', `/_emulator/otp/${encodeURIComponent('+231770000202')}`, { key: null });
  assert.deepEqual(inbox.json.data.messages, [], 'no OTP was sent');
});

test('sub-merchants: start, read the OTP from the emulator, create --otp, list', async () => {
  const started = await svc(['sub-merchants', 'start', '--phone', '+231770000201', '--json'], undefined, familySmokeTest);
  assert.equal(started.code, 0, started.stderr);
  assert.match(started.json().masked_phone, /0201$/);
  const otp = await cli.run(['emulator', 'otp', '+231770000201', '--json', '--base-url', cli.emu.baseUrl]);
  assert.equal(otp.code, 0, otp.stderr);
  const code = otp.json().messages[0].code;
  const created = await svc(['sub-merchants', 'create', '--name', 'Station 7', '--phone', '+231770000201', '--otp', code, '--json']);
  assert.equal(created.code, 0, created.stderr);
  assert.equal(created.json().merchant_name, 'Station 7');
  const list = (await svc(['sub-merchants', 'list', '--json'])).json();
  assert.deepEqual(list, (await cli.emu.request('GET', '/v1/api/sub-merchants')).json.data);
  assert.ok(list.sub_merchants.some((s: { id: string }) => s.id === created.json().id));
});

test('sub-merchants start during an OTP lockout: 423 OTP_LOCKED with the unlock time, exit 1, never retried', async () => {
  const phone = '+231770000209';
  const started = await svc(['sub-merchants', 'start', '--phone', phone, '--json']);
  assert.equal(started.code, 0, started.stderr);
  for (let i = 0; i < 5; i++) {
    await cli.emu.request('POST', '/v1/api/sub-merchants/complete', { body: { merchant_name: 'Guess', manager_phone: phone, otp: 'x' }, idempotencyKey: `otp-lock-${i}-${process.pid}` });
  }
  const locked = await svc(['sub-merchants', 'start', '--phone', phone]);
  assert.equal(locked.code, 1, locked.stderr);
  assert.match(locked.stderr, /OTP_LOCKED/);
  assert.match(locked.stderr, /locked until \d{4}-\d\d-\d\dT/);
  assert.doesNotMatch(locked.stderr, /retrying/, 'a lockout is not retried (the spec retries 429 only)');
});
