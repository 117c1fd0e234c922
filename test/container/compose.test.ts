import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { parseControlToken, parsePublicUrl } from '../../contract/network.js';
import { createNetnsPair, netnsUnavailable } from '../../bench/lib/netns.js';
import { readDockerfile } from './dockerfile.js';
import { interpolate, readComposeYaml, readDotEnv, type Yaml } from './compose-yaml.js';
import { mountPoint, processesUnavailable, readOnlyWorkdir, runToEnd, start, uidOf, type Run, type Started } from './image-process.js';

// examples/compose: the emulator image, an app that verifies webhooks, and a test runner.
// Docker is not here, so the first test reads the file (in the YAML subset compose-yaml.ts
// knows) and holds it to the Dockerfile (same start command, health check, volume, port) and to
// itself (every name another service uses is on --allow-host, the token is one variable). The
// second runs the three services as processes on two network hosts named svc and app
// (bench/lib/netns.ts; the test runner shares app's): what compose would run, with the
// container paths of the bind mounts mapped to the example's folders.

const composeFile = packageFile('examples/compose/docker-compose.yml');
const composeDir = dirname(composeFile);
const compose = readComposeYaml(composeFile);
const dotEnv = readDotEnv(join(composeDir, '.env'));
const image = readDockerfile(packageFile('Dockerfile'));

type Service = { [key: string]: Yaml };
const services = compose.services as Record<string, Service>;
const list = (v: Yaml | undefined) => v as string[];
const map = (v: Yaml | undefined) => (v ?? {}) as Record<string, string>;
/** The service's environment with ${…} filled from .env. */
const environment = (s: Service) => Object.fromEntries(Object.entries(map(s.environment)).map(([k, v]) => [k, interpolate(v, dotEnv)]));
/** `--flag value` pairs of a command line. */
const flagValues = (argv: string[], flag: string) => argv.flatMap((a, i) => (a === flag ? [argv[i + 1]!] : []));

/** Bind mounts (./dir:/path[:ro]) as [host path, container path]. */
function binds(s: Service): [string, string][] {
  return list(s.volumes ?? [])
    .filter((v) => v.startsWith('./'))
    .map((v) => {
      const [host, container] = v.split(':') as [string, string];
      return [resolve(composeDir, host), container];
    });
}

/** A container path under a bind mount, as the host path. */
function hostPath(s: Service, path: string): string {
  for (const [host, container] of binds(s)) if (path === container || path.startsWith(`${container}/`)) return host + path.slice(container.length);
  return path;
}

