import { named } from '../helpers/collections.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FileStore } from '../../emulator/store/file-store.js';
import { tempDir } from '../helpers/emulator.js';
import { closed, onLines } from '../helpers/svc-process.js';

// The store's promise: a kill -9 at any moment leaves a store that loads with every
// acknowledged write. Here a bare FileStore in a child process; store-crash-http.test.ts
// does the same to the real `svc emulator start` process over HTTP.

const burstScript = fileURLToPath(new URL('../fixtures-scripts/store-burst.js', import.meta.url));

test('FileStore: SIGKILL during a write burst keeps every acknowledged transaction, whole', async () => {
  const dir = tempDir('svc-crash-');
  try {
    const acked: number[] = [];
    let previousLast = -1;
    // Three rounds: each child reopens what the previous one left (possibly a torn line).
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, [burstScript, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      const done = closed(child);
      let roundAcks = 0;
      let resumedAt = -1;
      await new Promise<void>((ok, fail) => {
        done.then((how) => fail(new Error(`the writer stopped by itself (${how}) before it was killed`)));
        onLines(child, (line) => {
          const [word, n] = line.split(' ');
          if (word === 'ready') resumedAt = Number(n);
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
      // A reopened store resumes after its last committed item, which is at least the last ack.
      if (round > 0) assert.ok(resumedAt > previousLast, `round ${round} resumed at ${resumedAt}, but item ${previousLast} was acknowledged`);
      previousLast = acked[acked.length - 1];
    }

    const store = await FileStore.open(dir);
    try {
      for (const n of acked) assert.ok(store.get(named('items'), `item_${n}`), `acknowledged item_${n} is missing`);
      const last = store.get<{ id: string; n: number }>(named('meta'), 'last')!;
      assert.ok(last.n >= acked[acked.length - 1], 'meta names at least the last acknowledged item');
      // Whole transactions: meta never names an item that is not there, and every item up to it is.
      assert.equal(store.count(named('items')), last.n + 1);
      assert.ok(store.get(named('items'), `item_${last.n}`));
    } finally {
      await store.close();
    }
    // And it loads again after its own compaction.
    const again = await FileStore.open(dir);
    assert.ok(again.count(named('items')) >= acked.length);
    for (const n of acked) assert.ok(again.get(named('items'), `item_${n}`));
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
