import { after, before, describe, test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse as parseYaml } from 'yaml';
import { verifySignature } from '../../src/webhooks/signature.js';
import { startEmulator as startInProcess } from '../../src/testing/index.js';
import { createNetnsPair, netnsUnavailable, type NetnsPair } from '../helpers/netns.js';
import { startSvc, svcBin, type SvcProcess } from '../helpers/svc-process.js';
import { isJest, isNodeTest, isServer, node, repo, writeJestProject, writeTypeScriptProject, type Output } from './code-blocks.js';
import { compareShape, parseElided, type ShapeOptions } from './json-shape.js';
import { PAGES, readBlocks, strayMarks, where, type Block } from './readme-blocks.js';
import { parseCommands, ShellRun, type Ran, type ShellSetup } from './shell-block.js';

// Every fenced block of README.md and of every docs/*.md page runs here, or is marked
// `<!-- not run: <reason> -->` right before its fence (the first test fails on a block that is
// neither):
// - ```sh: each command by bash, in a fresh project folder with the built emulator running
//   (shell-block.ts says what is substituted and what must hold);
// - ```ts: all blocks type-checked together by tsc --strict in a fresh ES module project whose
//   svc-toolkit is this build (code-blocks.ts), then each run by node (node:test ones with
//   node --test); a block that starts a server on process.env.PORT (the express handler) runs
//   while the blocks after it that read process.env.PORT (the node:test of that handler) do;
// - ```js jest blocks: jest (the devDependency) in a fresh CommonJS project, its default mode;
// - ```json and bare blocks: compared with a real answer of the same kind (json-shape.ts): the
//   ready line, a delivery, the live stream's messages, the data dir's files;
// - ```yaml (the GitHub Actions job): read with `yaml`; its keys checked, the emulator
//   started with the service's environment, and the svc commands it names (the health command,
//   the step's `npx svc …`) run with the environment the job gives them.

const blocks = PAGES.flatMap((page) => readBlocks(page));
const TIMEOUT_MS = 60_000;
/**
 * How many blocks across the README and docs/ may be marked not run: 18 when the docs moved out
 * of the README (issue 47), 22 with docs/scenarios.md and docs/coverage.md; most are listings and sample output, not
 * commands, or need a Docker engine, a sandbox of the real service, a release or minutes of
 * measuring. A new page's marks count here too.
 */
const MAX_NOT_RUN = 24;
/** The start of the emulator clock in the JSON examples (the delivery, the stream). */
const EXAMPLE_CLOCK = Date.parse('2026-11-21T12:00:00.000Z');
const SEEDED_KEY = 'svc_test_acme0all0scopes0000000000001';

const scratch = mkdtempSync(join(tmpdir(), 'svc-readme-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;
const folder = (name: string) => mkdtempSync(join(scratch, `${++folders}-${name}-`));

/** The environment of everything the README runs: ours minus svc's own settings and node:test's. */
function environment(configHome: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^SVC_/.test(k) && k !== 'NODE_TEST_CONTEXT') env[k] = v;
  return {
    ...env,
    NO_COLOR: '1',
    XDG_CONFIG_HOME: configHome, // svc's profile and listen log: the block's own, not the user's
    PYTHONDONTWRITEBYTECODE: '1', // the Python example runs from examples/ in the repository
    npm_config_update_notifier: 'false',
    REDOCLY_TELEMETRY: 'off',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  };
}

/** `svc` and `npx svc`: the built bin; `npx @redocly/cli`: the devDependency; nothing else through npx. */
const PREAMBLE = `svc() { "${process.execPath}" "${svcBin}" "$@"; }
npx() {
  case "$1" in
    svc) shift; svc "$@" ;;
    @redocly/cli) shift; "${join(repo, 'node_modules/.bin/redocly')}" "$@" ;;
    *) echo "README test: npx $1 has no stand-in here" >&2; return 127 ;;
  esac
}`;

// --- the merchant app of the sh blocks: localhost:3000 -------------------------------------

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}
const received: Received[] = [];
const arrivals = new Set<() => void>();
let app: Server;
before(async () => {
  app = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.end('ok');
      for (const wake of arrivals) wake();
    });
  }).listen(0, '127.0.0.1');
  await once(app, 'listening');
});
after(() => new Promise<void>((ok) => app.close(() => ok())));

