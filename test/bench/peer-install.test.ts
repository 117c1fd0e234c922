import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { installPeer } from '../../bench/lib/peer-install.js';
import type { BenchContext } from '../../bench/lib/types.js';
import { PEERS, startPeers } from '../../bench/subjects/peers.js';
import { tempDir } from '../helpers/emulator.js';

// The bench's peer installer (bench/lib/peer-install.ts) with npm's real client, pointed by its
// own environment variables at a registry stand-in on loopback (which answers 404 to every
// package and counts what it is asked) or at a closed port, with an empty npm cache: an unpinned
// version is refused before any registry is asked, and a registry that cannot be reached becomes
// a "skipped" row for each peer, while startPeers() returns normally.

async function listen(server: Server): Promise<string> {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Serves a stand-in OpenAPI text at /openapi.yaml and 404 to everything else, keeping each path asked. */
async function standIn() {
  const asked: string[] = [];
  const server = createServer((req, res) => {
    if (req.url === '/openapi.yaml') return void res.end('openapi: 3.1.0\n');
    asked.push(req.url ?? '');
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Not found"}');
  });
  const url = await listen(server);
  return { url, asked, close: () => new Promise((ok) => server.close(ok)) };
}

/** Runs `fn` with npm's registry set to `registry`, an empty npm cache, and a fresh peer cache. */
async function withRegistry<T>(registry: string, fn: (cacheDir: string, ctx: BenchContext) => Promise<T>): Promise<T> {
  const scratch = tempDir('svc-peers-');
  const cacheDir = join(scratch, 'peer-cache');
  mkdirSync(cacheDir);
  const saved = { ...process.env };
  Object.assign(process.env, { npm_config_registry: registry, npm_config_cache: join(scratch, 'npm-cache'), BENCH_PEERS_DIR: cacheDir });
  try {
    return await fn(cacheDir, { root: scratch, tmpDir: scratch, warmupMs: 0, measureMs: 0, log: () => {} });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    for (const key of ['npm_config_registry', 'npm_config_cache', 'BENCH_PEERS_DIR']) {
      if (saved[key] === undefined) delete process.env[key];
      else process.env[key] = saved[key];
    }
  }
}

test('the peer installer refuses a version that is not pinned, before asking the registry', async () => {
  const registry = await standIn();
  try {
    await withRegistry(registry.url, async (cacheDir, ctx) => {
      for (const version of ['^0.17.4', '~0.17.4', '0.17', '0.17.x', 'latest', '*', '>=0.17.4', '0.17.4 || 1.0.0', '']) {
        const result = await installPeer({ pkg: 'json-server', version, bin: 'json-server' }, { cacheDir });
        assert.deepEqual(result, { skipped: `refused to install json-server@${version}: not a pinned version (x.y.z)` });
      }
      assert.equal(registry.asked.length, 0, `an unpinned version must not reach the registry: ${registry.asked.join(', ')}`);
      // The same peer pinned is asked for, so the refusals above are not a registry never reached.
      const pinned = await installPeer({ pkg: 'json-server', version: '0.17.4', bin: 'json-server' }, { cacheDir });
      assert.ok('skipped' in pinned && pinned.skipped.startsWith('could not install json-server@0.17.4: E404'), JSON.stringify(pinned));
      assert.ok(registry.asked.includes('/json-server'), `asked: ${registry.asked.join(', ')}`);
      assert.deepEqual(readdirSync(cacheDir), [], 'a failed install leaves nothing in the cache');

      // Through the bench's own path: an unpinned peer is a row saying so, and nothing is measured.
      const unpinned = { ...PEERS[0], package: { ...PEERS[0].package, version: '^0.17.4' } };
      const subject = await startPeers(ctx, `${registry.url}/openapi.yaml`, [unpinned]);
      assert.deepEqual(subject.rows, [{ id: `peer.${unpinned.id}`, label: `peer: ${unpinned.name} ^0.17.4`, note: `skipped: refused to install ${unpinned.package.pkg}@^0.17.4: not a pinned version (x.y.z)` }]);
      assert.deepEqual(subject.loads, []);
      await subject.finish();
    });
  } finally {
    await registry.close();
  }
});

test('an unreachable registry makes every peer a skipped row, not a crash', async () => {
  const openapi = await standIn();
  // A port that was just bound and closed: connections to it are refused.
  const closed = createServer();
  const registry = await listen(closed);
  await new Promise((ok) => closed.close(ok));
  try {
    await withRegistry(registry, async (cacheDir, ctx) => {
      const subject = await startPeers(ctx, `${openapi.url}/openapi.yaml`);
      assert.deepEqual(subject.loads, [], 'no peer could be started, so none is measured');
      assert.deepEqual(subject.rows.map((r) => r.id), PEERS.map((p) => `peer.${p.id}`));
      for (const [i, row] of subject.rows.entries()) {
        const spec = `${PEERS[i].package.pkg}@${PEERS[i].package.version}`;
        assert.equal(row.label, `peer: ${PEERS[i].name} ${PEERS[i].package.version}`);
        assert.match(row.note ?? '', new RegExp(`^skipped: could not install ${spec.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: ECONNREFUSED`), row.note);
      }
      assert.deepEqual(await subject.finish(), []);
      assert.deepEqual(readdirSync(cacheDir), []);
    });
  } finally {
    await openapi.close();
  }
});
