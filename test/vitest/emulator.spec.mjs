// The testing API from a vitest suite, as a merchant's would use it: one emulator per file,
// a fresh world per test (reset), and assertions over HTTP. Run by test/vitest/vitest.test.ts
// (node:test spawns `vitest run` on this folder). Plain JavaScript: vitest reads it as is.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { startEmulator } from '../../dist/src/testing/index.js';

let emu;
beforeAll(async () => {
  emu = await startEmulator({ clock: 'manual' });
});
afterAll(() => emu.close());
beforeEach(() => emu.reset());

const createLink = async (title) => {
  const res = await fetch(`${emu.baseUrl}/v1/api/payment-links`, {
    method: 'POST',
    headers: { authorization: `Bearer ${emu.key('acme-test')}`, 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
    body: JSON.stringify({ title, amount: 1200, currency: 'USD' }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).data;
};

describe('svc-toolkit/testing under vitest', () => {
  it('creates a link and sees its event', async () => {
    const link = await createLink('first');
    const res = await fetch(`${emu.baseUrl}/v1/api/payment-links/${link.id}/simulate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emu.key('acme-test')}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(201);
    const event = await emu.waitForEvent((e) => e.type === 'payment.completed');
    expect(JSON.parse(event.body).data.payment.payment_link_id).toBe(link.id);
  });

  it('starts from the fixtures again: the first test’s link is gone', async () => {
    expect(emu.snapshot().collections.payment_links).toBeUndefined();
    await createLink('second');
    expect(emu.snapshot().collections.payment_links).toHaveLength(1);
  });
});