/** Resolves once the app has received a request that `match` accepts. */
function arrival(match: (r: Received) => boolean): Promise<Received> {
  return new Promise((ok) => {
    const check = () => {
      const hit = received.find(match);
      if (hit) {
        arrivals.delete(check);
        ok(hit);
      }
    };
    arrivals.add(check);
    check();
  });
}

// --- sh --------------------------------------------------------------------------------------

const quickStart = blocks.find((b) => b.file === 'README.md' && b.lang === 'sh' && b.section === 'Quick start' && /^BASE=/m.test(b.text));
const quickStartLines = quickStart ? parseCommands(quickStart).filter((c) => /^(KEY|BASE)=/.test(c.code)).map((c) => c.code) : [];

/** A user's project: a test script for `npm test` / `node --test`, and the repository's examples. */
function userProject(name: string): string {
  const dir = folder(name);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-app', private: true, type: 'module', scripts: { test: 'node --test' } }, null, 2));
  writeFileSync(
    join(dir, 'app.test.mjs'),
    `// The app's own test, as svc emulator exec runs it: the emulator's address and a key come from the environment.
import { test } from 'node:test';
import assert from 'node:assert/strict';
test('the emulator exec started answers with the key it gave', async () => {
  const res = await fetch(\`\${process.env.SVC_BASE_URL}/v1/api/payments?limit=1\`, { headers: { authorization: \`Bearer \${process.env.SVC_API_KEY}\` } });
  assert.equal(res.status, 200);
});
`,
  );
  symlinkSync(join(repo, 'examples'), join(dir, 'examples'), 'dir');
  return dir;
}

/** A command that makes a payment.completed event (its output names the payment). */
const PAID = /^svc (trigger payment\.completed|links simulate \S+ --outcome completed)\b/m;

/** Checks a block needs beyond its commands' exit codes, run before its background commands stop. */
const shellChecks: Array<{ applies: (block: Block) => boolean; check: (run: ShellRun) => Promise<void> }> = [
  {
    // The payment read back is the one simulate returned (the quick start, with the CLI or curl).
    applies: (b) => b.file === 'README.md' && b.section === 'Quick start' && /\bpayments get pay_…|payments\/pay_…/.test(b.text),
    async check(run) {
      const curls = run.results.filter((r) => r.command.code.startsWith('curl'));
      if (curls.length === 0) {
        const create = run.results.find((r) => r.command.code.startsWith('svc links create'))!;
        const simulate = run.results.find((r) => r.command.code.startsWith('svc links simulate'))!;
        const read = run.results.find((r) => r.command.code.startsWith('svc payments get'))!;
        assert.match(create.stdout, /status\s+pending/);
        assert.ok(create.stdout.includes(`${run.emulatorUrl}/checkout/PL-`), create.stdout);
        assert.match(simulate.stdout, /status\s+completed/);
        assert.equal(/pay_\w+/.exec(read.stdout)?.[0], /pay_\w+/.exec(simulate.stdout)?.[0]);
        return;
      }
      assert.equal(curls.length, 3);
      const [, paid, read] = curls.map((r) => JSON.parse(r.stdout));
      assert.equal(paid.data.status, 'completed');
      assert.deepEqual(read, paid);
    },
  },
  {
    // What `webhooks listen` forwarded to the app (the payment.completed of a simulate or a
    // trigger) carries a signature the listen secret verifies.
    applies: (b) => /^svc webhooks listen --forward /m.test(b.text) && PAID.test(b.text),
    async check(run) {
      const listen = run.background.find((b) => b.command.code.startsWith('svc webhooks listen'))!;
      const secret = /Listen secret: (\S+)/.exec(listen.output() + listen.errors())![1]!;
      const paid = run.results.find((r) => PAID.test(r.command.code))!;
      const payment = /pay_\w+/.exec(paid.stdout)![0];
      const hit = await arrival((r) => r.headers['svc-event'] === 'payment.completed' && r.body.includes(payment));
      assert.equal(verifySignature({ secret, header: hit.headers['svc-signature'] as string, body: hit.body }).ok, true);
    },
  },
  {
    // The URL `svc emulator dashboard` prints opens the dashboard.
    applies: (b) => /^svc emulator dashboard\b/m.test(b.text),
    async check(run) {
      const printed = run.results.find((r) => r.command.code === 'svc emulator dashboard')!;
      const url = /open\s+(http\S+)/.exec(printed.stdout)![1]!;
      assert.equal(url, `${run.emulatorUrl}/dashboard`);
      const res = await fetch(url);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/);
    },
  },
];

