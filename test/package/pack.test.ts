import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { tempDir } from '../helpers/emulator.js';
import { onLines } from '../helpers/svc-process.js';
import { consumerLock, type PackageLock } from './consumer-lock.js';
import { CONSUMER_PROJECTS, type ConsumerProject, type RunnerProject, type TypeScriptProject } from './consumer-projects.js';

// What a merchant gets: the project packed with `npm pack`, installed into a fresh app, and used
// there every way the README shows — the bin, the library, the testing API — and in fresh
// projects beside it: node:test, vitest, jest (CommonJS and ESM), and `tsc --strict` under
// node16 (CommonJS and ESM), nodenext, bundler and node10.

interface Manifest {
  name: string;
  version: string;
  license: string;
  files: string[];
  main: string;
  types: string;
  typesVersions: Record<string, Record<string, string[]>>;
  exports: Record<string, unknown>;
  bin: Record<string, string>;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
}

const root = packageFile('');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// The runners print for a pipe: no colours. A nested `node --test` must not think it is ours.
const { NODE_TEST_CONTEXT: _ours, ...inherited } = process.env;
const env = { ...inherited, NO_COLOR: '1', npm_config_loglevel: 'warn', npm_config_update_notifier: 'false' };
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', env, stdio: ['ignore', 'pipe', 'pipe'] });
/** What the fresh projects run besides the tarball, at the repository's own versions. */
const RUNNERS = ['jest', 'vitest', 'typescript', '@types/node'];

let app = '';
let files: string[] = [];
let installLog = '';

before(
  () => {
    // The tarball is packed from the suite's own build (`npm test` compiled the project, with
    // declarations and the CommonJS build, just before; `prepack` builds the same with
    // tsconfig.build.json, which differs only in what it includes — checked here), so nothing
    // is compiled a second time. The copy keeps the pack away from the dist/ the tests beside
    // this one import, holds only what `files` names, and only compiled files whose source
    // still exists (tsc never deletes an output): what a clean `prepack` build would ship.
    const buildConfig = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { extends: string; compilerOptions: Record<string, unknown>; include: string[] };
    assert.equal(buildConfig.extends, './tsconfig.json');
    assert.deepEqual(Object.keys(buildConfig.compilerOptions).sort(), ['declaration', 'incremental', 'tsBuildInfoFile']);
    assert.equal(buildConfig.compilerOptions.declaration, true);
    assert.equal((JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: { declaration: boolean } }).compilerOptions.declaration, true, 'the suite builds the declarations it ships');
    assert.deepEqual(buildConfig.include, ['contract', 'src', 'emulator']);
    assert.ok(/ && node scripts\/build-cjs\.mjs( && node scripts\/lib\/build-stamp\.mjs end)?$/.test(pkg.scripts.build) && pkg.scripts.prepack.endsWith(' && node scripts/build-cjs.mjs'), 'the suite builds the CommonJS build the tarball ships');

    const copy = tempDir('svc-pack-src-');
    const hasSource = (compiled: string) => {
      const source = relative(join(root, 'dist'), compiled).replace(/(\.d)?\.ts$|\.js$/, '');
      return ['.ts', '.tsx'].some((ext) => existsSync(join(root, source + ext)));
    };
    for (const entry of ['package.json', ...pkg.files.map((f) => f.replace(/\/\*.*$/, ''))]) {
      const from = join(root, entry);
      // dist/cjs, dist/cli and dist/testing are esbuild's bundles (scripts/build-cjs.mjs, build-bundles.mjs): no file has one source.
      const sourced = entry.startsWith('dist/') && !['dist/cjs', 'dist/cli', 'dist/testing'].includes(entry);
      mkdirSync(dirname(join(copy, entry)), { recursive: true });
      cpSync(from, join(copy, entry), { recursive: true, filter: (f) => !sourced || statSync(f).isDirectory() || hasSource(f) });
    }
    app = tempDir('svc-app-');
    const packed = JSON.parse(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', app], copy)) as Array<{ filename: string; files: Array<{ path: string }> }>;
    rmSync(copy, { recursive: true, force: true });
    files = packed[0]!.files.map((f) => f.path);

    // One install for every project: the app's node_modules holds the tarball and the runners,
    // and each project folder below it resolves them from there, as in a workspace.
    const manifest = JSON.parse(execFileSync('tar', ['-xzOf', join(app, packed[0]!.filename), 'package/package.json'], { encoding: 'utf8' })) as Manifest;
    const repoLock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as PackageLock;
    const { dependencies, lock } = consumerLock(repoLock, 'merchant-app', { spec: `file:${packed[0]!.filename}`, manifest }, RUNNERS);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'merchant-app', version: '1.0.0', private: true, type: 'module', dependencies }));
    writeFileSync(join(app, 'package-lock.json'), JSON.stringify(lock));
    const install = spawnSync(npm, ['ci', '--prefer-offline', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8', env });
    installLog = `${install.stdout}\n${install.stderr}`;
    assert.equal(install.status, 0, installLog);
  },
  { timeout: 240_000 },
);
after(() => rmSync(app, { recursive: true, force: true }));

