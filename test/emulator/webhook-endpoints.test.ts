import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Webhook endpoints: the secret is shown once, lists show only its hint, delete revokes,
// test and live endpoints are separate.

let emu: TestEmulator;
before(async () => {
  emu = await startTestEmulator();
});
after(() => emu.stop());

const create = (body: Record<string, unknown>, key: string = KEYS.acmeTest) => emu.request('POST', '/v1/api/webhook-endpoints', { key, body });
const list = (key: string = KEYS.acmeTest) => emu.request('GET', '/v1/api/webhook-endpoints', { key });

test('create returns the endpoint and a 43-character base64url secret, once', async () => {
  const res = await create({ url: 'https://localhost:9/hooks/svc', events: ['payment.completed', 'payment.failed'] });
  assert.equal(res.status, 201, res.text);
  const { endpoint, secret } = res.json.data;
  assert.match(secret, /^[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(Object.keys(endpoint).sort(), ['created_at', 'environment', 'events', 'id', 'secret_hint', 'url']);
  assert.match(endpoint.id, /^we_/);
  assert.equal(endpoint.url, 'https://localhost:9/hooks/svc');
  assert.deepEqual(endpoint.events, ['payment.completed', 'payment.failed']);
  assert.equal(endpoint.environment, 'test');
  assert.equal(endpoint.secret_hint, secret.slice(-4));
  assert.ok(secret.length > endpoint.secret_hint.length);

  const listed = await list();
  assert.equal(listed.status, 200);
  const row = listed.json.data.endpoints.find((e: any) => e.id === endpoint.id);
  assert.deepEqual(row, endpoint);
  assert.ok(!listed.text.includes(secret), 'the list never carries the secret');
  assert.ok(!('secret' in row));
});

test('every endpoint gets its own random secret', async () => {
  const secrets = new Set<string>();
  for (let i = 0; i < 10; i++) secrets.add((await create({ url: `https://localhost:9/h${i}`, events: ['payment.failed'] })).json.data.secret);
  assert.equal(secrets.size, 10);
});

test('plain http is accepted for loopback receivers', async () => {
  for (const url of ['http://localhost:8080/hook', 'http://127.0.0.1:9000/hook', 'http://[::1]:9000/hook']) {
    const res = await create({ url, events: ['payment.completed'] });
    assert.equal(res.status, 201, `${url}: ${res.text}`);
  }
});

test('delete revokes: gone from the list; a second delete answers the same 200 (like revoking a revoked mandate)', async () => {
  const ep = (await create({ url: 'https://localhost:9/bye', events: ['payment.completed'] })).json.data.endpoint;
  const del = await emu.request('DELETE', `/v1/api/webhook-endpoints/${ep.id}`);
  assert.equal(del.status, 200);
  assert.deepEqual(del.json.data, { id: ep.id, deleted: true });
  assert.ok(!(await list()).json.data.endpoints.some((e: any) => e.id === ep.id));
  const again = await emu.request('DELETE', `/v1/api/webhook-endpoints/${ep.id}`);
  assert.equal(again.status, 200);
  assert.equal(again.text, del.text);
  assert.ok(!(await list()).json.data.endpoints.some((e: any) => e.id === ep.id));
  // Unknown, or another merchant's: still 404.
  assert.equal((await emu.request('DELETE', '/v1/api/webhook-endpoints/we_nope')).status, 404);
  assert.equal((await emu.request('DELETE', `/v1/api/webhook-endpoints/${ep.id}`, { key: KEYS.globexTest })).status, 404);
});

test('test and live endpoints are separate', async () => {
  const live = (await create({ url: 'https://localhost:9/live', events: ['payment.completed'] }, KEYS.acmeLive)).json.data;
  assert.equal(live.endpoint.environment, 'live');
  const testList = (await list()).json.data.endpoints;
  const liveList = (await list(KEYS.acmeLive)).json.data.endpoints;
  assert.ok(!testList.some((e: any) => e.id === live.endpoint.id));
  assert.deepEqual(liveList.map((e: any) => e.id), [live.endpoint.id]);
  for (const e of testList) assert.equal(e.environment, 'test');
  // Globex sees none of Acme's.
  assert.deepEqual((await list(KEYS.globexTest)).json.data.endpoints, []);
});

test('a read-only key can list endpoints (secret hints only)', async () => {
  const res = await list(KEYS.acmeReadOnly);
  assert.equal(res.status, 200);
  assert.ok(res.json.data.endpoints.length > 0);
});
