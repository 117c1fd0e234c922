import { checkFlags } from '../../flag-check.js';
import { CreatePaymentLink } from '../../../../contract/resources/payment-links.js';
import { CreatePayrollRun } from '../../../../contract/resources/payroll.js';
import { apiContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { FlagsOf } from '../../flags.js';
import { parseJsonObject } from '../../values.js';
import { askSecret, askUntilAccepted, requirePrompt } from '../../prompt.js';
import { WRONG_PIN } from '../payroll/approve.js';
import { ControlApi } from '../../../client/control.js';
import { paymentLines } from '../payments/show.js';
import { runLines } from '../payroll/show.js';
import { DASHBOARD_TRIGGERS, PAYROLL_TRIGGERS, TRIGGERS, type TRIGGER } from './flags.js';
import type { CliIO } from '../../io.js';

// Like a fixture script: ordinary calls (create a link and simulate a payment on it; create a
// payroll run and approve it as the owner would), so the event is the real one — the same
// fan-out, the same webhook deliveries, the same stream.

type Flags = FlagsOf<typeof TRIGGER>;

/** A phone no service user has: its payroll line ends `needs_attention`. */
const NOBODY = '+231779999990';

export async function run([event]: string[], flags: Flags, io: CliIO): Promise<void> {
  if (!TRIGGERS.includes(event as never)) throw new UsageError(`unknown event "${event}": expected one of ${TRIGGERS.join(', ')}.`);
  const ctx = apiContext(flags, io);
  if (ctx.target.environment === 'live') throw new UsageError('trigger works with test keys only: it would create real objects with a live key.');
  // A payroll run moves money in the wallet currencies only; a payment link takes any ISO code.
  checkFlags(flags, { currency: PAYROLL_TRIGGERS.includes(event as never) ? CreatePayrollRun.shape.currency : CreatePaymentLink.shape.currency });
  if (PAYROLL_TRIGGERS.includes(event as never)) return triggerPayroll(ctx, event as (typeof PAYROLL_TRIGGERS)[number], flags);
  if (DASHBOARD_TRIGGERS.includes(event as never)) return triggerDashboardEvent(ctx, event as (typeof DASHBOARD_TRIGGERS)[number], flags);
  const outcome = event === 'payment.failed' ? 'failed' : 'completed';
  const metadata = flags.metadata === undefined ? { source: 'svc trigger' } : parseJsonObject('--metadata', flags.metadata);
  const { data: link } = await ctx.api.createLink({
    title: `svc trigger ${event}`,
    amount: flags.amount,
    currency: flags.currency,
    accepted_methods: [flags.method],
    metadata,
  });
  const { data } = ctx.traced(await ctx.api.simulateLink(link.id, { outcome, method: flags.method }, { idempotencyKey: flags.idempotencyKey }));
  ctx.out.result(data, `Triggered ${event}`, () => paymentLines(ctx.out, data));
}

interface TriggeredEvent {
  id: string;
  type: string;
  environment: string;
  created_at: string;
  body: string;
  deliveries: string[];
}

/** The event is emitted by the emulator for the merchant of the key in use (POST /_emulator/events/trigger). */
async function triggerDashboardEvent(ctx: ReturnType<typeof apiContext>, event: (typeof DASHBOARD_TRIGGERS)[number], flags: Flags): Promise<void> {
  const control = new ControlApi({ baseUrl: ctx.target.baseUrl, controlToken: ctx.target.controlToken, timeoutMs: flags.timeout, traceId: ctx.api.http.traceId, sleep: ctx.io.sleep });
  const { data: keys } = await control.keys();
  const key = keys.keys.find((k) => k.key === ctx.target.apiKey);
  if (!key) throw new UsageError(`${event} can be triggered on the emulator only: the API key in use is not one of its keys.`);
  const { data } = ctx.traced(await control.post<TriggeredEvent>('/events/trigger', { type: event, merchant_id: key.merchant_id, environment: key.environment }));
  ctx.out.result(data, `Triggered ${event}`, () =>
    ctx.out.kv([['event', data.id], ['environment', data.environment], ['created', data.created_at], ['deliveries', data.deliveries.join(', ') || '-'], ['data', JSON.stringify(JSON.parse(data.body).data)]]),
  );
}

async function triggerPayroll(ctx: ReturnType<typeof apiContext>, event: (typeof PAYROLL_TRIGGERS)[number], flags: Flags): Promise<void> {
  const io = ctx.io;
  if (flags.pin === undefined) requirePrompt(io, flags, '--pin', "the owner's PIN to approve the payroll run");
  const control = new ControlApi({ baseUrl: ctx.target.baseUrl, controlToken: ctx.target.controlToken, timeoutMs: flags.timeout, traceId: ctx.api.http.traceId, sleep: io.sleep });
  // Nothing is created before the host is known to be an emulator and the PIN is in hand.
  await control.identify();
  const askPin = () => askSecret(io, flags, '--pin', `What is the owner's PIN to approve the ${event.replace('payroll_run.', '')} payroll run?`);
  const firstPin = flags.pin ?? (await askPin());
  const { data: users } = await control.get<{ users: { phone: string }[] }>('/users');
  const someone = users.users[0]?.phone;
  if (!someone && event !== 'payroll_run.failed') throw new UsageError('the emulator has no service users to pay.');
  const lines =
    event === 'payroll_run.completed'
      ? [{ external_ref: 'trigger-1', payee_phone: someone!, amount_cents: flags.amount }]
      : event === 'payroll_run.partial'
        ? [
            { external_ref: 'trigger-1', payee_phone: someone!, amount_cents: flags.amount },
            { external_ref: 'trigger-2', payee_phone: NOBODY, amount_cents: flags.amount },
          ]
        : [{ external_ref: 'trigger-1', payee_phone: NOBODY, amount_cents: flags.amount }];
  const currency = flags.currency as 'USD' | 'LRD';
  const { data: created } = await ctx.api.createPayrollRun({ currency, note: `svc trigger ${event}`, payments: lines }, { idempotencyKey: flags.idempotencyKey });
  let pin: string | undefined = firstPin;
  await askUntilAccepted(
    io,
    flags,
    flags.pin,
    async () => pin ?? askPin(),
    (value) => {
      pin = undefined; // a wrong first PIN is asked again, not tried twice
      return control.approvePayrollRun(created.run.id, value);
    },
    WRONG_PIN,
  );
  const { data } = ctx.traced(await ctx.api.getPayrollRun(created.run.id));
  ctx.out.result(data, `Triggered ${event} (run ${data.run.status})`, () => runLines(ctx.out, data));
}
