import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { idem, request, startTestEmulator, tempDir, type TestEmulator } from '../helpers/emulator.js';
import { svcProcesses } from '../helpers/svc-process.js';
import { packageFile } from '../../emulator/assets.js';
import { startEmulator } from '../../src/testing/index.js';
import { runBinary } from '../cli/run-binary.js';

// One check of a world (contract/records/index.ts worldProblems) behind every way one comes in:
// POST /_emulator/snapshot/restore, POST /_emulator/snapshots/{name}/restore, `svc emulator
// start --import`, and the world a fixtures file seeds. Hostile worlds from the probes:
// - a collection named `constructor` found Object's constructor where a schema was expected
//   (500 on both restore routes; `--import` exit 2 "schema.safeParse is not a function"), and
//   one named `__proto__` was dropped without a word (200);
// - a wallet whose balance does not match its ledger (+12,345) and an entry for a wallet that
//   does not exist were restored;
// - a fixtures file with no merchants started an emulator without a key (restore refuses that
//   world), and one starting with a UTF-8 byte order mark was refused (so were `--import`'s
//   world.json and a named snapshot with one, after fixtures took it).
// Refused means 422 (exit 2 for files given to the CLI) naming the path, and the world as it was.

type Row = Record<string, unknown> & { id: string };
type World = { svc_snapshot: 1; taken_at: string; collections: Record<string, Row[]> };

const snapshot = async (emu: TestEmulator): Promise<World> => (await emu.request('GET', '/_emulator/snapshot', { key: null })).json.data;
const restore = (emu: TestEmulator, world: unknown) => emu.request('POST', '/_emulator/snapshot/restore', { key: null, body: world });

/** A world edited as the raw text a file or a request carries (a `__proto__` key survives only as text). */
const edited = (w: World, edit: (text: string) => string) => JSON.parse(edit(JSON.stringify(w))) as unknown;
const withCollection = (name: string) => (text: string) => text.replace('"collections":{', `"collections":{"${name}":[{"id":"x"}],`);

/** Every way a world from outside comes in, each expected to refuse `world` with `problem` and change nothing. */
async function refusedEverywhere(emu: TestEmulator, world: unknown, problem: RegExp): Promise<void> {
  const before = await snapshot(emu);
  const direct = await restore(emu, world);
  assert.equal(direct.status, 422, direct.text);
  assert.match(direct.json.error.message, problem);
  // A saved snapshot, edited on disk.
  const saved = await emu.request('POST', '/_emulator/snapshots', { key: null, body: { name: 'hostile' } });
  assert.equal(saved.status, 201, saved.text);
  writeFileSync(join(emu.dataDir!, 'snapshots', 'hostile.json'), JSON.stringify(world));
  const named = await emu.request('POST', '/_emulator/snapshots/hostile/restore', { key: null });
  assert.equal(named.status, 422, named.text);
  assert.match(named.json.error.message, problem);
  assert.deepEqual(await snapshot(emu), before, 'the world is as it was');
  // --import: exit 2 naming it, nothing left running or locked.
  const dir = tempDir('svc-world-rules-import-');
  mkdirSync(join(dir, 'world'));
  writeFileSync(join(dir, 'world', 'world.json'), JSON.stringify(world));
  const dataDir = join(dir, 'data');
  const r = await runBinary(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--import', join(dir, 'world')], { timeoutMs: 30_000 });
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, problem);
  assert.doesNotMatch(r.stderr, /is not a function|\n\s+at /);
  assert.equal(existsSync(join(dataDir, 'store.lock')), false);
}

test('collections named constructor or __proto__ are refused by name on every path, not a 500 and not dropped', async () => {
  const emu = await startTestEmulator();
  try {
    const w = await snapshot(emu);
    await refusedEverywhere(emu, edited(w, withCollection('constructor')), /collections\.constructor: not a collection of this emulator \(known: /);
    await refusedEverywhere(emu, edited(w, withCollection('__proto__')), /collections\.__proto__: a key named __proto__ is not allowed/);
    // A field named __proto__ in a record would vanish the same way (zod drops it): refused by its path.
    const keyAt = w.collections.api_keys.findIndex((k) => k.revoked === false);
    const inRecord = edited(w, (t) => t.replace(`"id":"${w.collections.api_keys[keyAt].id}"`, `"id":"${w.collections.api_keys[keyAt].id}","__proto__":{"revoked":false}`));
    const res = await restore(emu, inRecord);
    assert.equal(res.status, 422, res.text);
    assert.match(res.json.error.message, new RegExp(`collections\\.api_keys\\.${keyAt}\\.__proto__: a key named __proto__ is not allowed`));
    // The testing API's restore() takes the same value.
    const inProcess = await startEmulator({ clock: 'manual' });
    try {
      await assert.rejects(inProcess.restore(edited(w, withCollection('constructor')) as never), /collections\.constructor: not a collection of this emulator/);
    } finally {
      await inProcess.close();
    }
  } finally {
    await emu.stop();
  }
});

test('ids and merchant ids named constructor or __proto__ are records like any other', async () => {
  const emu = await startTestEmulator();
  try {
    const w = await snapshot(emu);
    // mer_acme becomes "constructor", everything of it follows; its key then works as before.
    const renamed = JSON.parse(JSON.stringify(w).replaceAll('"mer_acme"', '"constructor"')) as World;
    const res = await restore(emu, renamed);
    assert.equal(res.status, 200, res.text);
    const created = await emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('ctor'), body: { title: 'T', amount: 500, currency: 'USD' } });
    assert.equal(created.status, 201, created.text);
    assert.equal((await emu.request('GET', `/v1/api/payment-links/${created.json.data.id}`)).status, 200);
    const wallets = await emu.request('GET', '/_emulator/wallets?merchant_id=constructor', { key: null });
    assert.equal(wallets.status, 200, wallets.text);
    assert.ok(wallets.json.data.wallets.length > 0);
  } finally {
    await emu.stop();
  }
});

