import { readFileSync } from 'node:fs';
import { FaultFile, FaultSpec, type FaultInput } from '../../../../contract/faults.js';
import { UsageError } from '../../errors.js';
import { controlContext } from '../../control-context.js';
import type { CommonFlags, FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';
import type { CliIO } from '../../io.js';
import type { ControlResponse } from '../../../client/control.js';
import { codeOf, messageOf } from '../../../../contract/errors.js';

// `svc emulator faults add|list|remove|clear|log|presets|apply`: fault injection through the
// control API (emulator/faults/). A fault is checked here with the emulator's own schema, so
// a bad flag exits 2, naming the flag, before anything is sent.

export type AddFlags = FlagsOf<typeof EMULATOR.faultsAdd>;

/** The flag a schema field came from, for messages. */
const FLAG_OF: Record<string, string> = {
  route: '--route',
  deliveries: '--deliveries',
  provider: '--provider',
  kind: 'the kind (--status, --latency, --hang, --reset, --truncate, --duplicate, --drop, --delay, --reorder or --down)',
  status: '--status',
  retry_after: '--retry-after',
  latency: '--latency/--delay/--reorder',
  after_commit: '--after-commit',
  environment: '--environment',
  key_name: '--key-name',
  times: '--times',
  probability: '--probability',
  seed: '--seed',
  for: '--down',
};

/** Flags → the control API's fault body (the kind is whichever kind flag was given). */
export function faultFromFlags(f: AddFlags): FaultInput {
  const kinds: Array<[boolean, FaultInput['kind']]> = [
    [f.status !== undefined, 'status'],
    [f.latency !== undefined, 'latency'],
    [Boolean(f.hang), 'hang'],
    [Boolean(f.reset), 'reset'],
    [Boolean(f.truncate), 'truncate'],
    [Boolean(f.duplicate), 'duplicate'],
    [Boolean(f.drop), 'drop'],
    [f.delay !== undefined, 'delay'],
    [f.reorder !== undefined, 'reorder'],
    [f.down !== undefined, 'down'],
  ];
  const given = kinds.filter(([on]) => on).map(([, k]) => k);
  if (given.length !== 1) throw new UsageError(`give exactly one kind of fault: --status <code>, --latency <dur>, --hang, --reset, --truncate, --duplicate, --drop, --delay <dur>, --reorder <window> or --down <dur>${given.length ? ` (got ${given.join(', ')})` : ''}.`);
  const deliveries = f.deliveries || f.eventType !== undefined || f.endpoint !== undefined ? { event_type: f.eventType, endpoint_id: f.endpoint } : undefined;
  return {
    kind: given[0],
    ...(f.route !== undefined && { route: f.route }),
    ...(deliveries && { deliveries }),
    ...(f.provider !== undefined && { provider: f.provider }),
    ...(f.status !== undefined && { status: f.status as 503 }),
    ...(f.retryAfter !== undefined && { retry_after: f.retryAfter }),
    ...((f.latency ?? f.delay ?? f.reorder) !== undefined && { latency: (f.latency ?? f.delay ?? f.reorder)! }),
    ...(f.down !== undefined && { for: f.down }),
    ...(f.afterCommit && { after_commit: true }),
    ...(f.times !== undefined && { times: f.times }),
    ...(f.probability !== undefined && { probability: f.probability }),
    ...(f.seed !== undefined && { seed: f.seed }),
    ...(f.environment !== undefined && { environment: f.environment as 'test' }),
    ...(f.keyName !== undefined && { key_name: f.keyName }),
  };
}

function check(fault: FaultInput): void {
  const parsed = FaultSpec.safeParse(fault);
  if (parsed.success) return;
  const issue = parsed.error.issues[0];
  const field = String(issue.path[0] ?? 'kind');
  throw new UsageError(`${FLAG_OF[field] ?? field}: ${issue.message}.`);
}

/** `svc emulator start --faults FILE` (`name`: --faults or SVC_FAULTS): the file checked like the control API would. */
export function readFaultFile(file: string, name: string): FaultSpec[] {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`${name}: cannot read ${file}: ${codeOf(err) ?? messageOf(err)}.`);
  }
  const parsed = FaultFile.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(`${name}: ${file}: ${issue.path.join('.') || 'the file'}: ${issue.message} (expected {"faults": [ … ]} or an array of faults, as svc emulator faults add sends them).`);
  }
  return parsed.data;
}

type ShownFault = ControlResponse<'addFault'>;

const targetOf = (f: ShownFault) =>
  f.route ?? (f.deliveries ? `deliveries${f.deliveries.event_type ? ` ${f.deliveries.event_type}` : ''}${f.deliveries.endpoint_id ? ` → ${f.deliveries.endpoint_id}` : ''}` : `provider ${f.provider}`);
const whenOf = (f: ShownFault) => (f.until ? `until ${f.until}` : f.probability !== undefined ? `p=${f.probability}` : f.remaining !== null ? `${f.remaining} left` : 'always');

export async function add(_a: string[], flags: AddFlags, io: CliIO): Promise<void> {
  const fault = faultFromFlags(flags);
  check(fault);
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.post<ShownFault>('/faults', fault));
  ctx.out.result(data, `Fault ${data.id} added`, () => ctx.out.kv([['target', targetOf(data)], ['kind', `${data.kind}${data.status ? ` ${data.status}` : ''}${data.after_commit ? ' (after commit)' : ''}`], ['fires', whenOf(data)], ['remove', `svc emulator faults remove ${data.id}`]]));
}

export async function list(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.get<{ faults: ShownFault[] }>('/faults'));
  ctx.out.result(data, 'Faults in force', () =>
    ctx.out.table(['ID', 'TARGET', 'KIND', 'FIRES', 'FIRED'], data.faults.map((f) => [f.id, targetOf(f), `${f.kind}${f.status ? ` ${f.status}` : ''}${f.after_commit ? ' after commit' : ''}`, whenOf(f), f.fired])),
  );
}

export async function remove([id]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.del<{ removed: string }>(`/faults/${encodeURIComponent(id)}`));
  ctx.out.result(data, `Fault ${data.removed} removed`, () => []);
}

export async function clear(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.post<{ cleared: number }>('/faults/clear'));
  ctx.out.result(data, `${data.cleared} fault(s) removed`, () => []);
}

export async function log(_a: string[], flags: FlagsOf<typeof EMULATOR.faultsLog>, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.get<{ entries: Array<{ at: string; fault_id: string; kind: string; target: string; trace_id?: string; detail?: string }> }>('/faults/log', { limit: flags.limit }));
  ctx.out.result(data, 'Faults that fired (oldest first)', () => ctx.out.table(['AT', 'FAULT', 'WHAT', 'ON', 'TRACE'], data.entries.map((e) => [e.at, e.fault_id, e.detail ?? e.kind, e.target, e.trace_id ?? ''])));
}

export async function presets(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.get<{ presets: Array<{ name: string; description: string }> }>('/faults/presets'));
  ctx.out.result(data, 'Fault presets (svc emulator faults apply NAME)', () => ctx.out.table(['NAME', 'WHAT'], data.presets.map((p) => [p.name, p.description])));
}

export async function apply([name]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.post<{ preset: string; faults: ShownFault[] }>(`/faults/presets/${encodeURIComponent(name)}/apply`));
  ctx.out.result(data, `Preset ${data.preset}: ${data.faults.length} fault(s) added`, () => ctx.out.table(['ID', 'TARGET', 'KIND', 'FIRES'], data.faults.map((f) => [f.id, targetOf(f), f.kind, whenOf(f)])));
}
