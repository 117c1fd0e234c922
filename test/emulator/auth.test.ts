import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// The gateway's key checks (401), scopes (403), ownership (404) and environment selection,
// exercised over HTTP against a real emulator.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const createLink = (key: string, body: Record<string, unknown> = { title: 'Auth probe', amount: 500 }) =>
  emu.request('POST', '/v1/api/payment-links', { key, body, idempotencyKey: idem('auth') });

function assertError(res: { status: number; json: any }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.json));
  assert.deepEqual(Object.keys(res.json).sort(), ['error', 'success']);
  assert.equal(res.json.success, false);
  assert.deepEqual(Object.keys(res.json.error).sort(), ['code', 'message']);
  assert.equal(res.json.error.code, code);
  assert.equal(typeof res.json.error.message, 'string');
}

describe('401 UNAUTHORIZED', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['missing header', {}],
    ['non-Bearer scheme', { authorization: `Basic ${Buffer.from(`${KEYS.acmeTest}:`).toString('base64')}` }],
    ['Bearer without a key', { authorization: 'Bearer ' }],
    ['key with a wrong prefix', { authorization: 'Bearer sk_test_acme0all0scopes0000000000001' }],
    ['key too short', { authorization: 'Bearer svc_test_abc' }],
    ['key with forbidden characters', { authorization: 'Bearer svc_test_acme-all-scopes-0000000001' }],
    ['unknown well-formed key', { authorization: 'Bearer svc_test_0000000000000000000000000000dead' }],
    ['unknown live key', { authorization: 'Bearer svc_live_0000000000000000000000000000dead' }],
    ['revoked key', { authorization: `Bearer ${KEYS.acmeRevoked}` }],
  ];
  for (const [name, headers] of cases) {
    test(`${name} → 401 on a read and on a create`, async () => {
      const read = await emu.request('GET', '/v1/api/payments', { key: null, headers });
      assertError(read, 401, 'UNAUTHORIZED');
      const create = await emu.request('POST', '/v1/api/payment-links', {
        key: null,
        headers,
        body: { title: 'x', amount: 100 },
        idempotencyKey: idem('auth401'),
      });
      assertError(create, 401, 'UNAUTHORIZED');
    });
  }

  test('the scheme is case-insensitive (RFC 7235); its shape is not negotiable', async () => {
    for (const header of [`bearer ${KEYS.acmeTest}`, `BEARER ${KEYS.acmeTest}`, `Bearer   ${KEYS.acmeTest}`]) {
      assert.equal((await emu.request('GET', '/v1/api/payments', { key: null, headers: { authorization: header } })).status, 200, header);
    }
    for (const header of [`Bearer${KEYS.acmeTest}`, `Bearer ${KEYS.acmeTest} extra`, `Token ${KEYS.acmeTest}`, KEYS.acmeTest]) {
      assertError(await emu.request('GET', '/v1/api/payments', { key: null, headers: { authorization: header } }), 401, 'UNAUTHORIZED');
    }
  });

  test('an almost-right key (one character off) is unknown', async () => {
    const almost = KEYS.acmeTest.slice(0, -1) + '2';
    assertError(await emu.request('GET', '/v1/api/payments', { key: almost }), 401, 'UNAUTHORIZED');
  });

  test('401 comes before validation and idempotency: no key, bad body, no idempotency key', async () => {
    const res = await emu.request('POST', '/v1/api/payment-links', { key: null, body: { nope: true } });
    assertError(res, 401, 'UNAUTHORIZED');
  });

  test('the 401 message never echoes the presented key', async () => {
    const secretish = 'svc_test_' + 'Z'.repeat(40);
    const res = await emu.request('GET', '/v1/api/payments', { key: secretish });
    assertError(res, 401, 'UNAUTHORIZED');
    assert.ok(!res.text.includes(secretish));
  });
});

describe('403 FORBIDDEN', () => {
  test('a read-only key on a create route', async () => {
    assertError(await createLink(KEYS.acmeReadOnly), 403, 'FORBIDDEN');
  });

  test('a read-only key can read', async () => {
    const res = await emu.request('GET', '/v1/api/payments', { key: KEYS.acmeReadOnly });
    assert.equal(res.status, 200);
  });

  test('a station key (redeem scopes only) cannot read payments or create links', async () => {
    assertError(await emu.request('GET', '/v1/api/payments', { key: KEYS.acmeStation }), 403, 'FORBIDDEN');
    assertError(await createLink(KEYS.acmeStation), 403, 'FORBIDDEN');
  });

  test('a read-only key on simulate and on webhook endpoint create/delete', async () => {
    const link = await createLink(KEYS.acmeTest);
    assert.equal(link.status, 201);
    assertError(await emu.request('POST', `/v1/api/payment-links/${link.json.data.id}/simulate`, { key: KEYS.acmeReadOnly, body: {} }), 403, 'FORBIDDEN');
    assertError(
      await emu.request('POST', '/v1/api/webhook-endpoints', { key: KEYS.acmeReadOnly, body: { url: 'https://localhost:9/h', events: ['payment.completed'] } }),
      403,
      'FORBIDDEN',
    );
    assertError(await emu.request('DELETE', '/v1/api/webhook-endpoints/we_x', { key: KEYS.acmeReadOnly }), 403, 'FORBIDDEN');
  });

  test('403 comes before idempotency-key checks (no key sent, still 403)', async () => {
    const res = await emu.request('POST', '/v1/api/payment-links', { key: KEYS.acmeReadOnly, body: { title: 'x' } });
    assertError(res, 403, 'FORBIDDEN');
  });
});