/** Index of the first record of `collection` matching `where`. */
const at = (w: World, collection: string, where: (r: Row) => boolean) => {
  const i = w.collections[collection].findIndex(where);
  assert.ok(i >= 0, `a ${collection} record to edit`);
  return i;
};

test('the ledger rule: a balance that is not the sum of its entries, or an entry for no wallet, is refused on every path', async () => {
  const emu = await startTestEmulator();
  try {
    const w = await snapshot(emu);
    const drift = (collection: string, where: (r: Row) => boolean, edit: (r: Row) => void) => {
      const world = structuredClone(w);
      edit(world.collections[collection][at(world, collection, where)]);
      return world;
    };
    const wallet = at(w, 'wallets', (r) => r.merchant_id === 'mer_acme' && r.environment === 'test' && r.currency === 'USD');
    const held = w.collections.wallets[wallet].balance as number;
    const entries = w.collections.wallet_entries.filter((e) => e.wallet_id === w.collections.wallets[wallet].id).length;
    await refusedEverywhere(
      emu,
      drift('wallets', (r) => r.id === w.collections.wallets[wallet].id, (r) => (r.balance = held + 12_345)),
      new RegExp(`collections\\.wallets\\[${wallet}\\]\\.balance: ${held + 12_345} is not the sum of the ${entries} entries of the balance of ${w.collections.wallets[wallet].id} in collections\\.wallet_entries \\(${held}\\)`),
    );
    const orphan = structuredClone(w);
    orphan.collections.wallet_entries.push({ ...orphan.collections.wallet_entries[0], id: 'we_orphan', wallet_id: 'w_nowhere' });
    await refusedEverywhere(emu, orphan, new RegExp(`collections\\.wallet_entries\\[${orphan.collections.wallet_entries.length - 1}\\]\\.wallet_id: "w_nowhere" is not in collections\\.wallets \\(an entry for a wallet that does not exist\\)`));

    // The other ledgers, through the restore route: a user's wallet, a gift-card wallet, a fleet card.
    const refused = async (world: World, problem: RegExp) => {
      const res = await restore(emu, world);
      assert.equal(res.status, 422, res.text);
      assert.match(res.json.error.message, problem);
    };
    const user = at(w, 'users', (r) => Object.keys((r.wallets as { test: object }).test).length > 0);
    const currency = Object.keys((w.collections.users[user].wallets as { test: Record<string, number> }).test)[0];
    await refused(
      drift('users', (r) => r.id === w.collections.users[user].id, (r) => ((r.wallets as { test: Record<string, number> }).test[currency] += 1)),
      new RegExp(`collections\\.users\\[${user}\\]\\.wallets\\.test\\.${currency}: \\d+ is not the sum of the \\d+ entries of the test ${currency} wallet of`),
    );
    await refused(
      drift('gift_card_wallets', () => true, (r) => ((r.balance as number) += 1)),
      /collections\.gift_card_wallets\[0\]\.balance: \d+ is not the sum of the \d+ entries of the balance of \S+ in collections\.gift_card_transactions/,
    );
    await refused(
      drift('fleet_cards', () => true, (r) => ((r.balance as number) -= 1)),
      /collections\.fleet_cards\[0\]\.balance: \d+ is not the sum of the \d+ entries of the balance of \S+ in collections\.fleet_card_transactions/,
    );
    // A world that keeps the rule is taken, after money moved (a payout, a redemption's worth of entries).
    const paid = await emu.request('POST', '/v1/api/payouts', { idempotencyKey: idem('ledger'), body: { payee_id: 'payee_ada', amount_cents: 100, currency: 'USD' } });
    assert.equal(paid.status, 201, paid.text);
    assert.equal((await restore(emu, await snapshot(emu))).status, 200);
  } finally {
    await emu.stop();
  }
});

type Fixtures = { merchants: Array<{ keys: Array<{ revoked?: boolean }> }> };
const bundledText = () => readFileSync(packageFile('fixtures/default.json'), 'utf8');