test('docker-compose.yml: svc runs the Dockerfile CMD with --allow-host for every name others use, one control token, health-gated start', () => {
  assert.deepEqual(Object.keys(services), ['svc', 'app', 'tests']);
  const { svc, app, tests } = services as Record<'svc' | 'app' | 'tests', Service>;

  // The image: the repository's Dockerfile, started with its own CMD plus the network flags.
  const buildSpec = svc.build as Record<string, string>;
  assert.equal(resolve(composeDir, buildSpec.context!, buildSpec.dockerfile!), packageFile('Dockerfile'));
  const command = list(svc.command);
  assert.deepEqual(command.slice(0, image.cmd!.length), image.cmd, 'starts with the Dockerfile CMD');
  assert.deepEqual(list(svc.healthcheck && (svc.healthcheck as Service).test), ['CMD', ...image.healthcheck!.cmd], 'the same health check as the image');
  const [volumeName, volumePath] = list(svc.volumes)[0]!.split(':');
  assert.equal(volumePath, image.volumes[0], 'the named volume is mounted on the image VOLUME');
  assert.ok(volumeName! in (compose.volumes as Record<string, Yaml>), `volume ${volumeName} is declared`);
  assert.deepEqual(list(svc.ports), [`${image.exposed[0]}:${image.exposed[0]}`]);

  // Every host name the other services use for svc or for each other is on the allow list
  // (Host check; http:// webhook endpoints to app).
  const allowed = flagValues(command, '--allow-host');
  const urls = [app, tests].flatMap((s) => Object.values(environment(s)).filter((v) => /^https?:\/\//.test(v)));
  assert.ok(urls.length >= 3, urls.join(' '));
  for (const url of urls) assert.ok(allowed.includes(new URL(url).hostname), `${url}: --allow-host ${new URL(url).hostname} is missing (allowed: ${allowed.join(', ')})`);
  assert.equal(flagValues(command, '--public-url').length, 1);
  parsePublicUrl(flagValues(command, '--public-url')[0]!);

  // One token: what svc is started with is what the test runner sends.
  assert.equal(map(svc.environment).SVC_CONTROL_TOKEN, '${SVC_CONTROL_TOKEN}');
  assert.equal(map(tests.environment).SVC_CONTROL_TOKEN, '${SVC_CONTROL_TOKEN}');
  parseControlToken(dotEnv.SVC_CONTROL_TOKEN!);
  assert.ok(!('SVC_CONTROL_TOKEN' in map(app.environment)), 'the app does not need the control token');

  // Start order: app after svc is healthy, tests after both.
  const condition = (s: Service, on: string) => ((s.depends_on as Record<string, Record<string, string>>)[on] ?? {}).condition;
  assert.equal(condition(app, 'svc'), 'service_healthy');
  assert.equal(condition(tests, 'svc'), 'service_healthy');
  assert.equal(condition(tests, 'app'), 'service_healthy');
  assert.ok(app.healthcheck, 'app has a health check (tests wait for it)');

  // The bind-mounted scripts exist where the commands name them.
  assert.ok(existsSync(join(hostPath(app, app.working_dir as string), list(app.command)[1]!)), 'app command');
  assert.ok(existsSync(hostPath(tests, list(tests.command)[1]!)), 'tests command');
});

test('the three services as processes on hosts svc and app: svc healthy, app registers and turns healthy, tests pass (API, control API with the token, verified webhook)', async (t) => {
  const why = processesUnavailable() ?? netnsUnavailable();
  if (why) {
    t.skip(why);
    return;
  }
  const { svc, app, tests } = services as Record<'svc' | 'app' | 'tests', Service>;
  const pair = createNetnsPair();
  const volume = image.volumes[0]!;
  const mount = mountPoint(volume);
  const home = readOnlyWorkdir();
  const running: Started[] = [];
  try {
    // svc: the image's ENV and user, then the service's environment (compose's order).
    const svcRun = (argv: string[], extra: Partial<Run> = {}): Run => ({
      ns: pair.svc.ns,
      argv,
      env: { ...image.env, ...environment(svc), HOME: home },
      uid: uidOf(image.user!),
      cwd: home,
      ...extra,
    });
    // app and tests: node:20 images (root, no ENV of ours), on the app host.
    const nodeRun = (s: Service, argv: string[]): Run => ({
      ns: pair.app.ns,
      argv: argv.map((a) => hostPath(s, a)),
      env: { ...environment(s), HOME: home },
      uid: 0,
      cwd: s.working_dir ? hostPath(s, s.working_dir as string) : home,
    });
    const healthy = async (run: Run, process: Started) => {
      let r = await runToEnd(run);
      for (let runs = 1; r.code !== 0 && process.child.exitCode === null && runs < 10; runs++) r = await runToEnd(run);
      assert.equal(r.code, 0, `health check ${run.argv.join(' ')}: ${r.stdout}${r.stderr}\nservice: ${process.stdout()}${process.stderr()}`);
    };

    const emulator = start(svcRun(list(svc.command), { tmpfs: volume }));
    running.push(emulator);
    await healthy(svcRun(list((svc.healthcheck as Service).test).slice(1)), emulator);

    const receiver = start(nodeRun(app, list(app.command)));
    running.push(receiver);
    await healthy(nodeRun(app, list((app.healthcheck as Service).test).slice(1)), receiver);
    assert.match(receiver.stdout(), /receiver: registered we_\w+ for http:\/\/app:3000\/webhooks/);

    const run = await runToEnd(nodeRun(tests, list(tests.command)));
    assert.equal(run.code, 0, `tests:\n${run.stdout}${run.stderr}\napp:\n${receiver.stdout()}${receiver.stderr()}\nsvc:\n${emulator.stderr()}`);
    assert.match(run.stdout, /ok {3}control API without the token: 401, Svc-Guard: token/);
    assert.match(run.stdout, /ok {3}the app received payment\.completed of pay_\w+ with a verified Svc-Signature/);
    assert.match(run.stdout, /all checks passed/);
    assert.match(receiver.stdout(), /payment\.completed of pay_\w+ \(delivery dlv_\w+\) verified/);
    assert.doesNotMatch(receiver.stdout(), /refused a delivery/);

    // The receiver really checks: a delivery with a made-up signature is refused.
    const forge = `fetch('http://app:3000/webhooks', { method: 'POST', headers: { 'svc-signature': 't=' + Math.floor(Date.now() / 1000) + ',v1=' + '0'.repeat(64) }, body: '{"type":"payment.completed"}' }).then(async (r) => console.log(r.status, await r.text()))`;
    const forged = await runToEnd(nodeRun(tests, ['node', '-e', forge]));
    assert.match(forged.stdout, /^400 .*signature does not match/, forged.stdout + forged.stderr);

    // `svc emulator status --wait` from the other host, as a CI job would run it: the door asks
    // for the token, so without one it stops at once (exit 1, naming the fix); with it, exit 0.
    const statusRun = (env: Record<string, string>): Run => ({ ns: pair.app.ns, argv: ['svc', 'emulator', 'status', '--wait', '--timeout', '10s'], env: { SVC_BASE_URL: 'http://svc:4242', HOME: home, ...env }, uid: 0, cwd: home });
    const noToken = await runToEnd(statusRun({}));
    assert.equal(noToken.code, 1, noToken.stderr);
    assert.match(noToken.stderr, /UNAUTHORIZED \(HTTP 401\): the emulator at http:\/\/svc:4242 refused the request: .*Pass --control-token <token> or set SVC_CONTROL_TOKEN/);
    assert.doesNotMatch(noToken.stderr, /waiting up to/, 'a refusal is not waited on');
    const withToken = await runToEnd(statusRun({ SVC_CONTROL_TOKEN: dotEnv.SVC_CONTROL_TOKEN! }));
    assert.equal(withToken.code, 0, withToken.stderr);
    assert.match(withToken.stdout, /status\s+ok/);

    assert.equal(await receiver.stop(), 0, receiver.stderr());
    assert.equal(await emulator.stop(), 0, emulator.stderr());
  } finally {
    for (const p of running) await p.stop();
    pair.destroy();
    mount.release();
    rmSync(home, { recursive: true, force: true });
  }
});
