import { apiContext } from '../../context.js';
import type { FlagsOf } from '../../flags.js';
import type { SUB_MERCHANTS } from './flags.js';
import { askText, askUntilAccepted, requirePrompt } from '../../prompt.js';
import type { CliIO } from '../../io.js';

// The spec's two-step provisioning. `create` without --otp runs start, asks for the code on
// the terminal, then completes; without a terminal it refuses before sending anything, naming
// --otp. `create --otp` completes a start done earlier (scripts).

type CreateFlags = FlagsOf<typeof SUB_MERCHANTS.create>;

export async function create(_a: string[], flags: CreateFlags, io: CliIO): Promise<void> {
  let otp = flags.otp;
  if (otp === undefined) requirePrompt(io, flags, '--otp', `the OTP sent to ${flags.phone} (run \`svc sub-merchants start --phone …\` first)`);
  const ctx = apiContext(flags, io);
  if (otp === undefined) {
    const { data: started } = ctx.traced(await ctx.api.startSubMerchant({ manager_phone: flags.phone }));
    ctx.out.status(`OTP sent to ${started.masked_phone}; it expires in ${started.expires_in_seconds} s.`);
    const masked = started.masked_phone;
    const complete = (code: string) =>
      ctx.api.completeSubMerchant({ merchant_name: flags.name, manager_phone: flags.phone, otp: code.trim() }, { idempotencyKey: flags.idempotencyKey });
    // A wrong code is asked again (the service counts the tries and locks the phone after its limit).
    const ask = () => askText(io, flags, '--otp', `Which code was sent to ${masked}?`, (v) => (/^\s*\S+\s*$/.test(v) ? true : 'type the code'));
    const { data } = ctx.traced(await askUntilAccepted(io, flags, undefined, ask, complete, ['OTP_INVALID']));
    return created(ctx, data);
  }
  const { data } = ctx.traced(
    await ctx.api.completeSubMerchant({ merchant_name: flags.name, manager_phone: flags.phone, otp: otp.trim() }, { idempotencyKey: flags.idempotencyKey }),
  );
  created(ctx, data);
}

function created(ctx: ReturnType<typeof apiContext>, data: { id: string; merchant_name: string; created_at: string }): void {
  ctx.out.result(data, 'Sub-merchant created', () => ctx.out.kv([['id', data.id], ['name', data.merchant_name], ['created at', data.created_at]]));
}

export async function start(_a: string[], flags: FlagsOf<typeof SUB_MERCHANTS.start>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.startSubMerchant({ manager_phone: flags.phone }, { idempotencyKey: flags.idempotencyKey }));
  ctx.out.result(data, 'OTP sent', () => ctx.out.kv([['to', data.masked_phone], ['expires in', `${data.expires_in_seconds} s`]]));
}

export async function list(_a: string[], flags: FlagsOf<typeof SUB_MERCHANTS.list>, io: CliIO): Promise<void> {
  const ctx = apiContext(flags, io);
  const { data } = ctx.traced(await ctx.api.listSubMerchants());
  ctx.out.result(data, 'Sub-merchants', () => ctx.out.table(['ID', 'NAME', 'CREATED'], data.sub_merchants.map((s) => [s.id, s.merchant_name, s.created_at])));
}