/** A block about reaching the emulator from another host (it names http://svc:4242). */
const twoHosts = (b: Block) => /\bhttp:\/\/svc:4242\b/.test(b.text);

async function runShellBlock(block: Block, t: TestContext): Promise<ShellRun | undefined> {
  const dir = userProject('sh');
  const setup: ShellSetup = { dir, env: environment(join(dir, '.config')), preamble: PREAMBLE, quickStart: quickStartLines, appPort: (app.address() as AddressInfo).port, commandTimeoutMs: TIMEOUT_MS };
  let pair: NetnsPair | undefined;
  if (twoHosts(block)) {
    // Run on two network hosts, as the block describes: the emulator on `svc`, the rest on `app`.
    const unavailable = netnsUnavailable();
    if (unavailable) return void t.skip(`two network hosts: ${unavailable}`);
    pair = createNetnsPair();
    const hosts = pair;
    setup.onHost = (code, args) => hosts.argv(/^svc emulator start\b/.test(code) ? hosts.svc : hosts.app, 'bash', args);
  }
  const run = new ShellRun(setup);
  const commands = parseCommands(block);
  assert.ok(commands.length > 0, `${where(block)} has no command`);
  try {
    // A reader's `npm start` emulator, unless the block starts its own or only runs exec's.
    if (!commands.some((c) => /^svc emulator start\b/.test(c.code)) && !commands.every((c) => /^svc emulator exec\b/.test(c.code))) await run.startEmulator();
    for (const command of commands) await run.run(command);
    for (const c of shellChecks) if (c.applies(block)) await c.check(run);
    await run.stop();
    return run;
  } finally {
    run.kill();
    pair?.destroy();
  }
}

/** An alias line names this checkout's bin when run in the repository, as the quick start says. */
async function checkAliases(run: ShellRun): Promise<void> {
  for (const r of run.results.filter((x: Ran) => /^alias svc=/.test(x.command.code))) {
    const { stdout: shown } = await promisify(execFile)('bash', ['-c', `${r.command.code}\nalias svc`], { cwd: repo, encoding: 'utf8' });
    assert.equal(shown.trim(), `alias svc='node ${svcBin}'`, `${r.command.file}:${r.command.line}: the alias, run in the repository, names its bin`);
  }
}

// --- ts / js ---------------------------------------------------------------------------------

const tsBlocks = blocks.filter((b) => b.lang === 'ts' && !b.notRun);
let compiled: Promise<{ out: Map<Block, string>; dir: string; tsc: Output }> | undefined;
function compile() {
  compiled ??= (async () => {
    const dir = folder('ts');
    const out = writeTypeScriptProject(dir, tsBlocks);
    const tsc = await node([join(repo, 'node_modules/typescript/bin/tsc'), '-p', '.'], { cwd: dir, timeoutMs: TIMEOUT_MS });
    return { out, dir, tsc };
  })();
  return compiled;
}

const codeEnv = (extra: Record<string, string> = {}) => ({ ...environment(join(scratch, 'config')), ...extra });

