import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { CONTROL_TOKEN_RULE, parseAllowedHostList, parseControlToken } from '../../contract/network.js';
import { START } from '../../src/cli/commands/emulator/flags.js';
import type { FlagSpec } from '../../src/cli/flags.js';
import { createNetnsPair, netnsUnavailable, type NetnsPair } from '../../bench/lib/netns.js';
import { readDockerfile } from './dockerfile.js';
import { interpolate, readComposeYaml, readDotEnv, type Yaml } from './compose-yaml.js';
import { mountPoint, processesUnavailable, readOnlyWorkdir, runToEnd, start, uidOf, type Run, type Started } from './image-process.js';

// examples/compose: the emulator image configured by environment only, an app that verifies
// webhooks, and a test service that runs the JS checks and the repository's Python and Java
// example suites. Docker is not here, so the first test reads the file (with `yaml`, as
// compose-yaml.ts does) and holds it to the Dockerfile (its own CMD, health check, volume,
// port), to the emulator's option table (every SVC_* value valid) and to itself (every name
// another service uses is allowed, the token is one variable). The second runs the three
// services as processes on two network hosts named svc and app (bench/lib/netns.ts; the test
// service shares app's, as its network_mode says): what compose would run, with the container
// paths of the bind mounts mapped to the repository's folders. The Python and Java suites pass
// 9/9 against http://svc:4242; without SVC_CLOCK the same stack fails their clock check.

const composeFile = packageFile('examples/compose/docker-compose.yml');
const composeDir = dirname(composeFile);
const compose = readComposeYaml(composeFile);
const dotEnv = readDotEnv(join(composeDir, '.env'));
const image = readDockerfile(packageFile('Dockerfile'));

type Service = { [key: string]: Yaml };
const services = compose.services as Record<string, Service>;
const list = (v: Yaml | undefined) => v as string[];
const map = (v: Yaml | undefined) => (v ?? {}) as Record<string, string | number | boolean>;
/** The service's environment with ${…} filled from .env. */
const environment = (s: Service) => Object.fromEntries(Object.entries(map(s.environment)).map(([k, v]) => [k, interpolate(String(v), dotEnv)]));
/** The emulator's option of each SVC_* variable (commands/emulator/flags.ts). */
const OPTIONS = new Map<string, FlagSpec>(Object.values(START).map((spec: FlagSpec) => [spec.env!, spec]));

