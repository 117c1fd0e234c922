import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestEmulator, tempDir } from '../helpers/emulator.js';
import { startSvc } from '../helpers/svc-process.js';

// The data dir holds every key (live keys too). A dir the emulator creates, ./.svc above all,
// carries a .gitignore of `*`, so `git add .` in the app's folder never takes it; a user's own
// .gitignore there, or a folder of theirs given as --data-dir, is left alone.

const dirs: string[] = [];
const dir = (prefix: string) => {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
};
after(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });

test('svc emulator start in a git repo: the new ./.svc ignores itself, and git status shows only the app\'s files', async () => {
  const repo = dir('svc-gitignore-repo-');
  git(repo, 'init', '--quiet');
  writeFileSync(join(repo, 'app.js'), 'console.log(1);\n');
  const svc = await startSvc(['--port', '0', '--quiet'], undefined, { cwd: repo });
  try {
    assert.equal(svc.ready.data_dir, join(repo, '.svc'));
    assert.equal(readFileSync(join(repo, '.svc', '.gitignore'), 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).join('\n'), '*');
    // The running emulator's files are there (keys in the journal, emulator.json)…
    assert.ok(existsSync(join(repo, '.svc', 'emulator.json')));
    // …and git sees none of them, even with untracked files listed one by one.
    assert.equal(git(repo, 'status', '--porcelain', '--untracked-files=all'), '?? app.js\n');
    git(repo, 'add', '.');
    assert.equal(git(repo, 'diff', '--cached', '--name-only'), 'app.js\n', '`git add .` takes nothing from .svc/');
  } finally {
    svc.child.kill('SIGTERM');
    await svc.done;
  }
});

test('an existing .gitignore in the data dir is kept; an existing folder of the user\'s gets none; an older .svc gets one', async () => {
  const root = dir('svc-gitignore-');
  const own = join(root, 'own', '.svc');
  mkdirSync(own, { recursive: true });
  writeFileSync(join(own, '.gitignore'), 'journal-*\n');
  const users = join(root, 'data');
  mkdirSync(users);
  const older = join(root, 'older', '.svc');
  mkdirSync(older, { recursive: true });
  const nested = join(root, 'new', 'deep', 'emulator-data');
  for (const dataDir of [own, users, older, nested]) {
    const emu = await startTestEmulator({ dataDir });
    await emu.stop({ keepData: true });
  }
  assert.equal(readFileSync(join(own, '.gitignore'), 'utf8'), 'journal-*\n', 'never overwritten');
  assert.equal(existsSync(join(users, '.gitignore')), false, 'a folder the user made is theirs');
  assert.match(readFileSync(join(older, '.gitignore'), 'utf8'), /^\*$/m, 'a .svc from an older svc is ours');
  assert.match(readFileSync(join(nested, '.gitignore'), 'utf8'), /^\*$/m, 'any data dir the emulator creates');
});