/** Runs one compiled block: node:test ones under node --test (and at least one test must pass), others with node. */
async function runCompiled(block: Block, env: NodeJS.ProcessEnv = codeEnv()): Promise<Output> {
  const { out, dir, tsc } = await compile();
  assert.equal(tsc.code, 0, `tsc --strict over the ts blocks:\n${tsc.stdout}${tsc.stderr}`);
  const file = out.get(block)!;
  const args = isNodeTest(block) ? ['--test', '--test-reporter=tap', file] : [file];
  const result = await node(args, { cwd: dir, env, timeoutMs: TIMEOUT_MS });
  assert.equal(result.code, 0, `${where(block)}:\n${result.stdout}\n${result.stderr}`);
  if (isNodeTest(block)) {
    assert.match(result.stdout, /^# fail 0$/m, result.stdout);
    assert.doesNotMatch(result.stdout, /^# pass 0$/m, result.stdout);
  }
  return result;
}

/** A server block runs (on a free PORT) while the blocks after it that read process.env.PORT run against it. */
const serverRuns = new Map<Block, Promise<{ server: string; clients: Map<Block, Output> }>>();
function withServer(server: Block) {
  let run = serverRuns.get(server);
  if (!run) {
    run = (async () => {
      const clients = tsBlocks.filter((b) => b.file === server.file && b.line > server.line && !isServer(b) && /process\.env\.PORT/.test(b.text));
      assert.ok(clients.length > 0, `${where(server)} starts a server no later block uses`);
      // The secret the client blocks sign with is the one the server is started with.
      const secret = /const secret = '([^']+)'/.exec(clients[0]!.text)?.[1];
      assert.ok(secret, 'the client block names its secret');
      const { out, dir, tsc } = await compile();
      assert.equal(tsc.code, 0, `${tsc.stdout}${tsc.stderr}`);
      const port = await freePort();
      const env = codeEnv({ PORT: String(port), WEBHOOK_SECRET: secret });
      const child = spawn(process.execPath, [out.get(server)!], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout!.on('data', (c) => (output += c));
      child.stderr!.on('data', (c) => (output += c));
      const closed = once(child, 'close');
      try {
        await new Promise<void>((ok, fail) => {
          child.stdout!.on('data', () => /listening on/.test(output) && ok());
          void closed.then(() => fail(new Error(`${where(server)} exited before it listened:\n${output}`)));
        });
        const results = new Map<Block, Output>();
        for (const b of clients) results.set(b, await runCompiled(b, env));
        return { server: output, clients: results };
      } finally {
        child.kill('SIGTERM');
        await closed;
      }
    })();
    serverRuns.set(server, run);
  }
  return run;
}

async function freePort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise((ok) => probe.close(ok));
  return port;
}

async function runJest(block: Block): Promise<void> {
  const dir = folder('jest');
  const path = writeJestProject(dir, block);
  const result = await node([join(repo, 'node_modules/jest/bin/jest.js'), '--ci', '--watchman=false', '--cacheDirectory', '.jest-cache'], { cwd: dir, env: codeEnv(), timeoutMs: TIMEOUT_MS });
  assert.equal(result.code, 0, `${where(block)}:\n${result.stdout}\n${result.stderr}`);
  assert.match(result.stderr, new RegExp(`PASS ${path.replace(/[.]/g, '\\.')}`), result.stderr);
  assert.match(result.stderr, /Tests:\s+1 passed, 1 total/, result.stderr);
}

// --- json and bare blocks: compared with real answers -----------------------------------------

let reference: Promise<{ svc: SvcProcess; dir: string }> | undefined;
/** One emulator started as the README's ready line comes from: `svc emulator start --json`. */
function referenceEmulator() {
  reference ??= (async () => {
    const dir = folder('ready');
    return { svc: await startSvc(['--port', '0'], undefined, { cwd: dir }), dir };
  })();
  return reference;
}
after(async () => {
  if (!reference) return;
  const { svc } = await reference;
  svc.child.kill('SIGTERM');
  await svc.done;
});

