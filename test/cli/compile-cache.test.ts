import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/emulator.js';
import { runCli } from './cli.js';

// bin/chunks.js compiles the CLI's chunks with a V8 code cache kept between runs. A cache can
// only ever save time: a missing, stale, corrupt or unwritable one must leave every command
// working and saying exactly what it says without it.

const folderOf = (cacheDir: string) => join(cacheDir, `v8-${process.version}-${process.arch}`);

/** `svc --help` with the cache in `env`, and the chunks it loaded: name -> compiled or cached. */
async function help(env: Record<string, string | undefined>) {
  const r = await runCli(['--help'], { binary: true, env: { NODE_DEBUG: 'svc', ...env } });
  assert.equal(r.code, 0, r.stderr);
  const chunks = new Map<string, string>();
  for (const m of r.stderr.matchAll(/^SVC \d+: chunk \S+\/([\w.-]+) (compiled|from the code cache)$/gm)) chunks.set(m[1], m[2]);
  const other = r.stderr.split('\n').filter((l) => l && !l.startsWith('SVC '));
  assert.deepEqual(other, [], 'nothing on stderr but the debug lines');
  return { stdout: r.stdout, chunks };
}

test('the first run compiles and keeps the bytes (0700 folder, 0600 files); the next run uses them and prints the same', async () => {
  const cache = tempDir('svc-cc-');
  const first = await help({ SVC_COMPILE_CACHE: cache });
  assert.ok(first.chunks.size >= 3, `chunks loaded: ${[...first.chunks.keys()]}`);
  assert.deepEqual(new Set(first.chunks.values()), new Set(['compiled']));
  const folder = folderOf(cache);
  assert.equal(statSync(folder).mode & 0o777, 0o700);
  const files = readdirSync(folder);
  assert.deepEqual(files.sort(), [...first.chunks.keys()].map((c) => `${c}.v8`).sort(), 'one file per chunk, no temporary file left');
  for (const f of files) assert.equal(statSync(join(folder, f)).mode & 0o777, 0o600, f);
  const second = await help({ SVC_COMPILE_CACHE: cache });
  assert.deepEqual(new Set(second.chunks.values()), new Set(['from the code cache']));
  assert.equal(second.stdout, first.stdout);
  assert.match(second.stdout, /^Usage: svc /);
});

test('garbage, truncated or another build\'s bytes are not used: the chunk is compiled, the output is the same, the file is rewritten', async () => {
  const cache = tempDir('svc-cc-');
  const clean = await help({ SVC_COMPILE_CACHE: cache });
  const folder = folderOf(cache);
  const [garbage, truncated, stale] = readdirSync(folder).sort();
  const header = (file: string) => readFileSync(join(folder, file)).subarray(0, readFileSync(join(folder, file)).indexOf(10) + 1);
  writeFileSync(join(folder, garbage), Buffer.concat([header(garbage), Buffer.alloc(4096, 0x5a)]));
  const whole = readFileSync(join(folder, truncated));
  writeFileSync(join(folder, truncated), whole.subarray(0, header(truncated).length + Math.floor((whole.length - header(truncated).length) / 2)));
  // The same chunk name from another build: its size or mtime differs from the header's.
  const otherBuild = header(stale).toString().replace(/^(svc-v8 1 \d+ )([\d.]+)\n$/, (_m, head, mtime) => `${head}${Number(mtime) - 1000}\n`);
  assert.notEqual(otherBuild, header(stale).toString());
  writeFileSync(join(folder, stale), Buffer.concat([Buffer.from(otherBuild), readFileSync(join(folder, stale)).subarray(header(stale).length)]));
  const run = await help({ SVC_COMPILE_CACHE: cache });
  assert.equal(run.stdout, clean.stdout);
  for (const name of [garbage, truncated, stale]) assert.equal(run.chunks.get(name.replace(/\.v8$/, '')), 'compiled', name);
  const again = await help({ SVC_COMPILE_CACHE: cache });
  assert.deepEqual(new Set(again.chunks.values()), new Set(['from the code cache']), 'the bad files were replaced');
});

test('a cache folder that cannot be made costs nothing but the compile', async () => {
  const dir = tempDir('svc-cc-');
  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a folder');
  const r = await help({ SVC_COMPILE_CACHE: join(file, 'cache') });
  assert.match(r.stdout, /^Usage: svc /);
  assert.deepEqual(new Set(r.chunks.values()), new Set(['compiled']));
  assert.equal(readFileSync(file, 'utf8'), 'not a folder');
});

test('where the cache goes: SVC_COMPILE_CACHE=0 writes none; XDG_CACHE_HOME, then HOME/.cache', async () => {
  const home = tempDir('svc-cc-home-');
  await help({ HOME: home, XDG_CACHE_HOME: undefined, SVC_COMPILE_CACHE: '0' });
  assert.equal(existsSync(join(home, '.cache')), false);
  const xdg = tempDir('svc-cc-xdg-');
  await help({ HOME: home, XDG_CACHE_HOME: xdg });
  assert.ok(readdirSync(folderOf(join(xdg, 'svc'))).length > 0);
  assert.equal(existsSync(join(home, '.cache')), false);
  await help({ HOME: home, XDG_CACHE_HOME: undefined });
  assert.ok(readdirSync(folderOf(join(home, '.cache', 'svc'))).length > 0);
});
