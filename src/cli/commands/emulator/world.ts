import { SvcError } from '../../../client/error.js';
import { SnapshotName } from '../../../../contract/snapshot-name.js';
import { UsageError } from '../../errors.js';
import { controlContext } from '../../control-context.js';
import type { CommonFlags } from '../../flags.js';
import type { CliIO } from '../../io.js';

// `svc emulator reset | snapshot save|restore|list | stop`: the world as a whole, through the
// control API (emulator/control/world-routes.ts).

export async function reset(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.reset());
  ctx.out.result(data, 'Emulator reset to its fixtures (same port, same keys)', () => []);
}

/** Checked here with the API's own schema: a bad name exits 2 before anything is sent. */
function checkName(name: string): string {
  const parsed = SnapshotName.safeParse(name);
  if (!parsed.success) throw new UsageError(`snapshot name "${name}" ${parsed.error.issues[0].message}.`);
  return parsed.data;
}

export async function snapshotSave([name]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  checkName(name);
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.saveSnapshot(name));
  ctx.out.result(data, `Snapshot "${data.name}" saved`, () => ctx.out.kv([['bytes', data.bytes], ['restore', `svc emulator snapshot restore ${data.name}`]]));
}

export async function snapshotRestore([name]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  checkName(name);
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.restoreNamedSnapshot(name));
  ctx.out.result(data, `Snapshot "${data.restored}" restored`, () => []);
}

export async function snapshotList(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.snapshots());
  ctx.out.result(data, 'Snapshots', () =>
    data.snapshots.length === 0 ? ['  No snapshot saved yet (svc emulator snapshot save NAME).'] : ctx.out.table(['NAME', 'BYTES', 'SAVED'], data.snapshots.map((s) => [s.name, String(s.bytes), s.saved_at])),
  );
}

const STOP_WAIT_MS = 30_000;

/** Asks the emulator to stop, then waits until it no longer answers (its store is flushed by then). */
export async function stop(_a: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  const ctx = controlContext(flags, io);
  const { data } = ctx.traced(await ctx.control.stop());
  // A bare request, no retries: a refused connection is the answer this loop waits for.
  const health = `${ctx.baseUrl.replace(/\/+$/, '')}/_emulator/health`;
  const deadline = Date.now() + STOP_WAIT_MS;
  for (;;) {
    try {
      await fetch(health, { signal: AbortSignal.timeout(2000) }).then((r) => r.body?.cancel());
    } catch {
      break; // nobody listens any more
    }
    if (Date.now() > deadline) throw new SvcError('TIMEOUT', 0, `The emulator (pid ${data.pid}) accepted the stop but still answers after ${STOP_WAIT_MS / 1000} s.`, null);
    await new Promise((ok) => setTimeout(ok, 50));
  }
  ctx.out.result({ stopped: true, pid: data.pid }, `Emulator at ${ctx.baseUrl} stopped`, () => []);
}