function assertShape(block: Block, example: string, real: unknown, options?: ShapeOptions) {
  const diffs = compareShape(parseElided(example), real, options);
  assert.deepEqual(diffs, [], `${where(block)} against a real answer:\n${diffs.join('\n')}\nreal: ${JSON.stringify(real)}`);
}

async function checkReadyLine(block: Block): Promise<void> {
  const { svc } = await referenceEmulator();
  const port = new URL(svc.ready.base_url).port;
  assertShape(block, block.text.replace(/127\.0\.0\.1:4242/g, `127.0.0.1:${port}`), svc.ready);
}

/** The data dir's files as the README lists them, each checked for what its line says. */
async function checkDataDir(block: Block): Promise<void> {
  const { svc, dir } = await referenceEmulator();
  const dataDir = join(dir, '.svc');
  const real = readdirSync(dataDir);
  const listed = block.text.split('\n').map((l) => /^\.svc\/(\S+)\s+(.*)$/.exec(l) ?? assert.fail(`${where(block)}: not ".svc/<file>  <what>": ${l}`));
  const patterns = listed.map(([, name]) => new RegExp(`^${name!.replace(/[.]/g, '\\.').replace(/<N>/g, '\\d+')}$`));
  for (const file of real) assert.ok(patterns.some((p) => p.test(file)), `${where(block)}: the data dir holds ${file}, the page does not list it`);
  for (const [i, [, name, what]] of listed.entries()) {
    const file = real.find((f) => patterns[i]!.test(f));
    assert.ok(file, `${where(block)}: lists ${name}, the data dir has none`);
    const text = readFileSync(join(dataDir, file), 'utf8');
    if (name === 'snapshot.ndjson') {
      const header = /\{.*\}/.exec(what!)![0].replace(/:N\b/g, ':0');
      assertShape(block, header, JSON.parse(text.split('\n')[0]!), { varies: ['segment'] });
    } else if (/^journal-/.test(name!)) {
      assert.ok(text.split('\n').filter(Boolean).every((l) => JSON.parse(l)), 'one JSON transaction a line');
    } else if (name === 'store.lock') {
      assert.equal(text.trim(), String(svc.child.pid));
    } else if (name === 'emulator.json') {
      assert.equal(JSON.parse(text).base_url, svc.ready.base_url);
    } else if (name === '.gitignore') {
      assert.ok(text.split('\n').includes('*'), text);
    } else {
      assert.fail(`${where(block)}: no check for ${name}`);
    }
  }
}

/** A world like the examples': manual clock at EXAMPLE_CLOCK, one endpoint answering 500 "boom", one 200, a paid link. */
let world: Promise<{ delivery: unknown; stream: Array<{ event: string; id: string; data: unknown }> }> | undefined;
function exampleWorld() {
  world ??= (async () => {
    const emu = await startInProcess({ clock: 'manual', clockStart: EXAMPLE_CLOCK });
    const failing = createServer((req, res) => req.resume().on('end', () => res.writeHead(500).end('boom'))).listen(0, '127.0.0.1');
    const ok = createServer((req, res) => req.resume().on('end', () => res.end('ok'))).listen(0, '127.0.0.1');
    try {
      await Promise.all([once(failing, 'listening'), once(ok, 'listening')]);
      const post = async (path: string, body: object) => {
        const res = await fetch(`${emu.baseUrl}/v1/api/${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${SEEDED_KEY}`, 'content-type': 'application/json', 'x-idempotency-key': `${path}-${Math.random()}` },
          body: JSON.stringify(body),
        });
        assert.ok(res.ok, `${path}: ${res.status}`);
        return ((await res.json()) as { data: any }).data;
      };
      const endpoint = await post('webhook-endpoints', { url: `http://127.0.0.1:${(failing.address() as AddressInfo).port}/hook`, events: ['payment.completed'] });
      await post('webhook-endpoints', { url: `http://127.0.0.1:${(ok.address() as AddressInfo).port}/hook`, events: ['payment.completed'] });
      const link = await post('payment-links', { title: 'Coffee beans', amount: 1200, currency: 'USD' });
      await post(`payment-links/${link.id}/simulate`, { outcome: 'completed', method: 'card' });
      for (let i = 0; i < 2; i++) {
        await emu.clock.advanceToNextDelivery();
        await emu.idle();
      }
      const failed = await emu.waitForDelivery((d) => d.endpoint_id === endpoint.endpoint.id && d.attempts.length === 2);
      const delivery = ((await (await fetch(`${emu.baseUrl}/_emulator/deliveries/${failed.id}`)).json()) as { data: unknown }).data;
      const stream = await readStream(`${emu.baseUrl}/emulator/stream?from=start`, (messages) => messages.some((m) => m.event === 'attempt' && (m.data as { status_code: number }).status_code === 200));
      return { delivery, stream };
    } finally {
      failing.close();
      ok.close();
      await emu.close();
    }
  })();
  return world;
}

