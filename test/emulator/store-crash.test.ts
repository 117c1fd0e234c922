import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FileStore } from '../../emulator/store/file-store.js';
import { request, tempDir } from '../helpers/emulator.js';
import { closed, onLines, startSvc } from '../helpers/svc-process.js';

// The store's promise: a kill -9 at any moment leaves a store that loads with every
// acknowledged write. Checked twice: a bare FileStore in a child process, and the real
// `svc emulator start` process answering HTTP.

const burstScript = fileURLToPath(new URL('../fixtures-scripts/store-burst.js', import.meta.url));

test('FileStore: SIGKILL during a write burst keeps every acknowledged transaction, whole', async () => {
  const dir = tempDir('svc-crash-');
  try {
    const acked: number[] = [];
    // Three rounds: each child reopens what the previous one left (possibly a torn line).
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, [burstScript, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      const done = closed(child);
      let roundAcks = 0;
      await new Promise<void>((ok) => {
        onLines(child, (line) => {
          const [word, n] = line.split(' ');
          // A reopened store resumes after the last committed item, which is at least the last ack.
          if (word === 'ready') assert.ok(Number(n) >= (acked.length ? acked[acked.length - 1] + 1 : 0), line);
          if (word !== 'ack') return;
          acked.push(Number(n));
          // Kill at a different depth each round, while the child is still writing.
          if (++roundAcks === 400 + round * 350) {
            child.kill('SIGKILL');
            ok();
          }
        });
      });
      assert.equal(await done, 'SIGKILL');
    }

    const store = await FileStore.open(dir);
    try {
      for (const n of acked) assert.ok(store.get('items', `item_${n}`), `acknowledged item_${n} is missing`);
      const last = store.get<{ id: string; n: number }>('meta', 'last')!;
      assert.ok(last.n >= acked[acked.length - 1], 'meta names at least the last acknowledged item');
      // Whole transactions: meta never names an item that is not there, and every item up to it is.
      assert.equal(store.count('items'), last.n + 1);
      assert.ok(store.get('items', `item_${last.n}`));
    } finally {
      await store.close();
    }
    // And it loads again after its own compaction.
    const again = await FileStore.open(dir);
    assert.ok(again.count('items') >= acked.length);
    for (const n of acked) assert.ok(again.get('items', `item_${n}`));
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('svc emulator start: kill -9 during a burst of POSTs keeps every acknowledged link and its idempotency record', async () => {
  const dataDir = tempDir('svc-crash-http-');
  try {
    const first = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off']);
    const acked = new Map<string, { key: string; text: string; body: unknown }>();
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const key = `crash-${w}-${i}`;
        const body = { title: `crash ${w}/${i}`, amount: 100 + i, metadata: { w, i } };
        try {
          const res = await request(first.ready.base_url, 'POST', '/v1/api/payment-links', { body, idempotencyKey: key });
          if (res.status !== 201) throw new Error(`unexpected ${res.status} ${res.text}`);
          acked.set(res.json.data.id, { key, text: res.text, body });
          if (acked.size >= 200 && !killed) {
            killed = true;
            first.child.kill('SIGKILL');
          }
        } catch (err) {
          if (killed) return; // requests cut off by the kill were never acknowledged
          throw err;
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    assert.equal(await first.done, 'SIGKILL');

    const second = await startSvc(['--port', '0', '--data-dir', dataDir, '--quiet', '--rate-limit', 'off']);
    try {
      for (const [id, { key, text, body }] of acked) {
        const read = await request(second.ready.base_url, 'GET', `/v1/api/payment-links/${id}`);
        assert.equal(read.status, 200, `acknowledged ${id} missing after kill -9`);
        assert.deepEqual(read.json.data, JSON.parse(text).data);
        // The idempotency record was committed with the link: the retry is a replay.
        const retry = await request(second.ready.base_url, 'POST', '/v1/api/payment-links', { body, idempotencyKey: key });
        assert.equal(retry.text, text);
      }
    } finally {
      second.child.kill('SIGTERM');
      assert.equal(await second.done, 0);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
