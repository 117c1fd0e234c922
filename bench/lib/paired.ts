import { Load, measurePaired, type LoadResult } from './load.js';
import type { BenchContext, Subject, SubjectLoad, Target } from './types.js';

// A feature's cost as the ratio of two sides of the same emulator build, off and on (the request
// log's rows, coverage's row). Two processes started alike differed by up to ±3% in req/s for
// their whole life (A/A runs on the 2-vCPU bench VM): with one a side, that offset stayed in the
// ratio however many rounds were measured. So each side is `replicas` emulator processes, each
// load measured beside its twin on the other side in adjacent slices (measurePaired), and a
// run's figure for a side is its replicas' requests over their time together; `runs` runs of
// the whole paired measurement are made and the targets judge their median.

export type Kind = 'get' | 'post';

interface Side {
  /** By kind, one load per replica. */
  loads: Partial<Record<Kind, Array<{ meta: SubjectLoad; load: Load }>>>;
}

/** What a side's loads of one kind have measured: requests, seconds, emulator CPU (ms). */
export interface Tally {
  requests: number;
  seconds: number;
  cpuMs: number;
}

export interface PairedOptions {
  kinds: readonly Kind[];
  replicas: number;
  runs: number;
  /** Rounds of one run's paired measurement. */
  rounds: number;
  /** One run's measured time per row against the other rows' (shared by the replicas). */
  measureFactor: number;
  /** Starts replica `i` (1-based) of a side. */
  start(side: 'off' | 'on', i: number): Promise<Subject>;
  name: string;
}

export interface PairedKind {
  /** Each side's replicas' loads merged. */
  off: LoadResult;
  on: LoadResult;
  /** Per run: each side's tally over that run alone. */
  runs: Array<{ off: Tally; on: Tally }>;
  /** The first replica's label without its number, and how many there were. */
  label(side: 'off' | 'on'): string;
}

/** Measures both sides; `use` reads the results before every emulator is stopped. */
export async function measureSides<T>(ctx: BenchContext, o: PairedOptions, use: (byKind: Partial<Record<Kind, PairedKind>>) => T): Promise<T> {
  const subjects: Subject[] = [];
  const sides = { off: { loads: {} } as Side, on: { loads: {} } as Side };
  const all = () => o.kinds.flatMap((kind) => [...sides.off.loads[kind]!, ...sides.on.loads[kind]!]);
  try {
    // Off and on started in turns: the first emulator started measured a few % slower in A/A runs (api.ts).
    for (let i = 1; i <= o.replicas; i++) {
      for (const side of ['off', 'on'] as const) {
        const subject = await o.start(side, i);
        subjects.push(subject);
        for (const kind of o.kinds) {
          const meta = subject.loads.find((l) => l.id.startsWith(`emulator.${kind}.`))!;
          (sides[side].loads[kind] ??= []).push({ meta, load: new Load(meta.spec) });
        }
      }
    }
    // Each load with its twin on the other side (GET with GET, replica i with replica i).
    const pairs = o.kinds.flatMap((kind) => sides.off.loads[kind]!.map((x, i) => [x.load, sides.on.loads[kind]![i]!.load] as const));
    const runs: Array<Partial<Record<Kind, { off: Tally; on: Tally }>>> = [];
    for (let r = 0; r < o.runs; r++) {
      const before = Object.fromEntries(o.kinds.map((k) => [k, { off: tally(sides.off, k), on: tally(sides.on, k) }]));
      ctx.log(`${o.name}: run ${r + 1}/${o.runs}, ${pairs.length} pairs of loads (${o.replicas} emulators a side), ${o.rounds} rounds`);
      await measurePaired(pairs, { warmupMs: r === 0 ? ctx.warmupMs : 0, measureMs: (ctx.measureMs * o.measureFactor) / o.replicas, rounds: o.rounds, log: ctx.log });
      runs.push(Object.fromEntries(o.kinds.map((k) => [k, { off: minus(tally(sides.off, k), before[k]!.off), on: minus(tally(sides.on, k), before[k]!.on) }])));
    }
    const byKind: Partial<Record<Kind, PairedKind>> = {};
    for (const kind of o.kinds) {
      byKind[kind] = {
        off: Load.merged(sides.off.loads[kind]!.map((l) => l.load)),
        on: Load.merged(sides.on.loads[kind]!.map((l) => l.load)),
        runs: runs.map((x) => x[kind]!),
        label: (side) => `${sides[side].loads[kind]![0]!.meta.label.replace(/-1$/, '')}, ${o.replicas} emulators, ${o.runs} runs`,
      };
    }
    return use(byKind);
  } finally {
    await Promise.all(all().map((l) => l.load.close()));
    await Promise.all(subjects.map((s) => s.finish().catch(() => [])));
  }
}

/** A side's loads of one kind so far: their requests, measured seconds and the emulators' CPU. */
function tally(side: Side, kind: Kind): Tally {
  const out: Tally = { requests: 0, seconds: 0, cpuMs: 0 };
  for (const { meta, load } of side.loads[kind]!) {
    const r = load.result();
    if (r.requests === 0) continue;
    out.requests += r.requests;
    out.seconds += r.requests / r.rate;
    out.cpuMs += (meta.cpuPerRequestMs?.(r) ?? Number.NaN) * r.requests;
  }
  return out;
}

const minus = (a: Tally, b: Tally): Tally => ({ requests: a.requests - b.requests, seconds: a.seconds - b.seconds, cpuMs: a.cpuMs - b.cpuMs });
export const rate = (t: Tally) => t.requests / t.seconds;
/** Emulator CPU per request, ms. */
export const cpu = (t: Tally) => t.cpuMs / t.requests;
export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const perRun = (values: number[]) => values.map((v) => `${(v * 100).toFixed(1)}%`).join(' / ');

/** Target: a row's ratio is at least (or at most) `limit`. */
export function ratioTarget(row: string, text: string, limit: number, atMost: boolean): Target {
  return {
    row,
    text,
    check(rows) {
      const ratio = rows.get(row)?.ratio;
      if (ratio === undefined || Number.isNaN(ratio)) return undefined;
      return { actual: `${(ratio * 100).toFixed(1)}% (median)`, pass: atMost ? ratio <= limit : ratio >= limit };
    },
  };
}