test('fixtures with no merchant key are refused as a restored world is; a fixtures file starting with a UTF-8 BOM is read', async () => {
  const dir = tempDir('svc-world-rules-fixtures-');
  const noMerchants = join(dir, 'no-merchants.json');
  writeFileSync(noMerchants, JSON.stringify({ ...JSON.parse(bundledText()), merchants: [] }));
  const allRevoked = join(dir, 'all-revoked.json');
  const revoked = JSON.parse(bundledText()) as Fixtures;
  for (const m of revoked.merchants) for (const k of m.keys) k.revoked = true;
  writeFileSync(allRevoked, JSON.stringify(revoked));
  for (const file of [noMerchants, allRevoked]) {
    const validate = await runBinary(['emulator', 'fixtures', 'validate', file]);
    assert.equal(validate.code, 2, validate.stderr);
    assert.match(validate.stderr, /merchants: the fixtures would leave no API key \(no merchant with a key that is not revoked\)/);
    const dataDir = join(dir, 'data');
    const start = await runBinary(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--fixtures', file], { timeoutMs: 30_000 });
    assert.equal(start.code, 2, start.stderr);
    assert.match(start.stderr, /would leave no API key/);
    assert.equal(existsSync(join(dataDir, 'store.lock')), false);
    await assert.rejects(startEmulator({ fixtures: file }), /would leave no API key/);
  }

  const bom = join(dir, 'bom.json');
  writeFileSync(bom, `\uFEFF${bundledText()}`);
  assert.equal(readFileSync(bom)[0], 0xef, 'the file starts with the BOM bytes');
  const validate = await runBinary(['emulator', 'fixtures', 'validate', bom]);
  assert.equal(validate.code, 0, validate.stderr);
  const emu = await startEmulator({ fixtures: bom, clock: 'manual' });
  try {
    assert.ok(emu.key('acme-test').startsWith('svc_test_'));
  } finally {
    await emu.close();
  }
});

test('a world file starting with a UTF-8 BOM is read everywhere a fixtures file is: a named snapshot and --import', async (t) => {
  const emu = await startTestEmulator();
  const procs = svcProcesses(t.signal);
  try {
    const link = (title: string) => emu.request('POST', '/v1/api/payment-links', { idempotencyKey: idem('bom'), body: { title, amount: 500 } });
    const kept = await link('in the saved world');
    assert.equal(kept.status, 201, kept.text);
    assert.equal((await emu.request('POST', '/_emulator/snapshots', { key: null, body: { name: 'bom' } })).status, 201);
    const world = readFileSync(join(emu.dataDir!, 'snapshots', 'bom.json'), 'utf8');
    writeFileSync(join(emu.dataDir!, 'snapshots', 'bom.json'), `\uFEFF${world}`);
    const later = await link('after the save');
    assert.equal(later.status, 201, later.text);

    const restored = await emu.request('POST', '/_emulator/snapshots/bom/restore', { key: null });
    assert.equal(restored.status, 200, restored.text);
    assert.equal((await emu.request('GET', `/v1/api/payment-links/${kept.json.data.id}`)).status, 200);
    assert.equal((await emu.request('GET', `/v1/api/payment-links/${later.json.data.id}`)).status, 404, 'the saved world replaced the later one');

    const dir = tempDir('svc-world-rules-bom-');
    mkdirSync(join(dir, 'world'));
    writeFileSync(join(dir, 'world', 'world.json'), `\uFEFF${world}`);
    assert.equal(readFileSync(join(dir, 'world', 'world.json'))[0], 0xef, 'the file starts with the BOM bytes');
    const imported = await procs.start(['--port', '0', '--data-dir', join(dir, 'data'), '--quiet', '--import', join(dir, 'world')]);
    const res = await request(imported.ready.base_url, 'GET', `/v1/api/payment-links/${kept.json.data.id}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.json.data.title, 'in the saved world');
  } finally {
    await procs.end();
    await emu.stop();
  }
});

test('a snapshot the disk will not take is a 503 with Retry-After (as every refused write), not a 500, and nothing is saved', async () => {
  const emu = await startTestEmulator();
  try {
    // Where the snapshots folder should be, a file: the folder cannot be made (ENOTDIR/EEXIST
    // whoever runs the test; a read-only folder would not stop root).
    writeFileSync(join(emu.dataDir!, 'snapshots'), 'not a folder');
    const res = await emu.request('POST', '/_emulator/snapshots', { key: null, body: { name: 'nowhere' } });
    assert.equal(res.status, 503, res.text);
    assert.equal(res.json.error.code, 'SERVICE_UNAVAILABLE');
    assert.match(res.json.error.message, /^The snapshot could not be written \(E[A-Z]+\); nothing was saved under "nowhere"\.$/);
    assert.equal(res.headers.get('retry-after'), '5');
    assert.equal(readFileSync(join(emu.dataDir!, 'snapshots'), 'utf8'), 'not a folder');
  } finally {
    await emu.stop();
  }
});