/** Bind mounts (./dir:/path[:ro]) as [host path, container path]. */
function binds(s: Service): [string, string][] {
  return list(s.volumes ?? [])
    .filter((v) => v.startsWith('.'))
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

test('docker-compose.yml: svc runs the image as built, configured by environment only: a manual clock, every name others use, one control token', () => {
  assert.deepEqual(Object.keys(services), ['svc', 'app', 'tests']);
  const { svc, app, tests } = services as Record<'svc' | 'app' | 'tests', Service>;

  // The image: the repository's Dockerfile, run with its own CMD.
  const buildSpec = svc.build as Record<string, string>;
  assert.equal(resolve(composeDir, buildSpec.context!, buildSpec.dockerfile!), packageFile('Dockerfile'));
  assert.equal(svc.command, undefined, 'no command: the image\'s own CMD, settings by environment');
  assert.deepEqual(list(svc.healthcheck && (svc.healthcheck as Service).test), ['CMD', ...image.healthcheck!.cmd], 'the same health check as the image');
  const [volumeName, volumePath] = list(svc.volumes)[0]!.split(':');
  assert.equal(volumePath, image.volumes[0], 'the named volume is mounted on the image VOLUME');
  assert.ok(volumeName! in (compose.volumes as Record<string, Yaml>), `volume ${volumeName} is declared`);
  assert.deepEqual(list(svc.ports), [`${image.exposed[0]}:${image.exposed[0]}`]);

  // Every variable is one of the emulator's, with a value its option takes.
  const svcEnv = environment(svc);
  for (const [name, value] of Object.entries(svcEnv)) {
    const option = OPTIONS.get(name);
    assert.ok(option, `${name} is an option variable of svc emulator start`);
    assert.doesNotThrow(() => option.parse?.(value, undefined), `${name}=${value}`);
  }
  assert.equal(svcEnv.SVC_CLOCK, 'manual', 'the example suites move the clock themselves');

  // Every host name the other services use for svc or for each other is allowed (Host check;
  // http:// webhook endpoints to app, where the app and the suites' receivers listen).
  const allowed = parseAllowedHostList(svcEnv.SVC_ALLOWED_HOSTS ?? '');
  const urls = [app, tests].flatMap((s) => Object.values(environment(s)).filter((v) => /^https?:\/\//.test(v)));
  assert.ok(urls.length >= 3, urls.join(' '));
  for (const url of urls) assert.ok(allowed.includes(new URL(url).hostname), `${url}: ${new URL(url).hostname} is not in SVC_ALLOWED_HOSTS (${allowed.join(', ')})`);
  assert.ok(allowed.includes(environment(tests).EXAMPLE_RECEIVER_NAME!), 'the suites\' receivers are reached by an allowed name');
  assert.equal(tests.network_mode, 'service:app', 'the test service shares app\'s network: its receivers are app:<port>');

  // One token: what svc is started with is what the test runner sends.
  assert.equal(map(svc.environment).SVC_CONTROL_TOKEN, '${SVC_CONTROL_TOKEN}');
  assert.equal(map(tests.environment).SVC_CONTROL_TOKEN, '${SVC_CONTROL_TOKEN}');
  parseControlToken(dotEnv.SVC_CONTROL_TOKEN!);
  // The comment above it states the rule the token is held to, word for word.
  const comments = readFileSync(join(composeDir, '.env'), 'utf8').split('\n').filter((l) => l.startsWith('#')).map((l) => l.slice(1).trim()).join(' ');
  assert.ok(comments.includes(CONTROL_TOKEN_RULE), `.env states the token rule (${CONTROL_TOKEN_RULE}): ${comments}`);
  assert.ok(!('SVC_CONTROL_TOKEN' in map(app.environment)), 'the app does not need the control token');

  // Start order: app after svc is healthy, tests after both.
  const condition = (s: Service, on: string) => ((s.depends_on as Record<string, Record<string, string>>)[on] ?? {}).condition;
  assert.equal(condition(app, 'svc'), 'service_healthy');
  assert.equal(condition(tests, 'svc'), 'service_healthy');
  assert.equal(condition(tests, 'app'), 'service_healthy');
  assert.ok(app.healthcheck, 'app has a health check (tests wait for it)');

  // The bind-mounted scripts and suites exist where the commands name them.
  assert.ok(existsSync(join(hostPath(app, app.working_dir as string), list(app.command)[1]!)), 'app command');
  const runAll = hostPath(tests, list(tests.command)[1]!);
  assert.ok(existsSync(runAll), 'tests command');
  for (const suite of ['python/test_payment_webhook.py', 'java/run.sh']) assert.ok(existsSync(join(dirname(runAll), '..', '..', suite)), suite);
  assert.ok(existsSync(join(composeDir, (tests.build as Record<string, string>).context!, 'Dockerfile')), 'the test image');
});

/** How long the test service may run (the JS checks, then the Python and Java suites, javac included). */
const TESTS_TIMEOUT_MS = 240_000;

test('the three services as processes on hosts svc and app: svc healthy, app registers, the JS checks and the Python and Java suites pass 9/9; without SVC_CLOCK the suites fail their clock check', { timeout: 3 * TESTS_TIMEOUT_MS }, async (t) => {
  const why = processesUnavailable() ?? netnsUnavailable();
  if (why) {
    t.skip(why);
    return;
  }
  const { svc, app, tests } = services as Record<'svc' | 'app' | 'tests', Service>;
  const volume = image.volumes[0]!;
  const home = readOnlyWorkdir();

  /** The stack with svc's environment `svcEnv`: svc and app healthy, then the test service to its end, and `more` while they run. */
  async function stack(svcEnv: Record<string, string>, more: (ctx: { pair: NetnsPair; receiver: Started }) => Promise<void> = async () => {}) {
    const pair = createNetnsPair();
    const mount = mountPoint(volume);
    const running: Started[] = [];
    try {
      // svc: the image's ENV and user, then the service's environment (compose's order), the image's CMD.
      const svcRun = (argv: string[], extra: Partial<Run> = {}): Run => ({ ns: pair.svc.ns, argv, env: { ...image.env, ...svcEnv, HOME: home }, uid: uidOf(image.user!), cwd: home, ...extra });
      // app and tests: their images run as root with no ENV of ours, on the app host (tests shares app's network).
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

      const emulator = start(svcRun(image.cmd!, { tmpfs: volume }));
      running.push(emulator);
      await healthy(svcRun(list((svc.healthcheck as Service).test).slice(1)), emulator);
      const receiver = start(nodeRun(app, list(app.command)));
      running.push(receiver);
      await healthy(nodeRun(app, list((app.healthcheck as Service).test).slice(1)), receiver);
      assert.match(receiver.stdout(), /receiver: registered we_\w+ for http:\/\/app:3000\/webhooks/);

      const run = await runToEnd(nodeRun(tests, list(tests.command)), TESTS_TIMEOUT_MS);
      const output = `${run.stdout}${run.stderr}`;
      await more({ pair, receiver });
      assert.equal(await receiver.stop(), 0, receiver.stderr());
      assert.equal(await emulator.stop(), 0, emulator.stderr());
      return { code: run.code, output, stdout: run.stdout, receiver: receiver.stdout(), svc: emulator.stderr() };
    } finally {
      for (const p of running) await p.stop();
      pair.destroy();
      mount.release();
    }
  }

  try {
    const run = await stack(environment(svc), async ({ pair, receiver }) => {
      // The receiver really checks: a delivery with a made-up signature is refused.
      const forge = `fetch('http://app:3000/webhooks', { method: 'POST', headers: { 'svc-signature': 't=' + Math.floor(Date.now() / 1000) + ',v1=' + '0'.repeat(64) }, body: '{"type":"payment.completed"}' }).then(async (r) => console.log(r.status, await r.text()))`;
      const forged = await runToEnd({ ns: pair.app.ns, argv: ['node', '-e', forge], env: { HOME: home }, uid: 0, cwd: home });
      assert.match(forged.stdout, /^400 .*signature does not match/, forged.stdout + forged.stderr);
      assert.doesNotMatch(receiver.stdout(), /refused a delivery \(dlv_/);

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
    });
    assert.equal(run.code, 0, `tests:\n${run.output}\napp:\n${run.receiver}\nsvc:\n${run.svc}`);
    // The JS checks.
    assert.match(run.stdout, /ok {3}control API without the token: 401, Svc-Guard: token/);
    assert.match(run.stdout, /ok {3}the app received payment\.completed of pay_\w+ with a verified Svc-Signature/);
    assert.match(run.stdout, /all checks passed/);
    assert.match(run.receiver, /payment\.completed of pay_\w+ \(delivery dlv_\w+\) verified/);
    // The example suites, against the emulator by its service name, their receivers as app:<port>.
    assert.match(run.output, /Ran 9 tests in [\d.]+s\s+OK/, 'Python: 9/9');
    assert.match(run.output, /^9 tests, 0 failed$/m, 'Java: 9/9');
    assert.match(run.output, /webhook receiver listening on http:\/\/app:\d+\//);
    assert.match(run.stdout, /== all suites passed/);

    // The same stack without SVC_CLOCK: the emulator runs on the system clock, and both suites
    // stop at their clock check with the message that says what to set.
    const { SVC_CLOCK: _clock, ...withoutClock } = environment(svc);
    const systemClock = await stack(withoutClock);
    assert.equal(systemClock.code, 1, systemClock.output);
    assert.match(systemClock.output, /AssertionError: 'system' != 'manual'\n- system\n\+ manual\n : start the emulator with --clock manual \(SVC_CLOCK=manual in a container\)/, 'Python');
    assert.match(systemClock.output, /FAIL PaymentWebhookTest\.\w+[\s\S]*the emulator's clock mode \(start it with --clock manual, or SVC_CLOCK=manual in a container/, 'Java');
    assert.match(systemClock.output, /^9 tests, 1 failed$/m, 'Java: only the clock check fails');
    assert.match(systemClock.output, /FAILED \(failures=1\)/, 'Python: only the clock check fails');
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
