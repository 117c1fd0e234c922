import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_PORT } from '../../emulator/server.js';
import { packageFile } from '../../emulator/assets.js';
import { KEYS } from '../helpers/emulator.js';
import { readDockerfile } from './dockerfile.js';
import { freshNamespace, mountPoint, procView, processesUnavailable, readOnlyWorkdir, runToEnd, start, uidOf, type Run } from './image-process.js';

// The repository's Dockerfile. No Docker engine runs where these tests run, so the image is
// never built here: the first test holds the file to what the image promises (two stages, no
// compiler in the runtime, a non-root user, /data, 4242, a health check, the start command);
// the second runs its CMD and HEALTHCHECK lines as the image would run them — processes in a
// network namespace of their own, as the image's user, with its ENV, /data a fresh tmpfs.

const dockerfile = packageFile('Dockerfile');
const image = readDockerfile(dockerfile);
const runtime = image.stages[image.stages.length - 1]!;
const build = image.stages[0]!;
const runs = (stage: typeof build) => stage.instructions.filter((i) => i.keyword === 'RUN').map((i) => i.args);
const copies = (stage: typeof build) => stage.instructions.filter((i) => i.keyword === 'COPY').map((i) => i.args);

test('the Dockerfile: multi-stage, runtime without dev dependencies, non-root USER, VOLUME /data, EXPOSE 4242, HEALTHCHECK, CMD', () => {
  assert.ok(image.stages.length >= 2, 'a build stage and a runtime stage');
  assert.ok(build.name, 'the build stage is named (COPY --from=<name>)');
  // What we ship runs Node 24 LTS (the executable's line, scripts/build-exe.mjs), not Node 20, which reached its end of life.
  for (const stage of image.stages) assert.match(stage.from, /^node:24[-.\w]*$/, `FROM ${stage.from}: Node 24, the line we ship`);

  // Build: every dependency, then the package's own build (what npm pack ships).
  assert.ok(runs(build).some((r) => /\bnpm ci\b/.test(r) && !/--omit=dev/.test(r)), 'the build stage installs dev dependencies (tsc)');
  assert.ok(runs(build).some((r) => /tsc -p tsconfig\.build\.json/.test(r)), 'the build stage compiles with tsconfig.build.json');

  // Runtime: production dependencies only, and nothing that would need the compiler. npm ci
  // runs no install script (the package has none; its dependencies need none at run time).
  const install = runs(runtime).filter((r) => /\bnpm (ci|install|prune)\b/.test(r));
  assert.equal(install.length, 1, `one install in the runtime stage: ${install.join(' | ')}`);
  assert.match(install[0]!, /npm ci --omit=dev/);
  assert.match(install[0]!, /--ignore-scripts/, 'no install script runs in the image');
  assert.ok(!runs(runtime).some((r) => /\btsc\b|npm run build/.test(r)), 'the runtime stage compiles nothing');
  const pkg = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { bin: Record<string, string> };
  const runtimeCopies = copies(runtime).join('\n');
  assert.match(runtimeCopies, new RegExp(`--from=${build.name} /app/dist `), 'the compiled dist/ comes from the build stage');
  for (const needed of [pkg.bin.svc!, 'fixtures', 'package.json', 'package-lock.json']) assert.ok(runtimeCopies.includes(needed), `the runtime copies ${needed}`);

  assert.ok(image.user, 'USER is set');
  assert.notEqual(uidOf(image.user!), 0, `USER ${image.user} is not root`);
  assert.ok(image.volumes.includes('/data'), `VOLUME ${image.volumes.join(' ')}`);
  assert.deepEqual(image.exposed, [String(DEFAULT_PORT)], 'EXPOSE the port `svc emulator start` listens on by default');
  assert.ok(image.healthcheck, 'HEALTHCHECK');
  assert.deepEqual(image.healthcheck!.cmd.slice(0, 3), ['svc', 'emulator', 'status']);
  // Host and data dir come from ENV, not CMD flags: a flag would beat the variable a service container sets.
  assert.deepEqual(image.cmd, ['svc', 'emulator', 'start']);
  assert.deepEqual([image.env.SVC_HOST, image.env.SVC_DATA_DIR], ['0.0.0.0', '/data']);
  assert.equal(new URL(image.env.SVC_BASE_URL!).hostname, '127.0.0.1', 'the health check reaches the emulator on loopback (no Host list, no token)');
  assert.equal(new URL(image.env.SVC_BASE_URL!).port, String(DEFAULT_PORT));
});