describe('404 NOT_FOUND: absent, another merchant, another environment look the same', () => {
  let acmeLink: any;
  let acmeLiveLink: any;
  let acmePayment: any;
  let acmeEndpoint: any;

  before(async () => {
    acmeLink = (await createLink(KEYS.acmeTest)).json.data;
    acmeLiveLink = (await createLink(KEYS.acmeLive)).json.data;
    acmePayment = (await emu.request('POST', `/v1/api/payment-links/${acmeLink.id}/simulate`, { body: {} })).json.data;
    acmeEndpoint = (
      await emu.request('POST', '/v1/api/webhook-endpoints', { body: { url: 'https://localhost:9/hook', events: ['payment.completed'] } })
    ).json.data.endpoint;
    assert.ok(acmeLink?.id && acmeLiveLink?.id && acmePayment?.id && acmeEndpoint?.id);
  });

  async function assertIndistinguishable(path: (id: string) => string, realId: string, randomId: string, key: string, method = 'GET') {
    const foreign = await emu.request(method, path(realId), { key, body: method === 'GET' ? undefined : {} });
    const absent = await emu.request(method, path(randomId), { key, body: method === 'GET' ? undefined : {} });
    assertError(foreign, 404, 'NOT_FOUND');
    assertError(absent, 404, 'NOT_FOUND');
    // Same bytes: nothing in the body tells "exists elsewhere" from "never existed".
    assert.equal(foreign.text, absent.text);
  }

  test("another merchant's payment link, by id and by code", async () => {
    await assertIndistinguishable((id) => `/v1/api/payment-links/${id}`, acmeLink.id, 'pl_00000000000000000000', KEYS.globexTest);
    await assertIndistinguishable((c) => `/v1/api/payment-links/by-code/${c}`, acmeLink.link_code, 'PL-ZZZZZZZZ', KEYS.globexTest);
  });

  test("another merchant's payment", async () => {
    await assertIndistinguishable((id) => `/v1/api/payments/${id}`, acmePayment.id, 'pay_00000000000000000000', KEYS.globexTest);
  });

  test("simulating another merchant's link", async () => {
    await assertIndistinguishable((id) => `/v1/api/payment-links/${id}/simulate`, acmeLink.id, 'pl_00000000000000000000', KEYS.globexTest, 'POST');
  });

  test("deleting another merchant's webhook endpoint", async () => {
    await assertIndistinguishable((id) => `/v1/api/webhook-endpoints/${id}`, acmeEndpoint.id, 'we_00000000000000000000', KEYS.globexTest, 'DELETE');
    // It is still there for its owner.
    const list = await emu.request('GET', '/v1/api/webhook-endpoints');
    assert.ok(list.json.data.endpoints.some((e: any) => e.id === acmeEndpoint.id));
  });

  test('a test key reading a live link (same merchant), and a live key reading a test link', async () => {
    await assertIndistinguishable((id) => `/v1/api/payment-links/${id}`, acmeLiveLink.id, 'pl_00000000000000000000', KEYS.acmeTest);
    await assertIndistinguishable((c) => `/v1/api/payment-links/by-code/${c}`, acmeLiveLink.link_code, 'PL-ZZZZZZZZ', KEYS.acmeTest);
    await assertIndistinguishable((id) => `/v1/api/payment-links/${id}`, acmeLink.id, 'pl_00000000000000000000', KEYS.acmeLive);
    await assertIndistinguishable((id) => `/v1/api/payments/${id}`, acmePayment.id, 'pay_00000000000000000000', KEYS.acmeLive);
  });

  test('a live key cannot delete a test endpoint', async () => {
    await assertIndistinguishable((id) => `/v1/api/webhook-endpoints/${id}`, acmeEndpoint.id, 'we_00000000000000000000', KEYS.acmeLive, 'DELETE');
  });
});

describe('the key prefix selects the environment', () => {
  test('links and payments carry the environment of the key that made them', async () => {
    const test1 = await createLink(KEYS.acmeTest);
    const live1 = await createLink(KEYS.acmeLive);
    assert.equal(test1.json.data.environment, 'test');
    assert.equal(live1.json.data.environment, 'live');
    const own = await emu.request('GET', `/v1/api/payment-links/${live1.json.data.id}`, { key: KEYS.acmeLive });
    assert.equal(own.status, 200);
    assert.equal(own.json.data.id, live1.json.data.id);
  });

  test('a read-only test key of the same merchant sees test data', async () => {
    const link = await createLink(KEYS.acmeTest);
    const res = await emu.request('GET', `/v1/api/payment-links/${link.json.data.id}`, { key: KEYS.acmeReadOnly });
    assert.equal(res.status, 200);
    assert.equal(res.json.data.id, link.json.data.id);
  });
});