/** Reads server-sent events until `enough` says so. */
function readStream(url: string, enough: (m: Array<{ event: string; id: string; data: unknown }>) => boolean): Promise<Array<{ event: string; id: string; data: unknown }>> {
  return new Promise((ok, fail) => {
    const req = get(url, { headers: { authorization: `Bearer ${SEEDED_KEY}` } }, (res) => {
      let buffer = '';
      const messages: Array<{ event: string; id: string; data: unknown }> = [];
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const field = (name: string) => frame.split('\n').find((l) => l.startsWith(`${name}:`))?.slice(name.length + 1).trim();
          const event = field('event');
          if (event) messages.push({ event, id: field('id')!, data: JSON.parse(field('data')!) });
        }
        if (enough(messages)) {
          req.destroy();
          ok(messages);
        }
      });
      res.once('error', fail);
    });
    req.once('error', (err) => (err.message === 'socket hang up' ? undefined : fail(err)));
  });
}

async function checkDelivery(block: Block): Promise<void> {
  const { delivery } = await exampleWorld();
  assertShape(block, block.text, delivery, { varies: ['latency_ms'] });
}

async function checkStream(block: Block): Promise<void> {
  const { stream } = await exampleWorld();
  const frames = block.text.split(/\n\n+/).map((f) => Object.fromEntries(f.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()])));
  assert.ok(frames.length > 0);
  for (const frame of frames) {
    const kind = frame.event!;
    const example = parseElided(frame.data!) as Record<string, unknown>;
    // The real message of the same kind (an attempt with the same status code).
    const real = stream.find((m) => m.event === kind && (kind !== 'attempt' || (m.data as { status_code: unknown }).status_code === example.status_code));
    assert.ok(real, `${where(block)}: no ${kind} message in the real stream`);
    assert.deepEqual(compareShape(frame.id!, real.id, { byShape: ['$'] }, '$'), [], `${where(block)}: the id (cursor) of an ${kind} message: README ${frame.id}, real ${real.id}`);
    assertShape(block, frame.data!, real.data, { varies: ['latency_ms'], byShape: ['created_at'] });
  }
  const ids = stream.map((m) => m.id);
  assert.deepEqual([...ids].sort(), ids, 'cursors only increase');
}

// --- yaml: the GitHub Actions job ----------------------------------------------------------------

type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };
const mapping = (v: Yaml | undefined, what: string) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : assert.fail(`${what} is not a mapping`));
const text = (v: Yaml | undefined, what: string) => (typeof v === 'string' ? v : assert.fail(`${what} is not a string`));

