import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/server.js';
import { tempDir } from '../helpers/emulator.js';
import { onLines } from '../helpers/svc-process.js';

// What a merchant gets: the project packed with `npm pack`, installed into a fresh project,
// and used there the four ways the README shows — the bin, the library, the testing API, and
// TypeScript with --strict against the shipped declarations.

const root = packageFile('');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const run = (cmd: string, args: string[], cwd: string) => execFileSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_loglevel: 'error', npm_config_update_notifier: 'false' }, stdio: ['ignore', 'pipe', 'pipe'] });

test('the packed tarball installs into a fresh project and works there: bin, library, testing API, types', { timeout: 240_000 }, async (t) => {
  const packDir = tempDir('svc-pack-');
  // The tarball is packed from the suite's own build (`npm test` compiled the project with
  // declarations just before; tsconfig.build.json, which `prepare` uses, differs only in what it
  // includes — checked below), so the project is not compiled a second time here. The copy keeps
  // the pack from ever touching the dist/ that the tests running beside this one import, and
  // holds only what `files` may ship, so a stray build output cannot hide in the tarball.
  const buildConfig = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8').replace(/^\s*\/\/.*$/gm, '')) as { extends: string; compilerOptions: Record<string, unknown>; include: string[] };
  assert.equal(buildConfig.extends, './tsconfig.json');
  assert.deepEqual(Object.keys(buildConfig.compilerOptions).sort(), ['declaration', 'incremental', 'tsBuildInfoFile']);
  assert.equal(buildConfig.compilerOptions.declaration, true);
  assert.equal((JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8')) as { compilerOptions: { declaration: boolean } }).compilerOptions.declaration, true, 'the suite builds the declarations it ships');
  assert.deepEqual(buildConfig.include, ['contract', 'src', 'emulator']);
  const copy = tempDir('svc-pack-src-');
  for (const entry of ['package.json', 'bin', 'fixtures', 'README.md', 'docs', ...buildConfig.include.map((dir) => join('dist', dir))]) cpSync(join(root, entry), join(copy, entry), { recursive: true });
  const packed = JSON.parse(run(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', packDir], copy)) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const files = packed[0].files.map((f) => f.path);
  assert.ok(files.includes('bin/svc.js'));
  assert.ok(files.includes('dist/src/testing/index.d.ts'));
  assert.ok(files.includes('dist/contract/routes.js'), 'the contract the CLI and the emulator share');
  assert.ok(files.includes('fixtures/fixtures.schema.json'));
  assert.deepEqual(files.filter((f) => /^dist\/(test|bench)\/|tsbuildinfo|^test\/|^bench\//.test(f)), [], 'no tests, bench or build info shipped');

  const app = tempDir('svc-app-');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'merchant-app', version: '1.0.0', private: true, type: 'module' }));
  run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(packDir, readdirSync(packDir).find((f) => f.endsWith('.tgz'))!)], app);

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

  // ESM imports of every export, from the app's folder.
  const probe = join(app, 'probe.mjs');
  writeFileSync(
    probe,
    `import { signPayload, verifySignature } from '${pkg.name}';
     import * as webhooks from '${pkg.name}/webhooks';
     import { startEmulator } from '${pkg.name}/testing';
     import { createRequire } from 'node:module';
     const require = createRequire(import.meta.url);
     const header = signPayload('whsec_test', '{"a":1}', Math.floor(Date.now() / 1000));
     const emu = await startEmulator();
     const res = await fetch(emu.baseUrl + '/v1/api/payment-links/pl_nope', { headers: { authorization: 'Bearer ' + emu.key('acme-test') } });
     await emu.reset();
     await emu.close();
     console.log(JSON.stringify({
       verified: verifySignature({ secret: 'whsec_test', header, body: '{"a":1}' }).ok,
       same: webhooks.verifySignature === verifySignature,
       status: res.status,
       version: require('${pkg.name}/package.json').version,
       bin: require.resolve('${pkg.name}/bin/svc.js').endsWith('bin/svc.js'),
       schema: require('${pkg.name}/fixtures.schema.json').title,
     }));`,
  );
  assert.deepEqual(JSON.parse(run(process.execPath, [probe], app)), { verified: true, same: true, status: 404, version: pkg.version, bin: true, schema: 'svc emulator fixtures' });

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

  // TypeScript, --strict, against the shipped declarations only (the app has no svc sources).
  writeFileSync(
    join(app, 'app.ts'),
    `import { verifySignature, type VerifyResult } from '${pkg.name}';
     import { startEmulator, type TestEmulator, type EventRecord } from '${pkg.name}/testing';
     const result: VerifyResult = verifySignature({ secret: 'whsec_x', header: 't=1,v1=00', body: '{}' });
     export async function useIt(): Promise<string> {
       const emu: TestEmulator = await startEmulator({ clock: 'manual', rateLimit: 'off' });
       const event: EventRecord = await emu.waitForEvent((e) => e.type === 'payment.completed', { timeout: 10 });
       await emu.clock.advance('1h');
       await emu.close();
       return event.id + String(result.ok);
     }`,
  );
  writeFileSync(join(app, 'bad.ts'), `import { startEmulator } from '${pkg.name}/testing';\nexport const x: number = (await startEmulator()).baseUrl;\n`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const tsFlags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--typeRoots', join(root, 'node_modules', '@types'), '--types', 'node'];
  // One compiler run for both files (the declarations are loaded once): the right use compiles,
  // and the wrong one is the only error — the types are real.
  assert.throws(
    () => run(process.execPath, [tsc, ...tsFlags, 'app.ts', 'bad.ts'], app),
    (err: { stdout?: string }) => {
      const errors = (err.stdout ?? '').split('\n').filter((line) => /error TS\d+/.test(line));
      assert.equal(errors.length, 1, err.stdout);
      assert.match(errors[0], /^bad\.ts.*Type 'string' is not assignable to type 'number'/);
      return true;
    },
  );
});
