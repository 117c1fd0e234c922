import { newId } from '../ids.js';
import type { FaultSpec } from '../../contract/faults.js';

// The active faults of one emulator, in memory (a fault is a test's arrangement, not data: a
// restart starts with none, or with `--faults FILE`), and the log of every one that fired.
//
// Matching is first come, first served: the oldest fault that matches and decides to fire
// wins. A `times` fault retires after its last firing; a `probability` fault draws from its own
// seeded generator, so the same seed fires on the same requests in every run.

export interface Fault extends Omit<FaultSpec, 'latency' | 'for'> {
  id: string;
  latency?: { min: number; max: number };
  for?: number;
  /** kind down: the provider answers again from this time (emulator clock, ms). */
  until_ms?: number;
  /** Firings left (times); null = unlimited. */
  remaining: number | null;
  fired: number;
  created_at: string;
}

export interface FaultLogEntry {
  at: string;
  fault_id: string;
  kind: string;
  target: string;
  trace_id?: string;
  after_commit: boolean;
  detail?: string;
}

const LOG_SIZE = 500;

/** mulberry32: small, fast, and the same sequence for the same seed everywhere. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export class FaultSet {
  private faults: Fault[] = [];
  private readonly draws = new Map<string, () => number>();
  private log: FaultLogEntry[] = [];
  private readonly listeners = new Set<() => void>();
  private releaseHeld!: () => void;
  /**
   * Settles when the emulator stops: a request a fault holds (hang, latency on a manual clock)
   * must not keep the shutdown waiting for ever.
   */
  readonly released = new Promise<void>((ok) => (this.releaseHeld = ok));

  constructor(private readonly now: () => number) {}

  /** True when no fault is set: the request path checks only this (one comparison). */
  get empty(): boolean {
    return this.faults.length === 0;
  }

  add(spec: FaultSpec): Fault {
    const fault: Fault = {
      ...spec,
      id: newId('flt'),
      remaining: spec.times ?? null,
      fired: 0,
      created_at: new Date(this.now()).toISOString(),
      ...(spec.for !== undefined && { until_ms: this.now() + spec.for }),
    };
    this.faults.push(fault);
    if (spec.probability !== undefined || spec.seed !== undefined) this.draws.set(fault.id, seeded(spec.seed ?? Math.floor(Math.random() * 2 ** 31)));
    this.changed();
    return fault;
  }

  list(): Fault[] {
    return this.faults.map((f) => ({ ...f }));
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    this.draws.delete(id);
    if (this.faults.length !== before) this.changed();
    return this.faults.length !== before;
  }

  clear(): number {
    const n = this.faults.length;
    this.faults = [];
    this.draws.clear();
    if (n > 0) this.changed();
    return n;
  }

  /**
   * The fault to apply to one occasion, if any: the first that matches and fires. Firing is
   * counted here (a `times` fault spends one, a probability fault draws once per match).
   */
  take(matches: (f: Fault) => boolean): Fault | undefined {
    for (const f of this.faults) {
      if (!matches(f)) continue;
      const draw = this.draws.get(f.id);
      if (draw && f.probability !== undefined && draw() >= f.probability) continue;
      f.fired++;
      if (f.remaining !== null && --f.remaining === 0) this.remove(f.id);
      else this.changed();
      return { ...f };
    }
    return undefined;
  }

  /** The fault's own random numbers (seeded when it has a seed): latency ranges, reorder. */
  random(id: string): () => number {
    return this.draws.get(id) ?? Math.random;
  }

  /** A provider fault in force now (kind down, its window not over). */
  active(matches: (f: Fault) => boolean): Fault | undefined {
    return this.faults.find(matches);
  }

  record(entry: Omit<FaultLogEntry, 'at'>): FaultLogEntry {
    const full = { at: new Date(this.now()).toISOString(), ...entry };
    this.log.push(full);
    if (this.log.length > LOG_SIZE) this.log = this.log.slice(-LOG_SIZE);
    this.changed();
    return full;
  }

  entries(): FaultLogEntry[] {
    return [...this.log];
  }

  /** Lets go of every request a fault holds (the emulator is stopping). */
  release(): void {
    this.releaseHeld();
  }

  /** The dashboard re-renders its faults panel when this fires. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/** A latency drawn uniformly from the fault's range (a fixed latency has min = max). */
export const latencyOf = (f: Pick<Fault, 'latency'>, random: () => number = Math.random): number =>
  f.latency ? Math.round(f.latency.min + (f.latency.max - f.latency.min) * random()) : 0;
