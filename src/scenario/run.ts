import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { SHIPPED_SCENARIOS, shippedText, type ShippedFile } from '../../contract/assets.js';
import { ControlApi } from '../client/control.js';
import { NOT_AN_EMULATOR, SvcError } from '../client/error.js';
import { WebhookReceiver } from './receiver.js';
import { runScenario, type RunOptions, type StepResult } from './runner.js';
import { fullReport, scenarioReport, type Report, type ScenarioReport } from './report.js';
import { ScenarioError, type Loaded } from './load.js';
import type { Scenario } from './format.js';

// What `svc scenario run`, `svc trigger` and the testing API share around the engine: where the
// files come from (paths, folders, shipped names), whether the host is an emulator (asked only
// when a step needs one), the webhook receiver, and the report.

/** A shipped scenario by its name: `link-paid`, `payment.completed` (a trigger). */
export const shippedNamed = (name: string): ShippedFile | undefined =>
  [...SHIPPED_SCENARIOS.flows, ...SHIPPED_SCENARIOS.triggers].find((f) => f.endsWith(`/${name}.yaml`) || f === `scenarios/${name}.yaml`);

/** The files an argument names: itself, the scenario files of a folder, or a shipped scenario. */
export function sourcesOf(arg: string, cwd: string): { file: string; text: string }[] {
  const path = join(cwd, arg);
  if (existsSync(arg.startsWith('/') ? arg : path)) {
    const full = arg.startsWith('/') ? arg : path;
    if (!statSync(full).isDirectory()) return [{ file: arg, text: readFileSync(full, 'utf8') }];
    const files = readdirSync(full).filter((f) => /\.(ya?ml|json)$/.test(f)).sort();
    if (files.length === 0) throw new ScenarioError(`${arg}: no .yaml, .yml or .json file in this folder`);
    return files.map((f) => ({ file: relative(cwd, join(full, f)) || f, text: readFileSync(join(full, f), 'utf8') }));
  }
  const shipped = shippedNamed(arg);
  if (!shipped) throw new ScenarioError(`${arg}: no such file, and no shipped scenario of that name (svc scenario list shows them)`);
  return [{ file: shipped, text: shippedText(shipped) }];
}

export interface RunInput extends Pick<RunOptions, 'baseUrl' | 'apiKey' | 'controlToken' | 'live' | 'timeoutMs' | 'only' | 'skip' | 'sleep'> {
  loaded: Loaded[];
  /** The control API of an emulator known to be one (the testing API's); asked otherwise. */
  emulator?: ControlApi;
  /** A public URL that forwards to --webhook-listen (a host that is not the emulator). */
  webhookUrl?: string;
  webhookListen?: number;
  /** Refuse (NOT_AN_EMULATOR, nothing sent) rather than skip when a step needs an emulator the host is not. */
  requireEmulator?: boolean;
  onStep?(scenario: Loaded, step: ScenarioReport['steps'][number], result: StepResult): void;
}

const needsEmulator = (s: Scenario) => s.steps.some((step) => step.advance || step.otp || step.fault || step.request?.split(' ')[1].startsWith('/_emulator'));
const hasWebhooks = (s: Scenario) => s.steps.some((step) => step.webhook);

/** The host's emulator control API, or why there is none; asked with one credential-free GET /_emulator/health. */
async function emulatorOf(input: RunInput): Promise<ControlApi | { not: string }> {
  if (input.emulator) return input.emulator;
  const control = new ControlApi({ baseUrl: input.baseUrl, controlToken: input.controlToken, timeoutMs: input.timeoutMs });
  try {
    await control.identify();
    return control;
  } catch (err) {
    if (err instanceof SvcError && err.code === NOT_AN_EMULATOR && !input.requireEmulator) return { not: `${input.baseUrl} is not an svc emulator` };
    throw err;
  }
}

export async function runScenarios(input: RunInput, environment: 'test' | 'live'): Promise<Report> {
  const scenarios = input.loaded.map((l) => l.scenario);
  const asked = scenarios.some(needsEmulator) || (scenarios.some(hasWebhooks) && input.webhookUrl === undefined);
  const emulator = asked ? await emulatorOf(input) : { not: 'not asked' };
  let receiver: WebhookReceiver | undefined;
  if (scenarios.some(hasWebhooks) && (input.webhookUrl !== undefined || !('not' in emulator))) receiver = await WebhookReceiver.listen(input.webhookListen ?? 0);
  const webhook = receiver && { receiver, url: input.webhookUrl ?? `http://127.0.0.1:${receiver.port}/svc-scenario/webhooks`, register: true };
  try {
    const reports: ScenarioReport[] = [];
    for (const loaded of input.loaded) {
      const results = await runScenario(loaded.scenario, {
        ...input,
        env: loaded.env,
        emulator,
        webhook,
        onStep: (_step, result) => input.onStep?.(loaded, scenarioReport('', '', [result]).steps[0], result),
      });
      reports.push(scenarioReport(loaded.scenario.name, loaded.file, results));
    }
    return fullReport(input.baseUrl, environment, reports);
  } finally {
    await receiver?.close();
  }
}
