import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeOf } from '../../contract/errors.js';

// One process writes a data dir. A second FileStore opened on the same dir by another process
// would compact it under the first: the first one's journal is truncated while it still
// appends at its old offset, and the next load finds a journal that begins with NUL bytes
// and refuses it. So the store takes `store.lock` (holding its pid) before it loads.
//
// A lock whose process is gone (kill -9) is stale and taken over. A lock held by this very
// process is taken over too: a process reopening its own dir is a test simulating a crash.

class DataDirInUseError extends Error {}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return codeOf(err) === 'EPERM';
  }
};

/** Takes the lock of `dir`; returns the function that releases it. */
export function lockDataDir(dir: string): () => void {
  const path = join(dir, 'store.lock');
  for (;;) {
    try {
      writeFileSync(path, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (err) {
      if (codeOf(err) !== 'EEXIST') throw err;
      const holder = Number.parseInt(readFileSync(path, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && alive(holder)) {
        throw new DataDirInUseError(
          `data dir ${dir} is in use by process ${holder} (another svc emulator?); stop it or pick another --data-dir ` +
            `(if no such process is yours, delete ${path})`,
        );
      }
      unlinkSync(path);
    }
  }
  return () => {
    try {
      if (Number.parseInt(readFileSync(path, 'utf8'), 10) === process.pid) unlinkSync(path);
    } catch {
      // already gone
    }
  };
}