async function checkActions(block: Block): Promise<void> {
  const doc = mapping(parseYaml(block.text, { uniqueKeys: true }) as Yaml, 'the job');
  const job = mapping(mapping(doc.jobs, 'jobs').test, 'jobs.test');
  assert.deepEqual(Object.keys(job), ['runs-on', 'services', 'env', 'steps']);
  const service = mapping(mapping(job.services, 'services').svc, 'services.svc');
  assert.deepEqual(Object.keys(service), ['image', 'ports', 'env', 'options']);
  assert.deepEqual(service.ports, ['4242:4242']);
  assert.match(readFileSync(join(repo, 'Dockerfile'), 'utf8'), /^EXPOSE 4242$/m, 'the image exposes the port the job maps');
  const serviceEnv = mapping(service.env, 'services.svc.env') as Record<string, string>;
  const jobEnv = mapping(job.env, 'jobs.test.env') as Record<string, string>;
  assert.equal(jobEnv.SVC_CONTROL_TOKEN, serviceEnv.SVC_CONTROL_TOKEN, 'the job sends the token the service was given');
  assert.equal(jobEnv.SVC_API_KEY, SEEDED_KEY);
  const options = text(service.options, 'options');
  const health = /--health-cmd "([^"]+)"/.exec(options)?.[1] ?? assert.fail('no --health-cmd');
  for (const [flag] of options.replace(/"[^"]*"/g, '').matchAll(/--[a-z-]+/g)) assert.ok(['--health-cmd', '--health-interval', '--health-timeout', '--health-retries', '--health-start-period'].includes(flag), `${flag} is not a docker health option`);
  const steps = job.steps as Yaml[];
  assert.ok(Array.isArray(steps));
  const runs = steps.map((s) => mapping(s, 'a step').run).filter((r): r is string => typeof r === 'string');
  const svcCommands = runs.flatMap((r) => r.split('&&').map((c) => c.trim())).filter((c) => c.startsWith('npx svc '));
  assert.ok(svcCommands.length > 0, 'the job runs svc');

  // The service: the emulator started with the service's environment takes its public URL and token.
  const serviceDir = userProject('service');
  const started = new ShellRun({ dir: serviceDir, env: { ...environment(join(serviceDir, '.config')), ...serviceEnv }, preamble: PREAMBLE, quickStart: [], appPort: 0, commandTimeoutMs: TIMEOUT_MS });
  try {
    await started.startEmulator();
    const info = JSON.parse(readFileSync(join(serviceDir, '.svc/emulator.json'), 'utf8'));
    assert.equal(info.public_url, serviceEnv.SVC_PUBLIC_URL);
    assert.equal(info.control_token, serviceEnv.SVC_CONTROL_TOKEN);
    // Its real port (base_url is the public URL now): where the container's loopback and the runner's mapped port lead.
    const port = new URL(info.local_url).port;
    // The health command runs inside the container, with the image's SVC_BASE_URL (Dockerfile ENV).
    const imageBase = /^ENV SVC_BASE_URL=(\S+)$/m.exec(readFileSync(join(repo, 'Dockerfile'), 'utf8'))![1]!.replace(':4242', `:${port}`);
    const inContainer = folder('container');
    await new ShellRun({ dir: inContainer, env: { ...environment(join(inContainer, '.config')), ...serviceEnv, SVC_BASE_URL: imageBase }, preamble: PREAMBLE, quickStart: [], appPort: 0, commandTimeoutMs: TIMEOUT_MS }).run({ file: block.file, line: block.line, code: health, comment: '', exit: 0 });
    // The steps run on the runner, with the job's environment (localhost:4242: the mapped port).
    const runner = folder('runner');
    const env = { ...environment(join(runner, '.config')), ...jobEnv, SVC_BASE_URL: jobEnv.SVC_BASE_URL!.replace('localhost:4242', `localhost:${port}`) };
    const steps = new ShellRun({ dir: runner, env, preamble: PREAMBLE, quickStart: [], appPort: 0, commandTimeoutMs: TIMEOUT_MS });
    for (const code of svcCommands) await steps.run({ file: block.file, line: block.line, code, comment: '', exit: 0 });
    await started.stop();
  } finally {
    started.kill();
  }
}

// --- which runner each block gets -------------------------------------------------------------

