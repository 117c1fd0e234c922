import { writeFileSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { resolveTarget, describeSource } from '../../config/resolve.js';
import { SilentExit, UsageError, EXIT } from '../../errors.js';
import type { CliIO } from '../../io.js';
import type { FlagsOf } from '../../flags.js';
import { Output } from '../../output.js';
import type { SCENARIO } from './flags.js';
import { SHIPPED_SCENARIOS, shippedText } from '../../../../contract/assets.js';
import { messageOf } from '../../../../contract/errors.js';
import { loadScenario, parseSet, ScenarioError, type Loaded } from '../../../scenario/load.js';
import { runScenarios, sourcesOf } from '../../../scenario/run.js';
import { junit, stepLines, totalsLine } from '../../../scenario/report.js';

// `svc scenario run | check | list`: every file read and checked first (a bad one is exit 2 with
// its line and column, and nothing is sent), a live key refused without --live, then the run with
// a line a step, the report (--json) and the JUnit file (--junit); exit 1 when a step failed.

type Inputs = { env?: Record<string, string>; set?: string[] };

/** Every file the arguments name, read and checked with --env and --set; ScenarioError as a usage error. */
function loadAll(args: string[], flags: Inputs, io: CliIO): Loaded[] {
  try {
    const sources = args.flatMap((a) => sourcesOf(a, io.cwd));
    const sets = (flags.set ?? []).map(parseSet);
    const problems: string[] = [];
    const loaded: Loaded[] = [];
    for (const { file, text } of sources) {
      try {
        // With several files a --set names a step of one of them: the others need not have it.
        loaded.push(loadScenario(file, text, { env: flags.env, set: sets, setElsewhere: sources.length > 1 }));
      } catch (err) {
        if (!(err instanceof ScenarioError)) throw err;
        problems.push(err.message);
      }
    }
    const unused = sets.filter((s) => !loaded.some((l) => l.scenario.steps.some((step) => step.name === s.step)));
    if (sources.length > 1 && unused.length) problems.push(...unused.map((s) => `--set ${s.text}: no file has a step ${s.step}`));
    if (problems.length) throw new ScenarioError(problems.join('\n'));
    return loaded;
  } catch (err) {
    if (err instanceof ScenarioError) throw new UsageError(`${err.message}\nNothing was sent.`);
    throw err;
  }
}

export async function run(args: string[], flags: FlagsOf<typeof SCENARIO.run>, io: CliIO): Promise<void> {
  const loaded = loadAll(args, flags, io);
  const names = new Set(loaded.flatMap((l) => l.scenario.steps.map((s) => s.name)));
  for (const [flag, list] of [['--only', flags.only], ['--skip', flags.skip]] as const) {
    const unknown = list?.filter((n) => !names.has(n)) ?? [];
    if (unknown.length) throw new UsageError(`${flag} ${unknown.join(', ')}: no such step in ${loaded.map((l) => l.file).join(', ')}. Nothing was sent.`);
  }
  if (flags.webhookListen !== undefined && flags.webhookUrl === undefined) throw new UsageError('--webhook-listen goes with --webhook-url (the public URL that reaches it).');
  if (flags.webhookUrl !== undefined && flags.webhookListen === undefined) throw new UsageError('--webhook-listen <port> is needed: the local port that --webhook-url forwards to.');
  const target = resolveTarget(flags, { env: io.env, cwd: io.cwd });
  if (target.environment === 'live' && !flags.live) {
    throw new UsageError(`the API key from ${describeSource(target.apiKeySource)} is a live key (svc_live_…): a scenario against a live host could move real money. Pass --live to run it (steps for test keys only are then skipped). Nothing was sent.`);
  }
  const out = new Output(io, Boolean(flags.json), target.environment, target.baseUrl);
  const width = Math.max(...[...names].map((n) => n.length));
  let current: Loaded | undefined;
  const report = await runScenarios(
    {
      loaded,
      baseUrl: target.baseUrl,
      apiKey: target.apiKey,
      controlToken: target.controlToken,
      live: target.environment === 'live',
      timeoutMs: flags.timeout,
      only: flags.only,
      skip: flags.skip,
      webhookUrl: flags.webhookUrl,
      webhookListen: flags.webhookListen,
      sleep: io.sleep,
      onStep: (scenario, step) => {
        if (scenario !== current) out.lines([out.heading(`${scenario.scenario.name}  (${scenario.file})`)]);
        current = scenario;
        out.lines(stepLines(step, width));
      },
    },
    target.environment,
  );
  if (flags.junit !== undefined) {
    try {
      writeFileSync(resolvePath(io.cwd, flags.junit), junit(report));
    } catch (err) {
      throw new UsageError(`cannot write --junit ${flags.junit}: ${messageOf(err)}`);
    }
  }
  if (flags.json) out.print(JSON.stringify(report, null, 2));
  else out.lines(['', totalsLine(report)]);
  if (!report.ok) throw new SilentExit(EXIT.api);
}

export async function check(args: string[], flags: FlagsOf<typeof SCENARIO.check>, io: CliIO): Promise<void> {
  const loaded = loadAll(args, flags, io);
  const rows = loaded.map((l) => ({ file: l.file, name: l.scenario.name, steps: l.scenario.steps.length }));
  new Output(io, Boolean(flags.json)).result(rows, `${rows.length} scenario file(s) OK`, () => rows.map((r) => `  ${r.file}: ${r.name}, ${r.steps} step(s)`));
}

export async function list(_args: string[], flags: FlagsOf<typeof SCENARIO.list>, io: CliIO): Promise<void> {
  const rows = [...SHIPPED_SCENARIOS.flows, ...SHIPPED_SCENARIOS.triggers].map((file) => {
    const { scenario } = loadScenario(file, shippedText(file), { missingEnv: 'allow' });
    return { name: file.replace(/^.*\/|\.yaml$/g, ''), kind: file.includes('/triggers/') ? 'trigger' : 'flow', file, description: scenario.description ?? '', steps: scenario.steps.length };
  });
  const width = Math.max(...rows.map((r) => r.name.length));
  new Output(io, Boolean(flags.json)).result(rows, 'Shipped scenarios (svc scenario run <name>; svc trigger <event> runs a trigger)', () =>
    rows.map((r) => `  ${r.kind.padEnd(7)}  ${r.name.padEnd(width)}  ${r.description}`),
  );
}
