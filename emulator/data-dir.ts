import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Logger } from './services.js';

// The data dir holds every API key the emulator knows, live keys included, and every webhook
// secret, in plain text (fixtures, snapshot, journal, request log), and emulator.json holds the
// control token. So it is private to its owner: the folder 0700, every file 0600, whatever the
// umask (each file is created with that mode: the store's through store-fs.ts, the rest by
// name). A data dir left by an older svc (0644 files in a 0755 folder) is tightened at start,
// with one line saying so; an empty one (a new volume) silently.
//
// A folder the user made and filled is theirs: its modes are left as they are (the emulator's
// own files in it are still 0600); an empty one, or one that holds a store, is made private.
//
// `.svc/` sits in the app's own folder, so a `git add .` would commit the keys: a dir the
// emulator creates gets its own .gitignore that ignores everything in it (itself included). A
// dir that already existed is the user's (no .gitignore), except a `.svc` (the default name)
// made by an older svc, which is ours too. An existing .gitignore is never overwritten.

export const DATA_DIR_GITIGNORE = '# Written by svc: this folder holds API keys (live keys too) and the emulator\'s records.\n*\n';
const PRIVATE_DIR_MODE = 0o700;
const PRIVATE_FILE_MODE = 0o600;

/** Files only the emulator writes: a dir holding one of them is an emulator's data dir. */
const STORE_FILES = ['snapshot.ndjson', 'store.json', 'store.lock', 'emulator.json'];

export function prepareDataDir(dir: string, log: Pick<Logger, 'warn'>): void {
  const created = !existsSync(dir);
  if (created) mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const ours = created || basename(dir) === '.svc';
  const store = STORE_FILES.some((f) => existsSync(join(dir, f)));
  // An empty folder is about to hold keys; one holding a store already does. Only a store that
  // was readable is worth a line: an empty folder made with other modes (a new Docker volume) is
  // simply made private.
  if (ours || store || readdirSync(dir).length === 0) {
    const loosened = tighten(dir);
    if (loosened > 0 && store) log.warn(`${dir}: made ${loosened} file(s) and folder(s) private (files 0600, folders 0700); an older svc left them readable by other users, and they hold API keys and webhook secrets`);
  }
  if (!ours) return;
  try {
    writeFileSync(join(dir, '.gitignore'), DATA_DIR_GITIGNORE, { flag: 'wx', mode: PRIVATE_FILE_MODE });
  } catch {
    // EEXIST: the user's own .gitignore stays. Anything else (a read-only dir) is for the
    // store to report when it writes there.
  }
}

/** Takes group and other access away from `path` and everything under it; returns how many it changed. Symbolic links are left alone (chmod would follow them out of the dir). */
function tighten(path: string): number {
  const st = lstatSync(path);
  if (!st.isDirectory() && !st.isFile()) return 0;
  let changed = 0;
  if ((st.mode & 0o077) !== 0) {
    chmodSync(path, st.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE);
    changed++;
  }
  if (st.isDirectory()) for (const name of readdirSync(path)) changed += tighten(join(path, name));
  return changed;
}