test('.dockerignore keeps node_modules, dist and .svc out of the context, and nothing the build copies', () => {
  const ignored = readFileSync(packageFile('.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  for (const name of ['node_modules', 'dist', '.svc', '.git']) assert.ok(ignored.includes(name), `.dockerignore lists ${name}`);
  // Sources of COPY lines that read the build context (not --from=<stage>).
  const sources = image.stages.flatMap((s) => copies(s)).filter((c) => !c.startsWith('--from=')).flatMap((c) => c.replace(/--\S+\s+/g, '').split(' ').slice(0, -1));
  assert.ok(sources.length >= 5, sources.join(' '));
  for (const source of sources) {
    const hit = ignored.find((p) => source === p || source.startsWith(`${p}/`) || (p.startsWith('*') && source.endsWith(p.slice(1))));
    assert.equal(hit, undefined, `COPY ${source} is excluded by .dockerignore's "${hit}"`);
    assert.ok(existsSync(packageFile(source)), `COPY ${source}: no such file in the repository`);
  }
});

test('CMD and HEALTHCHECK run as the image runs them: health check exits 0, the API answers on loopback, ENV applied, /data private, SIGTERM exits 0', async (t) => {
  const why = processesUnavailable();
  if (why) {
    t.skip(why);
    return;
  }
  const uid = uidOf(image.user!);
  const volume = image.volumes[0]!;
  const space = freshNamespace('image');
  const mount = mountPoint(volume);
  const workdir = readOnlyWorkdir();
  // Docker sets HOME to the user's home; an empty folder stands in for /home/node.
  const env = { ...image.env, HOME: workdir };
  const as = (argv: string[], extra: Partial<Run> = {}): Run => ({ ns: space.ns, argv, env, uid, cwd: workdir, ...extra });
  const emulator = start(as(image.cmd!, { tmpfs: volume }));
  try {
    // Docker runs the health check until it passes (each run ends within its own --timeout).
    let health = await runToEnd(as(image.healthcheck!.cmd));
    for (let runs = 1; health.code !== 0 && emulator.child.exitCode === null && runs < 10; runs++) health = await runToEnd(as(image.healthcheck!.cmd));
    assert.equal(health.code, 0, `health check: ${health.stderr}\nemulator: ${emulator.stdout()}${emulator.stderr()}`);
    assert.match(health.stdout, /status\s+ok/);

    // Really serving: a merchant API call with a seeded test key, through the namespace's loopback.
    const get = `fetch(process.argv[1], { headers: { authorization: 'Bearer ' + process.argv[2] } }).then(async (r) => { console.log(r.status); console.log(await r.text()); })`;
    const api = await runToEnd(as(['node', '-e', get, `http://127.0.0.1:${image.exposed[0]}/v1/api/payments?limit=1`, KEYS.acmeTest]));
    const [status, body] = api.stdout.split('\n');
    assert.equal(status, '200', api.stdout + api.stderr);
    assert.equal(JSON.parse(body!).success, true);

    // The image's ENV reaches the emulator's process (read from /proc), and the health check
    // finds the emulator only through it: without it there is no URL to try, and --wait waits
    // in vain for one to appear (the discovery file is on /data, not in its folder): exit 1.
    const proc = procView(emulator.child.pid!);
    const seen = proc.env();
    for (const [k, v] of Object.entries(image.env)) assert.equal(seen[k], v, `ENV ${k} in the emulator's process`);
    assert.equal(proc.uid(), uid, 'the emulator runs as the image USER');
    const noEnv = await runToEnd(as(image.healthcheck!.cmd, { env: { HOME: workdir } }));
    assert.equal(noEnv.code, 1, noEnv.stderr);
    assert.match(noEnv.stderr, /no emulator to wait for appeared within 4 s .*: no base URL/);

    // The store lives on /data: the emulator's own view of it holds its files, owned by the
    // image user; the machine's /data (outside the test's mount namespace) stays empty.
    const files = readdirSync(proc.path(volume));
    assert.ok(files.includes('emulator.json') && files.some((f) => /^journal-\d+\.ndjson$/.test(f)), `${volume}: ${files.join(', ')}`);
    assert.equal(statSync(join(proc.path(volume), 'emulator.json')).uid, uid);
    assert.deepEqual(readdirSync(volume), [], `the test's ${volume} tmpfs leaked into the machine's mount namespace`);
    assert.deepEqual(readdirSync(workdir), [], 'nothing is written to the WORKDIR');

    // docker stop: SIGTERM, and the emulator flushes and exits 0.
    assert.equal(await emulator.stop(), 0, emulator.stderr());
    assert.match(emulator.stderr(), /SIGTERM: finishing requests and flushing the store/);
  } finally {
    await emulator.stop();
    space.destroy();
    mount.release();
    rmSync(workdir, { recursive: true, force: true });
  }
});
