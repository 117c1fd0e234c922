import { named } from '../helpers/collections.js';
import { writeSync } from 'node:fs';
import { FileStore } from '../../emulator/store/file-store.js';

// A child process for the crash test: opens the FileStore in argv[2] and commits transactions
// as fast as it can, forever, printing "ack <n>" after each commit returns. The parent kills
// it with SIGKILL mid-burst and checks that every acknowledged write survived.
//
// Each transaction writes two records — the item and a `meta` record naming the last item —
// so a reload also proves a transaction is kept whole or not at all. Records are a few KB so
// that the kill often lands inside a journal append.

const dir = process.argv[2];
const store = await FileStore.open(dir);
const last = store.get<{ id: string; n: number }>(named('meta'), 'last');
let n = last ? last.n + 1 : 0;
writeSync(1, `ready ${n}\n`);
const pad = 'x'.repeat(3000);
for (;;) {
  const i = n++;
  store.transaction((tx) => {
    tx.put(named('items'), { id: `item_${i}`, n: i, pad });
    tx.put(named('meta'), { id: 'last', n: i });
  });
  writeSync(1, `ack ${i}\n`);
}
