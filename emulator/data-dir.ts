import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

// The data dir holds every API key the emulator knows, live keys included, in plain text
// (fixtures, snapshot, journal). `.svc/` sits in the app's own folder, so a `git add .` would
// commit them: a dir the emulator creates gets its own .gitignore that ignores everything in it
// (itself included). A dir that already existed is the user's: left as it is, except a `.svc`
// (the default name) made by an older svc, which is ours too. An existing .gitignore is never
// overwritten.

export const DATA_DIR_GITIGNORE = '# Written by svc: this folder holds API keys (live keys too) and the emulator\'s records.\n*\n';

export function prepareDataDir(dir: string): void {
  const created = !existsSync(dir);
  if (created) mkdirSync(dir, { recursive: true });
  if (!created && basename(dir) !== '.svc') return;
  try {
    writeFileSync(join(dir, '.gitignore'), DATA_DIR_GITIGNORE, { flag: 'wx' });
  } catch {
    // EEXIST: the user's own .gitignore stays. Anything else (a read-only dir) is for the
    // store to report when it writes there.
  }
}