test('the tarball: both builds and their types behind every export, a LICENSE, no PNGs, no install script', () => {
  assert.ok(files.includes('bin/svc.js'));
  assert.ok(files.includes('dist/contract/routes.js'), 'the contract the CLI and the emulator share');
  assert.ok(files.includes('fixtures/fixtures.schema.json'));
  assert.ok(files.includes('scenarios/scenario.schema.json') && files.includes('scenarios/flows/link-paid.yaml') && files.includes('scenarios/parity/auth.yaml'), 'the shipped scenarios');
  assert.deepEqual(files.filter((f) => /^dist\/(test|bench)\/|tsbuildinfo|^test\/|^bench\//.test(f)), [], 'no tests, bench or build info shipped');
  assert.deepEqual(files.filter((f) => /\.png$/i.test(f)), [], 'the dashboard screenshots (docs/*.png) stay in the repository');
  assert.ok(files.some((f) => f.startsWith('docs/')), 'the docs ship, as text');

  // Every path package.json points at is in the tarball: exports (both conditions, both types),
  // main/types and typesVersions (node10), the bin.
  const targets = (value: unknown): string[] => (typeof value === 'string' ? [value] : Object.values(value as object).flatMap(targets));
  const pointed = [...targets(pkg.exports), pkg.main, pkg.types, ...targets(pkg.typesVersions), ...targets(pkg.bin)].map((p) => p.replace(/^\.\//, ''));
  assert.deepEqual(pointed.filter((p) => !files.includes(p)), []);
  for (const entry of ['.', './webhooks', './testing']) {
    const conditions = pkg.exports[entry] as Record<'import' | 'require', { types: string; default: string }>;
    assert.deepEqual(Object.keys(conditions), ['import', 'require'], entry);
    assert.match(conditions.import.types, /\.d\.ts$/);
    // ./testing's ES module is the bundle that starts fast (dist/testing/index.js); the others are tsc's output.
    assert.match(conditions.import.default, entry === './testing' ? /^\.\/dist\/testing\/index\.js$/ : /^\.\/dist\/src\/.*\.js$/);
    assert.match(conditions.require.types, /\.d\.cts$/, 'TypeScript reads a .d.ts beside "type": "module" as ESM');
    assert.match(conditions.require.default, /\.cjs$/);
  }

  const installed = join(app, 'node_modules', pkg.name);
  const license = readFileSync(join(installed, 'LICENSE'), 'utf8');
  assert.match(license, /^MIT License/);
  assert.match(license, /Copyright \(c\) 2026 svc contributors/);
  assert.equal((JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest).license, 'MIT');

  // npm runs none of the package's scripts on the merchant's machine, and says so: it names
  // every package with one (`svc-toolkit@0.1.0 (prepare: …)` before).
  const scripts = Object.keys((JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Manifest).scripts ?? {});
  assert.deepEqual(scripts.filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s)), []);
  assert.doesNotMatch(installLog, new RegExp(`${pkg.name}@\\S+ \\(`), installLog);
});

test('the installed package: the bin, the emulator, every export from ESM and CommonJS, exec', { timeout: 120_000 }, async (t) => {
  // The bin, through npx, as the README says.
  assert.equal(run('npx', ['--no-install', 'svc', '--version'], app).trim(), pkg.version);

  // The emulator from the installed package, with its bundled fixtures.
  // (The linked bin itself, not through npx: npx would not pass our SIGTERM on.)
  const child = spawn(process.execPath, [join(app, 'node_modules', '.bin', 'svc'), 'emulator', 'start', '--port', '0', '--json', '--data-dir', join(app, '.svc')], { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise((ok) => child.once('close', ok));
  t.after(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const ready = await new Promise<{ base_url: string; keys: unknown[] }>((ok, fail) => {
    onLines(child, (line) => ok(JSON.parse(line)));
    child.once('exit', (code) => fail(new Error(`svc emulator start exited with ${code}`)));
  });
  assert.ok(ready.keys.length >= 5);
  const health = (await (await fetch(`${ready.base_url}/_emulator/health`)).json()) as { data: { ok: boolean } };
  assert.equal(health.data.ok, true);

  // Every export, imported (the ESM build) and required (the CommonJS build) from the app's
  // folder: the same answers from both.
  const probe = (load: string, resolve: string) => `${load}
     const header = signPayload('whsec_test', '{"a":1}', Math.floor(Date.now() / 1000));
     const emu = await startEmulator();
     const res = await fetch(emu.baseUrl + '/v1/api/payment-links/pl_nope', { headers: { authorization: 'Bearer ' + emu.key('acme-test') } });
     await emu.reset();
     await emu.close();
     console.log(JSON.stringify({
       verified: verifySignature({ secret: 'whsec_test', header, body: '{"a":1}' }).ok,
       webhooks: webhooks.verifySignature({ secret: 'whsec_test', header, body: '{"a":2}' }).ok,
       status: res.status,
       version: require('${pkg.name}/package.json').version,
       bin: require.resolve('${pkg.name}/bin/svc.js').endsWith('bin/svc.js'),
       // Required, the bin runs nothing (no CLI output would follow this line, no exit code be set).
       binRequired: JSON.stringify(require('${pkg.name}/bin/svc.js')),
       schema: require('${pkg.name}/fixtures.schema.json').title,
       scenarioSchema: require('${pkg.name}/scenario.schema.json').title,
       testing: ${resolve}('${pkg.name}/testing').replace(/.*\\/dist\\//, 'dist/'),
     }));`;
  writeFileSync(
    join(app, 'probe.mjs'),
    probe(`import { signPayload, verifySignature } from '${pkg.name}';
     import * as webhooks from '${pkg.name}/webhooks';
     import { startEmulator } from '${pkg.name}/testing';
     import { createRequire } from 'node:module';
     const require = createRequire(import.meta.url);`, 'import.meta.resolve'),
  );
  writeFileSync(
    join(app, 'probe.cjs'),
    `(async () => {${probe(`const { signPayload, verifySignature } = require('${pkg.name}');
     const webhooks = require('${pkg.name}/webhooks');
     const { startEmulator } = require('${pkg.name}/testing');`, 'require.resolve')}
     })();`,
  );
  const answers = { verified: true, webhooks: false, status: 404, version: pkg.version, bin: true, binRequired: '{}', schema: 'svc emulator fixtures', scenarioSchema: 'svc scenario file' };
  assert.deepEqual(JSON.parse(run(process.execPath, ['probe.mjs'], app)), { ...answers, testing: 'dist/testing/index.js' });
  assert.deepEqual(JSON.parse(run(process.execPath, ['probe.cjs'], app)), { ...answers, testing: 'dist/cjs/testing.cjs' });

  // `svc emulator exec` from the installed package: the app's own check runs against an
  // emulator that lives exactly as long as it, and exec passes its exit code on.
  writeFileSync(
    join(app, 'check.mjs'),
    `const res = await fetch(process.env.SVC_BASE_URL + '/v1/api/payments', { headers: { authorization: 'Bearer ' + process.env.SVC_API_KEY } });
     console.log(res.status);
     process.exit(res.status === 200 ? 7 : 1);`,
  );
  const exec = spawnSync(process.execPath, [join(app, 'node_modules', '.bin', 'svc'), 'emulator', 'exec', '--', process.execPath, 'check.mjs'], { cwd: app, encoding: 'utf8' });
  assert.equal(exec.status, 7, exec.stderr);
  assert.equal(exec.stdout.trim(), '200');

  // The shipped scenarios from the installed package: listed, and one run against its emulator.
  const svc = (args: string[]) => spawnSync(process.execPath, [join(app, 'node_modules', '.bin', 'svc'), ...args], { cwd: app, encoding: 'utf8' });
  const list = svc(['scenario', 'list', '--json']);
  assert.equal(list.status, 0, list.stderr);
  assert.equal((JSON.parse(list.stdout) as { name: string }[]).filter((r) => r.name === 'link-paid' || r.name === 'payment.completed').length, 2);
  const scenario = svc(['scenario', 'run', 'link-paid', '--base-url', ready.base_url, '--api-key', 'svc_test_acme0all0scopes0000000000001', '--json']);
  assert.equal(scenario.status, 0, scenario.stdout + scenario.stderr);
  assert.equal((JSON.parse(scenario.stdout) as { ok: boolean }).ok, true);
});

/** Runs node in a project's folder; the process group is killed at the end whatever happened. */
async function node(cwd: string, args: string[]): Promise<{ status: number | null; output: string }> {
  const child = spawn(process.execPath, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  try {
    const status = await new Promise<number | null>((ok, fail) => {
      child.once('error', fail);
      child.once('close', ok);
    });
    return { status, output: output.replace(/\x1b\[[0-9;]*m/g, '') };
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group is gone: nothing was left running.
    }
  }
}

async function runTests(dir: string, project: RunnerProject): Promise<void> {
  const { status, output } = await node(dir, project.args);
  assert.equal(status, 0, output);
  assert.match(output, project.passed, output);
}

async function typeCheck(dir: string, project: TypeScriptProject): Promise<void> {
  // One compiler run: the right use compiles, and the wrong one is the only error.
  const { status, output } = await node(dir, [join('..', '..', 'node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--explainFiles']);
  const errors = output.split('\n').filter((line) => /error TS\d+/.test(line));
  assert.equal(status, 2, output.slice(0, 4000));
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(errors[0]!, /^bad\.ts.*Type 'string' is not assignable to type 'number'/);
  // --explainFiles: each loaded file, then why (`Imported via 'svc-toolkit' from file 'app.ts' …`).
  const loadedFor = new Map<string, string>();
  let file = '';
  for (const line of output.split('\n')) {
    if (line && !line.startsWith(' ')) file = line;
    const via = /^\s+Imported via '([^']+)' from file '([^']+)'/.exec(line);
    if (via) loadedFor.set(`${via[2]} ${via[1]}`, file.replace(/^.*node_modules\/svc-toolkit\//, ''));
  }
  for (const [app, entries] of Object.entries(project.resolves)) {
    for (const [entry, declarations] of Object.entries(entries)) assert.equal(loadedFor.get(`${app} ${entry}`), declarations, `${app}: ${entry}`);
  }
}

test('the packed tarball in fresh projects: node:test, vitest, jest (CommonJS, ESM); tsc --strict under node16 (CommonJS, ESM), nodenext, bundler, node10', { concurrency: 2, timeout: 240_000 }, async (t) => {
  const projects = join(app, 'projects');
  await Promise.all(
    CONSUMER_PROJECTS.map((project: ConsumerProject) =>
      t.test(project.name, async () => {
        const dir = join(projects, project.name);
        mkdirSync(dir, { recursive: true });
        for (const [name, text] of Object.entries(project.files)) writeFileSync(join(dir, name), text);
        if (project.kind === 'runner') await runTests(dir, project);
        else await typeCheck(dir, project);
      }),
    ),
  );
});
