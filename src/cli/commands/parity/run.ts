import type { Command } from 'commander';
import { resolveTarget, describeSource, type Target } from '../../config/resolve.js';
import { UsageError, SilentExit, EXIT } from '../../errors.js';
import type { CliIO } from '../../io.js';
import type { FlagsOf } from '../../flags.js';
import type { PARITY, SuiteFlags } from './flags.js';
import { Output } from '../../output.js';
import { runSuite, type RunOptions } from '../../../parity/runner.js';
import { loadSuite } from '../../../parity/format.js';
import { EMULATOR_KEYS, EMULATOR_VARS } from '../../../parity/emulator-defaults.js';
import { WebhookReceiver } from '../../../scenario/receiver.js';
import { readSnapshot, SnapshotFileError, writeSnapshot, SNAPSHOT_FORMAT, SNAPSHOT_VERSION, type Snapshot, type RecordedScenario } from '../../../parity/snapshot.js';
import { compareRuns } from '../../../parity/compare.js';
import { checkLines, totals } from '../../../parity/report.js';
import { closeSync, existsSync, openSync, rmSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { ControlApi } from '../../../client/control.js';
import { codeOf, messageOf } from '../../../../contract/errors.js';

// `svc parity record` and `check`: flags → the runner's options (refusing a live key before
// anything is sent), then the recording written, or compared and reported.

interface Prepared {
  target: Target;
  emulator: boolean;
  options: Omit<RunOptions, 'webhook'>;
  webhook?: { url: string; port: number };
}

/** Only test keys: a live key (or anything else) is refused here, before any request. */
function testKey(key: string, what: string): string {
  if (key.startsWith('svc_test_')) return key;
  if (key.startsWith('svc_live_')) throw new UsageError(`${what} is a live key (svc_live_…): svc parity runs with test keys only, so nothing it does can move real money. Nothing was sent.`);
  throw new UsageError(`${what} does not start with svc_test_: svc parity runs with test keys only. Nothing was sent.`);
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

function prepare(flags: SuiteFlags, io: CliIO): Prepared {
  const target = resolveTarget(flags, { env: io.env, cwd: io.cwd });
  const main = testKey(target.apiKey, `the API key from ${describeSource(target.apiKeySource)}`);
  const discovered = target.baseUrlSource === 'emulator' && target.emulator !== undefined;
  const emulator = discovered || Boolean(flags.emulatorFixtures);
  // The discovered emulator lists its keys; --emulator-fixtures means the bundled fixtures' keys.
  const mainMerchant = target.emulator?.keys.find((k) => k.key === main)?.merchant_id;
  const seeded = discovered
    ? {
        other: target.emulator!.keys.find((k) => k.environment === 'test' && !k.revoked && k.merchant_id !== mainMerchant && k.scopes.includes('payments:read'))?.key,
        restricted: target.emulator!.keys.find((k) => k.environment === 'test' && !k.revoked && k.merchant_id === mainMerchant && k.scopes.includes('payments:read') && !k.scopes.includes('payments:create'))?.key,
      }
    : emulator
      ? EMULATOR_KEYS
      : {};
  const other = flags.otherApiKey ?? seeded.other;
  const restricted = flags.restrictedApiKey ?? seeded.restricted;
  const keys = {
    main,
    other: other === undefined ? undefined : testKey(other, flags.otherApiKey ? '--other-api-key' : 'the second merchant key of the emulator'),
    restricted: restricted === undefined ? undefined : testKey(restricted, flags.restrictedApiKey ? '--restricted-api-key' : 'the restricted key of the emulator'),
  };
  const suite = loadSuite();
  const scenarios = flags.scenario ? flags.scenario.map((name) => suite.find((s) => s.name === name) ?? badScenario(name)) : suite;
  let webhook: Prepared['webhook'];
  if (flags.webhookUrl !== undefined) {
    if (!URL.canParse(flags.webhookUrl)) throw new UsageError(`--webhook-url "${flags.webhookUrl}" is not a URL.`);
    const url = new URL(flags.webhookUrl);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new UsageError('--webhook-url must be http:// or https://.');
    const port = flags.webhookListen ?? (LOOPBACK.has(url.hostname) && url.port ? Number(url.port) : undefined);
    if (port === undefined) throw new UsageError('--webhook-listen <port> is needed: the local port that --webhook-url forwards to.');
    webhook = { url: flags.webhookUrl, port };
  } else if (flags.webhookListen !== undefined) {
    throw new UsageError('--webhook-listen goes with --webhook-url (the public URL that reaches it).');
  } else if (emulator) {
    // The emulator delivers to loopback over plain http: a receiver on a free port, no tunnel.
    webhook = { url: '', port: 0 };
  }
  return {
    target,
    emulator,
    webhook,
    options: { baseUrl: target.baseUrl, keys, vars: { ...(emulator ? EMULATOR_VARS : {}), ...flags.var }, timeoutMs: flags.timeout, scenarios },
  };
}

function badScenario(name: string): never {
  throw new UsageError(`--scenario ${name}: no such scenario; the suite has ${loadSuite().map((s) => s.name).join(', ')}.`);
}

/** Runs the suite with the receiver up for as long as it takes, and always closes it. */
async function play(p: Prepared, flags: SuiteFlags, out: Output): Promise<RecordedScenario[]> {
  let receiver: WebhookReceiver | undefined;
  if (p.webhook) {
    try {
      receiver = await WebhookReceiver.listen(p.webhook.port);
    } catch (err) {
      throw new UsageError(`cannot listen for webhooks on 127.0.0.1:${p.webhook.port}: ${messageOf(err)}`);
    }
  }
  try {
    const skip = receiver && p.emulator ? await manualClock(p, flags.timeout) : undefined;
    const webhook = receiver && p.webhook ? { url: p.webhook.url || `http://127.0.0.1:${receiver.port}/svc-parity/webhooks`, receiver, waitMs: flags.webhookWait, skip } : undefined;
    // Under --json stderr holds nothing but an error's one JSON object (main.ts).
    if (!flags.json) out.status(`Running ${p.options.scenarios.length} scenario(s) against ${p.target.baseUrl}${p.emulator ? ' (svc emulator fixtures)' : ''}…`);
    return await runSuite({
      ...p.options,
      webhook,
      onScenario: (s) => {
        if (!flags.json) out.status(`  ${s.name.padEnd(20)} ${s.skipped ? `skipped: ${s.skipped}` : `${s.steps.length} steps`}`);
      },
    });
  } finally {
    await receiver?.close();
  }
}

/**
 * Why an emulator target will not deliver during the run, or undefined: on a manual clock its
 * webhook attempts wait for a clock advance, and the suite calls /v1 only. The one control API
 * request of a run, made only when the target is an svc emulator; any failure of it leaves the
 * deliveries to be waited for as usual.
 */
async function manualClock(p: Prepared, timeoutMs: number): Promise<string | undefined> {
  try {
    const { data } = await new ControlApi({ baseUrl: p.target.baseUrl, controlToken: p.target.controlToken, timeoutMs }).clock();
    if (data.mode === 'manual') return `the emulator runs --clock manual: its webhook attempts wait for a clock advance, and svc parity calls /v1 only (start it with --clock system to compare deliveries)`;
  } catch {
    // not answering as an emulator: the delivery steps say what arrived
  }
  return undefined;
}

/** Fails before any request when `file` cannot be written: a missing folder, a folder itself, a path under a file, a read-only place. */
function writableOut(file: string, flag: string): void {
  const existed = existsSync(file);
  try {
    closeSync(openSync(file, 'a'));
  } catch (err) {
    const code = codeOf(err);
    const why = code === 'ENOENT' ? 'its folder does not exist' : code === 'EISDIR' ? 'it is a folder' : code === 'ENOTDIR' ? 'part of its path is a file' : messageOf(err);
    throw new UsageError(`cannot write --out ${flag}: ${why}. Nothing was sent.`);
  }
  if (!existed) rmSync(file, { force: true });
}

const versionOf = (cmd: Command): string => {
  let root = cmd;
  while (root.parent) root = root.parent;
  return root.version() ?? 'unknown';
};

/** The host as a snapshot may show it: no credentials, no query. */
const shownHost = (baseUrl: string) => {
  const u = new URL(baseUrl);
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`;
};

export async function record(_a: string[], flags: FlagsOf<typeof PARITY.record>, io: CliIO, cmd: Command): Promise<void> {
  const p = prepare(flags, io);
  const file = resolvePath(io.cwd, flags.out);
  // A recording takes seconds and many requests: an --out that cannot be written is said before.
  writableOut(file, flags.out);
  const out = new Output(io, Boolean(flags.json));
  const scenarios = await play(p, flags, out);
  const snapshot: Snapshot = {
    format: SNAPSHOT_FORMAT,
    version: SNAPSHOT_VERSION,
    svc_version: versionOf(cmd),
    recorded_at: new Date(io.now?.() ?? Date.now()).toISOString(),
    host: {
      base_url: shownHost(p.target.baseUrl),
      kind: p.emulator ? 'svc emulator' : 'host',
      environment: 'test',
      other_key: p.options.keys.other !== undefined,
      restricted_key: p.options.keys.restricted !== undefined,
      webhooks: p.webhook !== undefined,
    },
    vars: p.options.vars,
    ignore: [],
    scenarios,
  };
  try {
    writeSnapshot(file, snapshot);
  } catch (err) {
    throw new UsageError(`cannot write --out ${flags.out}: ${messageOf(err)}`);
  }
  const steps = scenarios.reduce((n, s) => n + s.steps.length, 0);
  const skipped = scenarios.filter((s) => s.skipped).map((s) => ({ scenario: s.name, reason: s.skipped! }));
  out.result({ file, scenarios: scenarios.length, steps, skipped }, `Recorded ${scenarios.length} scenarios (${steps} steps, ${skipped.length} skipped) from ${p.target.baseUrl}`, () => [`  written to ${file}`]);
}

/** --ignore patterns, checked against the suite's names before anything runs. */
function ignoreEntries(flags: { ignore?: string[]; reason?: string }, at: string): Snapshot['ignore'] {
  if (!flags.ignore?.length) {
    if (flags.reason !== undefined) throw new UsageError('--reason goes with --ignore.');
    return [];
  }
  if (!flags.reason?.trim()) throw new UsageError('--ignore needs --reason "<why the team accepts this difference>" (it is kept in the snapshot file).');
  return flags.ignore.map((path) => {
    const m = /^([^/:]+)\/([^/:]+)(?::(.+))?$/.exec(path);
    if (!m) throw new UsageError(`--ignore "${path}": expected scenario/step or scenario/step:where, e.g. payouts/create:$.data.status.`);
    const scenario = loadSuite().find((s) => s.name === m[1]);
    if (m[1] !== '*' && !scenario) badScenario(m[1]);
    if (m[2] !== '*' && scenario && !scenario.steps.some((s) => s.name === m[2])) {
      throw new UsageError(`--ignore "${path}": scenario ${m[1]} has no step ${m[2]}; its steps are ${scenario.steps.map((s) => s.name).join(', ')}.`);
    }
    if (m[3] !== undefined && !/^(\$|status$|step$|header:|rule:|delivery:)/.test(m[3])) {
      throw new UsageError(`--ignore "${path}": the part after ":" is a JSON path ($.data.status), status, header:<name>, rule:<name> or delivery:<event>:…`);
    }
    return { path, reason: flags.reason!.trim(), added_at: at };
  });
}

export async function check(_a: string[], flags: FlagsOf<typeof PARITY.check>, io: CliIO): Promise<void> {
  const file = resolvePath(io.cwd, flags.snapshot);
  let snapshot: Snapshot;
  try {
    snapshot = readSnapshot(file);
  } catch (err) {
    if (err instanceof SnapshotFileError) throw new UsageError(err.message);
    throw err;
  }
  const added = ignoreEntries(flags, new Date(io.now?.() ?? Date.now()).toISOString());
  const p = prepare(flags, io);
  if (added.length) {
    // The accepted differences and their reason live in the reviewed snapshot file.
    snapshot.ignore = [...snapshot.ignore.filter((i) => !added.some((a) => a.path === i.path)), ...added];
    writeSnapshot(file, snapshot);
  }
  const out = new Output(io, Boolean(flags.json));
  const actual = await play(p, flags, out);
  const comparison = compareRuns(flags.scenario ? snapshot.scenarios.filter((s) => flags.scenario!.includes(s.name)) : snapshot.scenarios, actual, snapshot.ignore);
  const sum = totals(comparison.tally);
  const report = {
    ok: sum.differences === 0,
    snapshot: { file, recorded_at: snapshot.recorded_at, host: snapshot.host.base_url, kind: snapshot.host.kind },
    target: p.target.baseUrl,
    totals: sum,
    differences: comparison.differences.filter((d) => d.ignored === undefined),
    ignored: comparison.differences.filter((d) => d.ignored !== undefined),
    skipped_steps: comparison.skipped,
    notes: comparison.notes,
    scenarios: comparison.tally,
  };
  out.result(report, `Parity: ${p.target.baseUrl} against ${flags.snapshot} (recorded ${snapshot.recorded_at} from ${snapshot.host.base_url})`, () => checkLines(comparison));
  if (!report.ok) throw new SilentExit(EXIT.api);
}
