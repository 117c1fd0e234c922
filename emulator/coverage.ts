import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { z } from 'zod';
import { buildInventory, COVERAGE_KINDS, type AnswerMatch, type CoverageSignal, type InventoryItem } from '../contract/coverage.js';
import type { CoverageReport } from '../contract/control/coverage.js';
import { messageOf } from '../contract/errors.js';
import type { AttemptOutcome } from './webhooks/sender.js';
import { errorCodeOf } from './errors.js';
import { isoMicros } from './ids.js';
import { attemptsInRound, type DeliveryRecord, type DeliveryStatus } from './webhooks/records.js';

// Integration coverage of one emulator (docs/coverage.md): a counter per item of the contract's
// inventory (contract/coverage.ts), bumped only by what the emulator answered or delivered. A
// merchant request finds its route's tally once it is routed (gateway/mount.ts) and the tally
// is told the answer as it goes out (gateway/envelope.ts sendJson): on the way of every GET, so
// a success costs one comparison and one increment. Deliveries and state changes report signals
// (webhooks/engine.ts, faults/delivery.ts, the payment, PIN and payout domains). The counts are
// not part of the world: a reset or a restore keeps them, and with a data dir they are saved
// (<data dir>/coverage.json, a second after a change and at stop), so a restart keeps them too.
// POST /_emulator/coverage/reset starts a new count.

type Report = z.input<typeof CoverageReport>;

const SAVE_MS = 1_000;

/** What a tally reads of the answer besides its status and body: express's Response is one (named apart so no declaration reaches express's types). */
interface Answered {
  req: { query: Record<string, unknown> };
  getHeader(name: string): unknown;
}

/** An answer flow's test, on an answer of its route: status, error code, message, query, replay. */
function matches(m: AnswerMatch, status: number, code: string | null, body: string, res: Answered): boolean {
  if (m.status !== undefined && m.status !== status) return false;
  if (m.code !== undefined && m.code !== code) return false;
  if (m.message !== undefined && !body.includes(m.message)) return false;
  const value = m.query === undefined ? undefined : res.req.query[m.query];
  if (m.query !== undefined && (typeof value !== 'string' || value === '' || value === '0')) return false;
  return !m.replayed || res.getHeader('Idempotent-Replayed') === 'true';
}

/** One route's counters: handed to each of its requests, told the answer. */
export class RouteTally {
  constructor(
    private readonly coverage: Coverage,
    private readonly ok: { at: number; status: number },
    private readonly errors: ReadonlyMap<string, number>,
    private readonly flows: ReadonlyArray<[AnswerMatch, number]> | null,
  ) {}

  answered(status: number, body: string, res: Answered): void {
    let code: string | null = null;
    if (status === this.ok.status) this.coverage.bump(this.ok.at);
    else if (status >= 400) {
      code = errorCodeOf(body);
      const at = code === null ? undefined : this.errors.get(code);
      if (at !== undefined) this.coverage.bump(at);
    }
    if (this.flows) for (const [m, at] of this.flows) if (matches(m, status, code, body, res)) this.coverage.bump(at);
  }
}