type Runner = { how: string; run: (b: Block, t: TestContext) => Promise<void> };
function runnerFor(b: Block): Runner | undefined {
  if (b.lang === 'sh') {
    const how = twoHosts(b) ? 'bash, command by command, on two network hosts (as root)' : 'bash, command by command';
    return { how, run: async (block, t) => { const run = await runShellBlock(block, t); if (run) await checkAliases(run); } };
  }
  if (b.lang === 'ts' && isServer(b)) return { how: 'node, serving the blocks after it', run: async (block) => assert.match((await withServer(block)).server, /: payment\.completed$/m, 'the handler logged the accepted delivery') };
  if (b.lang === 'ts') {
    const server = tsBlocks.filter((s) => isServer(s) && s.file === b.file && s.line < b.line).at(-1);
    if (server && /process\.env\.PORT/.test(b.text)) return { how: `node --test against ${server.file}:${server.line}`, run: async (block) => void (await withServer(server)).clients.get(block) };
    return { how: isNodeTest(b) ? 'node --test' : 'node', run: async (block) => void (await runCompiled(block)) };
  }
  if (isJest(b)) return { how: 'jest, CommonJS', run: runJest };
  if (b.lang === 'json' && /"base_url"/.test(b.text)) return { how: 'compared with a ready line', run: checkReadyLine };
  if (b.lang === 'json' && /"dlv_…"/.test(b.text) && /"attempts"/.test(b.text)) return { how: 'compared with a real delivery', run: checkDelivery };
  if (b.lang === '' && b.text.startsWith('.svc/')) return { how: 'compared with a real data dir', run: checkDataDir };
  if (b.lang === '' && b.text.startsWith('event:')) return { how: 'compared with the real live stream', run: checkStream };
  if (b.lang === 'yaml' && /^jobs:/m.test(b.text)) return { how: 'read, and its svc commands run', run: checkActions };
  return undefined;
}

test('every block of the README and docs/ is run here or marked <!-- not run: <reason> --> right before its fence', () => {
  for (const page of PAGES) assert.deepEqual(strayMarks(page), [], `${page}: a not-run mark that is not right before a fence`);
  const orphans = blocks.filter((b) => !b.notRun && !runnerFor(b)).map(where);
  assert.deepEqual(orphans, [], 'blocks this test does not know how to run');
  const marked = blocks.filter((b) => b.notRun);
  for (const b of marked) assert.ok(b.notRun!.split(' ').length >= 4, `${where(b)}: say why it is not run`);
  // The list stays short: each mark is a block that truly cannot run here (a Docker engine, a
  // release download, a sandbox of the real service, a listing that is not a command).
  assert.ok(marked.length <= MAX_NOT_RUN, `${marked.length} blocks not run:\n${marked.map((b) => `${where(b)}: ${b.notRun}`).join('\n')}`);
});

test('the first screen shows the CLI and curl (and the set-up keeps its two commands)', () => {
  const firstScreen = blocks.filter((b) => b.file === 'README.md' && b.line <= 50);
  assert.match(firstScreen[0]!.text, /^npm install && npm start +#.*\nnpm test +#/);
  assert.ok(firstScreen.some((b) => b.lang === 'sh' && /^svc links create /m.test(b.text)), 'a CLI block within the first 50 lines');
  assert.ok(firstScreen.some((b) => b.lang === 'sh' && /^curl /m.test(b.text)), 'a curl block within the first 50 lines');
});

test('the ts blocks of the README and docs/ type-check under tsc --strict against this build', async () => {
  const { tsc } = await compile();
  assert.equal(tsc.code, 0, `${tsc.stdout}${tsc.stderr}`);
});

describe('README.md and docs/ blocks, run', { concurrency: 2 }, () => {
  for (const b of blocks) {
    const runner = runnerFor(b);
    if (b.notRun || !runner) continue;
    test(`${where(b)}: ${runner.how}`, { timeout: 120_000 }, (t) => runner.run(b, t));
  }
});
