import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { idem, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { startEmulator } from '../../src/testing/index.js';
import { runBinary } from '../cli/run-binary.js';

// A world put back from outside — POST /_emulator/snapshot/restore, POST
// /_emulator/snapshots/{name}/restore, the testing API's restore(), `svc emulator start
// --import` — is checked record by record against its collection's schema
// (contract/records/). A bad one is refused naming the JSON path, and refused means nothing
// changed: the same world, money still moves, and a restart finds nothing bad either.
// (Before the check, a wallet balance of "1e3", 2^60 or none was taken, every payout on that
// wallet was then a 500, and the file store kept the bad record across restarts.)

type World = { svc_snapshot: 1; taken_at: string; collections: Record<string, Array<Record<string, unknown>>> };

const snapshot = async (emu: TestEmulator): Promise<World> => (await emu.request('GET', '/_emulator/snapshot', { key: null })).json.data;
const restore = (emu: TestEmulator, world: unknown) => emu.request('POST', '/_emulator/snapshot/restore', { key: null, body: world });

/** The index of mer_acme's test USD wallet in the snapshot (the one payouts to payee_ada draw from). */
const acmeUsd = (w: World) => w.collections.wallets.findIndex((r) => r.merchant_id === 'mer_acme' && r.environment === 'test' && r.currency === 'USD');

/** The world with that wallet's balance set to `balance` (removed when undefined). */
function withBalance(w: World, balance: unknown): { world: World; index: number } {
  const world = structuredClone(w);
  const index = acmeUsd(world);
  if (balance === undefined) delete world.collections.wallets[index].balance;
  else world.collections.wallets[index].balance = balance;
  return { world, index };
}

const BAD_BALANCES: Array<[string, unknown, string]> = [
  ['"1e3"', '1e3', 'expected a safe integer, got "1e3"'],
  ['2^60', 2 ** 60, `expected a safe integer, got ${JSON.stringify(2 ** 60)}`],
  ['missing', undefined, 'required'],
];

async function payout(emu: TestEmulator, amount: number) {
  const res = await emu.request('POST', '/v1/api/payouts', { idempotencyKey: idem('wv'), body: { payee_id: 'payee_ada', amount_cents: amount, currency: 'USD' } });
  assert.equal(res.status, 201, `a payout still works: ${res.text}`);
  return res.json.data;
}

const balanceOf = async (emu: TestEmulator) => (await snapshot(emu)).collections.wallets[acmeUsd(await snapshot(emu))].balance;

test('POST /_emulator/snapshot/restore: a wallet balance of "1e3", 2^60 or none is 422 naming the path; nothing changes, money moves, a restart is clean', async () => {
  const dataDir = tempDir('svc-world-validation-');
  let emu = await startTestEmulator({ dataDir });
  try {
    await payout(emu, 100);
    const before = await snapshot(emu);
    for (const [label, balance, message] of BAD_BALANCES) {
      const { world, index } = withBalance(before, balance);
      const res = await restore(emu, world);
      assert.equal(res.status, 422, `${label}: ${res.text}`);
      assert.equal(res.json.error.code, 'VALIDATION_ERROR');
      assert.ok(res.json.error.message.includes(`collections.wallets[${index}].balance: ${message}`), `${label}: ${res.json.error.message}`);
      assert.deepEqual(await snapshot(emu), before, `${label}: the world is as it was`);
    }
    const held = before.collections.wallets[acmeUsd(before)].balance as number;
    await payout(emu, 250);
    assert.equal(await balanceOf(emu), held - 250);

    // The file store holds nothing bad: after a restart the wallet is whole and pays out.
    await emu.stop({ keepData: true });
    emu = await startTestEmulator({ dataDir });
    assert.equal(await balanceOf(emu), held - 250);
    await payout(emu, 50);
    assert.equal(await balanceOf(emu), held - 300);
  } finally {
    await emu.stop();
  }
});

test('POST /_emulator/snapshots/{name}/restore: a saved file edited to a bad balance is 422 naming the path; the world stays', async () => {
  const emu = await startTestEmulator();
  try {
    const saved = await emu.request('POST', '/_emulator/snapshots', { key: null, body: { name: 'edited' } });
    assert.equal(saved.status, 201, saved.text);
    const file = join(emu.dataDir!, 'snapshots', 'edited.json');
    const { world, index } = withBalance(JSON.parse(readFileSync(file, 'utf8')) as World, '1e3');
    writeFileSync(file, JSON.stringify(world));
    const before = await snapshot(emu);
    const res = await emu.request('POST', '/_emulator/snapshots/edited/restore', { key: null });
    assert.equal(res.status, 422, res.text);
    assert.equal(res.json.error.code, 'VALIDATION_ERROR');
    assert.ok(res.json.error.message.includes(`collections.wallets[${index}].balance: expected a safe integer, got "1e3"`), res.json.error.message);
    assert.deepEqual(await snapshot(emu), before);
    await payout(emu, 100);
  } finally {
    await emu.stop();
  }
});

test('a snapshot that would leave no API key is 422 and every key still works', async () => {
  const emu = await startTestEmulator();
  try {
    const before = await snapshot(emu);
    const empty = await restore(emu, { svc_snapshot: 1, taken_at: new Date().toISOString(), collections: {} });
    assert.equal(empty.status, 422, empty.text);
    assert.match(empty.json.error.message, /collections\.api_keys: the snapshot would leave no API key/);
    // Only revoked keys left: no key either.
    const revoked = structuredClone(before);
    for (const k of revoked.collections.api_keys) k.revoked = true;
    const res = await restore(emu, revoked);
    assert.equal(res.status, 422, res.text);
    assert.match(res.json.error.message, /would leave no API key/);
    assert.deepEqual(await snapshot(emu), before);
    await payout(emu, 100);
  } finally {
    await emu.stop();
  }
});

test('a snapshot holding one key secret twice is 422 naming both places', async () => {
  const emu = await startTestEmulator();
  try {
    const world = await snapshot(emu);
    const keys = world.collections.api_keys;
    const acme = keys.findIndex((k) => k.merchant_id === 'mer_acme' && !k.revoked);
    const globex = keys.findIndex((k) => k.merchant_id === 'mer_globex');
    keys[globex] = { ...keys[globex], key: keys[acme].key, key_sha256: keys[acme].key_sha256 };
    const res = await restore(emu, world);
    assert.equal(res.status, 422, res.text);
    const [first, second] = [acme, globex].sort((a, b) => a - b);
    assert.ok(res.json.error.message.includes(`collections.api_keys[${second}].key: the same secret as collections.api_keys[${first}].key`), res.json.error.message);
  } finally {
    await emu.stop();
  }
});

test("testing API: restore() of a bad balance throws naming the path, and the world is kept", async () => {
  const emu = await startEmulator({ clock: 'manual', rateLimit: 'off' });
  try {
    const before = emu.snapshot() as unknown as World;
    const { world, index } = withBalance(before, 2 ** 60);
    await assert.rejects(emu.restore(world as never), (err: Error) => err.message.includes(`collections.wallets[${index}].balance: expected a safe integer`));
    assert.deepEqual(emu.snapshot(), before);
  } finally {
    await emu.close();
  }
});

test('svc emulator start --import of a world with a bad balance: exit 2 naming the path, no emulator left, no lock', async () => {
  const emu = await startTestEmulator();
  let exported: World;
  try {
    exported = await snapshot(emu);
  } finally {
    await emu.stop();
  }
  const dir = tempDir('svc-import-bad-');
  const worldDir = join(dir, 'world');
  mkdirSync(worldDir);
  const { world, index } = withBalance(exported, '1e3');
  writeFileSync(join(worldDir, 'world.json'), JSON.stringify(world));
  const dataDir = join(dir, 'data');
  const r = await runBinary(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--import', worldDir]);
  assert.equal(r.code, 2, r.stderr);
  assert.ok(r.stderr.includes(`collections.wallets[${index}].balance: expected a safe integer, got "1e3"`), r.stderr);
  assert.equal(existsSync(join(dataDir, 'store.lock')), false);
  assert.equal(existsSync(join(dataDir, 'emulator.json')), false);
});

test('every collection of the world (the store\'s, and the request log beside it) has a record schema a restore checks', async () => {
  const { worldCollections } = await import('../../emulator/registry.js');
  const { checkedCollections } = await import('../../emulator/world-records.js');
  assert.deepEqual(worldCollections().map((c) => c.name).sort(), [...checkedCollections()].sort());
});
