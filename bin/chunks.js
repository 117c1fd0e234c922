'use strict';
// Loads the CLI bundle's chunks (dist/cli/*.cjs) with a V8 code cache, as Node 22's
// module.enableCompileCache() does (Node 20 has none). Measured in `npm run bench` (issue 28):
// compiling the chunks a command runs is a fifth of what svc adds to `node -e 0`, and resolving
// each chunk through require() (stat calls, realpath, the module wrapper) costs as much again,
// for files whose names esbuild already fixed. So a chunk's `require('./chunk-X.cjs')` comes
// here, is read from dist/cli directly, and is compiled with the bytes V8 produced the last time
// it compiled that chunk; anything else (node:*, express, zod) goes to Node's require().
//
// The cache: $SVC_COMPILE_CACHE (a folder; 0 turns it off), else $XDG_CACHE_HOME/svc or
// ~/.cache/svc, in a folder per Node version and architecture, one file per chunk. V8 itself
// refuses bytes from another V8 or other flags (cachedDataRejected); it checks only the source's
// length, so each file also records the chunk's size and mtime and is used only for that build.
// Files are written at exit, for chunks compiled without usable bytes, through a temporary file
// and a rename (another svc reading at the same time sees the old file or the new one). Any
// error reading or writing the cache only costs the compile it would have saved: never the command.
// NODE_DEBUG=svc names each chunk loaded and whether its cache was used (test/cli/cold-start-modules).

const { closeSync, fstatSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { Script } = require('node:vm');

const dir = join(__dirname, '..', 'dist', 'cli');
const debug = /\bsvc\b/.test(process.env.NODE_DEBUG || '');
const cacheDir = cacheFolder(process.env);
/** Chunk name -> its module, as require.cache holds them: each chunk runs once. */
const loaded = new Map();
/** Chunks compiled without usable cached bytes: [script, cache file, header]. */
const toWrite = [];

function cacheFolder(env) {
  const chosen = env.SVC_COMPILE_CACHE;
  if (chosen === '0') return undefined;
  const base = chosen || (env.XDG_CACHE_HOME ? join(env.XDG_CACHE_HOME, 'svc') : env.HOME ? join(env.HOME, '.cache', 'svc') : undefined);
  return base && join(base, `v8-${process.version}-${process.arch}`);
}

/** The cached bytes for a chunk of this size and mtime, if the file holds them. */
function cached(file, header) {
  try {
    const bytes = readFileSync(file);
    const end = bytes.indexOf(10);
    if (end === -1 || bytes.toString('utf8', 0, end) !== header) return undefined;
    return bytes.subarray(end + 1);
  } catch {
    return undefined;
  }
}

function requireFromChunk(id) {
  return id.startsWith('./') && id.endsWith('.cjs') && !id.includes('/', 2) ? load(id.slice(2)) : require(id);
}

/** Runs dist/cli/<name> once and returns its exports. */
function load(name) {
  const known = loaded.get(name);
  if (known) return known.exports;
  const filename = join(dir, name);
  const fd = openSync(filename, 'r');
  let source;
  let stat;
  try {
    stat = fstatSync(fd);
    source = readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
  const module = { exports: {}, filename, loaded: false };
  loaded.set(name, module);
  if (source.includes('import(')) return compiledByNode(module, source);
  const header = `svc-v8 1 ${stat.size} ${stat.mtimeMs}`;
  const cacheFile = cacheDir && join(cacheDir, `${name}.v8`);
  const cachedData = cacheFile && cached(cacheFile, header);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename, cachedData });
  const used = cachedData !== undefined && !script.cachedDataRejected;
  if (cacheFile && !used) toWrite.push([script, cacheFile, header]);
  if (debug) process.stderr.write(`SVC ${process.pid}: chunk ${filename} ${used ? 'from the code cache' : 'compiled'}\n`);
  script.runInThisContext()(module.exports, requireFromChunk, module, filename, dir);
  module.loaded = true;
  return module.exports;
}

/**
 * A chunk that import()s an ES module (the prompts' @inquirer/prompts, the one package svc loads
 * that way): code compiled by vm.Script can run import() only behind an experimental flag or
 * warning, so Node compiles this one, uncached, with its require() still coming here.
 */
function compiledByNode(module, source) {
  const Module = require('node:module');
  const node = new Module(module.filename, null);
  node.filename = module.filename;
  node.paths = Module._nodeModulePaths(dir);
  node.require = requireFromChunk;
  node.exports = module.exports;
  node._compile(source, module.filename);
  module.exports = node.exports;
  module.loaded = true;
  if (debug) process.stderr.write(`SVC ${process.pid}: chunk ${module.filename} compiled by node (it imports an ES module)\n`);
  return module.exports;
}

process.once('exit', () => {
  if (toWrite.length === 0) return;
  try {
    mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    for (const [script, file, header] of toWrite) {
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, Buffer.concat([Buffer.from(`${header}\n`), script.createCachedData()]), { mode: 0o600 });
      renameSync(temp, file);
    }
  } catch {
    // A read-only or full disk: the next start compiles again, as it would have without a cache.
  }
});

module.exports = { load };