/** A pattern ("payroll", "POST *payouts"): case-insensitive, * matches anything, found anywhere in a name. */
const patternOf = (p: string) => new RegExp(p.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*'), 'i');

/** Cut to one decimal, never rounded up: 99.96% shows 99.9%, so 100% means every item. */
const percent = (covered: number, total: number) => (total === 0 ? 100 : Math.floor((covered * 1000) / total) / 10);

export class Coverage {
  readonly items: InventoryItem[] = buildInventory();
  private readonly counts: number[] = this.items.map(() => 0);
  private readonly tallies = new Map<string, RouteTally>();
  private readonly signals = new Map<CoverageSignal, number>();
  private readonly events = new Map<string, number>();
  private since: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly clock: { now(): number },
    /** false: nothing is counted (the bench's baseline). */
    readonly on: boolean,
    /** <data dir>/coverage.json, or null (memory store). */
    private readonly file: string | null,
    private readonly warn: (message: string) => void,
  ) {
    this.since = clock.now();
    const index = new Map(this.items.map((item, i) => [`${item.kind} ${item.name}`, i]));
    const oks = new Map<string, { at: number; status: number }>();
    const errors = new Map<string, Map<string, number>>();
    const flows = new Map<string, Array<[AnswerMatch, number]>>();
    this.items.forEach((item, i) => {
      if (item.kind === 'route') oks.set(item.route!, { at: i, status: item.status! });
      if (item.kind === 'error') errors.set(item.route!, (errors.get(item.route!) ?? new Map()).set(item.code!, i));
      if (item.kind === 'event') this.events.set(item.name, i);
      if (item.signal) this.signals.set(item.signal, i);
      for (const m of item.answers ?? []) for (const route of m.route === undefined ? oks.keys() : [m.route]) flows.set(route, [...(flows.get(route) ?? []), [m, i]]);
    });
    for (const [route, ok] of oks) this.tallies.set(route, new RouteTally(this, ok, errors.get(route) ?? new Map(), flows.get(route) ?? null));
    if (file) this.load(file, index);
  }

  /** The tally a request of this route reports its answer to. */
  tallyOf(route: string): RouteTally | undefined {
    return this.tallies.get(route);
  }

  bump(at: number): void {
    this.counts[at]++;
    if (this.file !== null && this.timer === undefined) this.timer = setTimeout(() => this.save(), SAVE_MS).unref();
  }

  signal(s: CoverageSignal): void {
    const at = this.signals.get(s);
    if (this.on && at !== undefined) this.bump(at);
  }

  /** A delivery attempt was recorded (webhooks/engine.ts): `d` as it was before it, `status` after. */
  attempted(d: DeliveryRecord, outcome: AttemptOutcome, status: DeliveryStatus): void {
    if (!this.on) return;
    const inRound = attemptsInRound(d);
    const previous = inRound > 0 ? d.attempts[d.attempts.length - 1] : undefined;
    if (outcome.ok) {
      const at = this.events.get(d.event_type);
      if (at !== undefined) this.bump(at);
      if (d.attempts.length === 0) this.signal('first');
    }
    if (previous?.status_code != null && previous.status_code >= 500) this.signal('after5xx');
    if (previous && previous.status_code === null && /timeout/i.test(previous.error ?? '')) this.signal('afterTimeout');
    if (inRound === 0 && (d.round_start ?? 0) > 0) this.signal('redelivered');
    if (status === 'dead_letter') this.signal('deadLetter');
  }

  reset(): void {
    this.counts.fill(0);
    this.since = this.clock.now();
    this.save();
  }

  report(ignore: readonly string[] = []): Report {
    const patterns = ignore.map((p) => ({ p, re: patternOf(p), used: false }));
    const items = this.items.map((item, i) => {
      const hits = patterns.filter((x) => x.re.test(item.name));
      for (const x of hits) x.used = true;
      return { kind: item.kind, name: item.name, covered: this.counts[i] > 0, count: this.counts[i], how: item.how, ignored: hits.length > 0, weight: item.weight };
    });
    const sum = (of: typeof items) => {
      const counted = of.filter((x) => !x.ignored);
      const covered = counted.filter((x) => x.covered).length;
      return { covered, total: counted.length, ignored: of.length - counted.length, percent: percent(covered, counted.length) };
    };
    const shown = ({ weight: _, ...item }: (typeof items)[number]) => item;
    return {
      since: isoMicros(this.since),
      ...sum(items),
      kinds: COVERAGE_KINDS.map((kind) => ({ kind, ...sum(items.filter((x) => x.kind === kind)) })),
      uncovered_top: items
        .filter((x) => !x.covered && !x.ignored)
        .sort((a, b) => b.weight - a.weight)
        .slice(0, 10)
        .map(shown),
      unmatched_ignore: patterns.filter((x) => !x.used).map((x) => x.p),
      items: items.map(shown),
    };
  }

  /** At stop: the counts so far to disk. */
  close(): void {
    this.save();
  }

  private save(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.file === null) return;
    const counts = Object.fromEntries(this.items.flatMap((item, i) => (this.counts[i] > 0 ? [[`${item.kind} ${item.name}`, this.counts[i]]] : [])));
    try {
      writeFileSync(`${this.file}.tmp`, JSON.stringify({ since_ms: this.since, counts }), { mode: 0o600 });
      renameSync(`${this.file}.tmp`, this.file);
    } catch (err) {
      this.warn(`coverage: could not save ${this.file} (${messageOf(err)}); the counts stay in memory`);
    }
  }

  /** A count saved by an earlier run on this data dir; items the contract no longer has are left out. */
  private load(file: string, index: ReadonlyMap<string, number>): void {
    if (!existsSync(file)) return;
    let saved: { since_ms?: unknown; counts?: Record<string, unknown> };
    try {
      saved = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      this.warn(`coverage: ${file} cannot be read (${messageOf(err)}); the count starts again`);
      return;
    }
    if (typeof saved.since_ms === 'number') this.since = saved.since_ms;
    for (const [key, n] of Object.entries(saved.counts ?? {})) {
      const at = index.get(key);
      if (at !== undefined && typeof n === 'number' && Number.isSafeInteger(n)) this.counts[at] = n;
    }
  }
}
