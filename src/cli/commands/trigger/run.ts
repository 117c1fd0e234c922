import { checkFlags } from '../../flag-check.js';
import { CreatePaymentLink } from '../../../../contract/resources/payment-links.js';
import { CreatePayrollRun } from '../../../../contract/resources/payroll.js';
import { shippedText } from '../../../../contract/assets.js';
import { apiContext } from '../../context.js';
import { SilentExit, UsageError, EXIT } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import { parseJsonObject } from '../../values.js';
import { askSecret, requirePrompt } from '../../prompt.js';
import { ControlApi } from '../../../client/control.js';
import { loadScenario, parseSet, ScenarioError } from '../../../scenario/load.js';
import { runScenarios } from '../../../scenario/run.js';
import { stepLines } from '../../../scenario/report.js';
import type { EnvValue } from '../../../scenario/refs.js';
import type { Answer } from '../../../scenario/runner.js';
import { paymentLines } from '../payments/show.js';
import { runLines } from '../payroll/show.js';
import { PAYMENT_TRIGGERS, PAYROLL_TRIGGERS, TRIGGERS, type TRIGGER } from './flags.js';
import type { CliIO } from '../../io.js';

// `svc trigger <event>` runs the shipped scenario scenarios/triggers/<event>.yaml: ordinary calls
// (a link and a simulated payment on it; a payroll run approved as the owner would), so the event
// is the real one — the same fan-out, the same webhook deliveries, the same stream. The flags
// are its variables (--amount, --currency, --method, --pin) and --set its body fields.

type Flags = FlagsOf<typeof TRIGGER>;
type Event = (typeof TRIGGERS)[number];

const isOf = <T extends readonly string[]>(list: T, value: string): value is T[number] => list.includes(value);

export async function run([event]: string[], flags: Flags, io: CliIO): Promise<void> {
  if (!isOf(TRIGGERS, event)) throw new UsageError(`unknown event "${event}": expected one of ${TRIGGERS.join(', ')}.`);
  const ctx = apiContext(flags, io);
  if (ctx.target.environment === 'live') throw new UsageError('trigger works with test keys only: it would create real objects with a live key.');
  // A payroll run moves money in the wallet currencies only; a payment link takes any ISO code.
  checkFlags(flags, { currency: isOf(PAYROLL_TRIGGERS, event) ? CreatePayrollRun.shape.currency : CreatePaymentLink.shape.currency });
  if (isOf(PAYROLL_TRIGGERS, event) && flags.pin === undefined) requirePrompt(io, flags, '--pin', "the owner's PIN to approve the payroll run");
  const env: Record<string, EnvValue> = { AMOUNT: flags.amount, CURRENCY: flags.currency, METHOD: flags.method };
  let emulator: ControlApi | undefined;
  if (!isOf(PAYMENT_TRIGGERS, event)) {
    // Nothing is created before the host is known to be an emulator and the PIN is in hand.
    emulator = new ControlApi({ baseUrl: ctx.target.baseUrl, controlToken: ctx.target.controlToken, timeoutMs: flags.timeout, sleep: io.sleep });
    await emulator.identify();
    if (isOf(PAYROLL_TRIGGERS, event)) env.PIN = flags.pin ?? (await askSecret(io, flags, '--pin', `What is the owner's PIN to approve the ${event.replace('payroll_run.', '')} payroll run?`));
    else {
      const key = (await emulator.keys()).data.keys.find((k) => k.key === ctx.target.apiKey);
      if (!key) throw new UsageError(`${event} can be triggered on the emulator only: the API key in use is not one of its keys.`);
      Object.assign(env, { MERCHANT_ID: key.merchant_id, ENVIRONMENT: key.environment });
    }
  }
  const file = `scenarios/triggers/${event}.yaml` as const;
  let loaded;
  try {
    const scenario = loadScenario(file, shippedText(file), { missingEnv: 'allow' }).scenario;
    // --set amount=500 is the first request body's field; --set pay.method=momo names its step.
    const first = scenario.steps.find((s) => s.body !== undefined)!.name;
    const names = scenario.steps.map((s) => s.name);
    const sets = (flags.set ?? []).map((text) => parseSet(names.includes(text.split('.')[0]) ? text : `${first}.${text}`));
    if (flags.metadata !== undefined && isOf(PAYMENT_TRIGGERS, event)) sets.push({ step: 'link', path: 'metadata', value: parseJsonObject('--metadata', flags.metadata), text: '--metadata' });
    loaded = loadScenario(file, shippedText(file), { env, set: sets });
  } catch (err) {
    if (err instanceof ScenarioError) throw new UsageError(`${err.message}\nNothing was sent.`);
    throw err;
  }
  let last: Answer | undefined;
  const failed: string[] = [];
  const report = await runScenarios(
    {
      loaded: [loaded],
      baseUrl: ctx.target.baseUrl,
      apiKey: ctx.target.apiKey,
      controlToken: ctx.target.controlToken,
      live: false,
      timeoutMs: flags.timeout,
      emulator,
      requireEmulator: true,
      sleep: io.sleep,
      onStep: (_s, step, result) => {
        if (result.answer && step.outcome === 'pass') last = result.answer;
        if (step.outcome !== 'pass') failed.push(...stepLines(step, 0));
      },
    },
    'test',
  );
  if (!report.ok || !last) {
    ctx.out.status(`${event} was not triggered: a step of ${file} failed\n${failed.join('\n')}`);
    throw new SilentExit(EXIT.api);
  }
  const data = (last.json as { data: never }).data;
  ctx.out.result(data, `Triggered ${event}`, () => render(ctx, event, data));
}

function render(ctx: ReturnType<typeof apiContext>, event: Event, data: never): string[] {
  if (isOf(PAYMENT_TRIGGERS, event)) return paymentLines(ctx.out, data);
  if (isOf(PAYROLL_TRIGGERS, event)) return runLines(ctx.out, data);
  const e: { id: string; environment: string; created_at: string; deliveries: string[]; body: string } = data;
  return ctx.out.kv([['event', e.id], ['environment', e.environment], ['created', e.created_at], ['deliveries', e.deliveries.join(', ') || '-'], ['data', JSON.stringify(JSON.parse(e.body).data)]]);
}
