import { Load, measureInterleaved } from '../lib/load.js';
import { aheadOfPeers, loadRow, msAtMost, rateAtLeast } from '../lib/rows.js';
import type { BenchContext, Row, Scenario, Subject, Target } from '../lib/types.js';
import { startEmulatorWith } from '../subjects/emulator.js';
import { PEERS, peerRowId, startPeers } from '../subjects/peers.js';
import { REF_GET, REF_POST, startReferences } from '../subjects/references.js';

// The merchant API under load: the emulator with 1k and with 100k stored payments beside the
// two express references and the peers (subjects/peers.ts: json-server, Prism, Mockoon CLI).
// All loads are measured interleaved (lib/load.ts), because the targets are ratios between
// them, judged round by round (the median of the rounds' ratios). The 1k emulator runs with
// svc's defaults (request log on) but for --rate-limit off; its targets against the peers and
// the references are issue 49's.
//
// BENCH_BASELINE=<another built checkout of svc> adds that emulator at 1k, measured in the same
// rounds, with targets "GET/POST ≥ 95% of the baseline": how a change is shown to cost nothing
// (e.g. fault injection with no fault set), without two runs' drift between them.

const BASELINE = process.env.BENCH_BASELINE;

async function run(ctx: BenchContext): Promise<Row[]> {
  const subjects: Subject[] = [];
  try {
    subjects.push(await startReferences(ctx));
    // The baseline first: the first emulator started measured a few % slower in A/A runs.
    if (BASELINE) subjects.push(await startEmulatorWith(ctx, 1_000, '1k-baseline', BASELINE));
    const svc = await startEmulatorWith(ctx, 1_000, '1k');
    subjects.push(svc);
    subjects.push(await startEmulatorWith(ctx, 100_000, '100k'));
    if (process.env.BENCH_PEERS !== '0') subjects.push(await startPeers(ctx, `${svc.loads[0].spec.baseUrl}/openapi.yaml`));
    const entries = subjects.flatMap((s) => s.loads);
    const loads = entries.map((e) => new Load(e.spec));
    try {
      ctx.log(`measuring ${loads.length} loads interleaved`);
      const results = await measureInterleaved(loads, { warmupMs: ctx.warmupMs, measureMs: ctx.measureMs, log: ctx.log });
      const measured = new Map(entries.map((e, i) => [e.id, loadRow(e.id, e.label, results[i], e.describe?.(results[i]))]));
      const rows: Row[] = [];
      // Table order: per subject, its own rows, then its loads, then what it reports at the end.
      while (subjects.length > 0) {
        const s = subjects.shift()!;
        const after = await s.finish();
        rows.push(...s.rows, ...s.loads.map((l) => measured.get(l.id)!), ...after);
      }
      return rows;
    } finally {
      await Promise.all(loads.map((l) => l.close()));
    }
  } finally {
    await Promise.all(subjects.map((s) => s.finish().catch(() => [])));
  }
}

const targets: Target[] = [
  rateAtLeast('emulator.get.1k', REF_GET, 0.6, 'bare express'),
  ...aheadOfPeers('emulator.get.1k', PEERS.map((p) => peerRowId(p, 'get')), 1.5),
  rateAtLeast('emulator.get.100k', REF_GET, 0.5, 'bare express'),
  rateAtLeast('emulator.post.1k', REF_POST, 0.6, 'express + zod'),
  ...aheadOfPeers('emulator.post.1k', PEERS.map((p) => peerRowId(p, 'post')), 1.5),
  rateAtLeast('emulator.post.100k', REF_POST, 0.4, 'express + zod'),
  rateAtLeast('emulator.post.100k', 'emulator.post.1k', 0.8, 'POST @ 1k'),
  msAtMost('emulator.post.100k', 'p99Ms', 50, 'p99'),
  msAtMost('emulator.stall.1k', 'maxMs', 50, 'stall'),
  msAtMost('emulator.stall.100k', 'maxMs', 50, 'stall'),
  ...(BASELINE
    ? [rateAtLeast('emulator.get.1k', 'emulator.get.1k-baseline', 0.95, 'the baseline'), rateAtLeast('emulator.post.1k', 'emulator.post.1k-baseline', 0.95, 'the baseline')]
    : []),
];

export const api: Scenario = { name: 'api', run, targets };
