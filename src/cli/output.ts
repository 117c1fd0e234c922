import type { ChalkInstance } from 'chalk';
import type { CliIO, OutStream } from './io.js';
import { isRecord } from '../../contract/json-path.js';

// One output helper for every command. Data goes to stdout, status to stderr.
//   --json  → the API's `data`, exactly, as one JSON document; nothing else on stdout.
//   human   → a TEST / LIVE marker, then a key-value block or a table.
// Colour only when the stream is a terminal and NO_COLOR is unset — decided for each IO, so
// a command run with collecting streams (tests) is never coloured by the real terminal.

type Environment = 'test' | 'live';
type Marker = Environment | 'emulator' | undefined;

const wantsColour = (io: CliIO, stream: OutStream) => !(io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') && Boolean(stream.isTTY);

/**
 * Without a terminal (scripts, pipes, the cold-start bench) chalk is not even loaded: a
 * stand-in with chalk's shape (any chain of styles, called on text) returns the text as is.
 */
const plainStyle: ChalkInstance = new Proxy(((...text: unknown[]) => text.join(' ')) as unknown as ChalkInstance, {
  get: (target, prop) => (prop === 'level' ? 0 : prop in Function.prototype ? Reflect.get(target, prop) : plainStyle),
});

/** chalk's constructor, once an IO that colours has loaded it (the module, not a decision: that stays per IO). */
let Chalk: typeof import('chalk').Chalk | undefined;

/** Loads chalk when `io` will colour something; main() awaits this before any command runs. */
export async function loadColour(io: CliIO): Promise<void> {
  if (!Chalk && (wantsColour(io, io.stdout) || wantsColour(io, io.stderr))) ({ Chalk } = await import('chalk'));
}

/** Whether `stream` of `io` gets colour (commander's help asks too). */
export const hasColour = (io: CliIO, stream: OutStream): boolean => Chalk !== undefined && wantsColour(io, stream);

const styleFor = (io: CliIO, stream: OutStream): ChalkInstance => (Chalk && wantsColour(io, stream) ? new Chalk({ level: 1 }) : plainStyle);

export class Output {
  /** Colours for stdout and for stderr. */
  readonly c: ChalkInstance;
  readonly e: ChalkInstance;

  constructor(
    readonly io: CliIO,
    readonly json: boolean,
    readonly marker?: Marker,
    /** Shown beside the LIVE marker: live output always says which host it came from. */
    readonly host?: string,
  ) {
    this.c = styleFor(io, io.stdout);
    this.e = styleFor(io, io.stderr);
  }

  /** The command's result: JSON data, or the human rendering under the marker line. */
  result(data: unknown, title: string, render: () => string[]): void {
    if (this.json) {
      this.io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
      return;
    }
    this.io.stdout.write(`${[this.heading(title), ...render()].join('\n')}\n`);
  }

  /** Human-only lines (a stream, a progress summary); ignored under --json. */
  lines(lines: string[]): void {
    if (!this.json) this.io.stdout.write(`${lines.join('\n')}\n`);
  }

  /** One line on stdout in either mode: a command's own format (a JSON line of a stream, a value alone). */
  print(line: string): void {
    this.io.stdout.write(`${line}\n`);
  }

  /** A status message on stderr (never mixes with --json data). */
  status(message: string): void {
    this.io.stderr.write(`${message}\n`);
  }

  heading(title: string): string {
    return `${this.badge()}${this.c.bold(title)}`;
  }

  /** The environment marker, coloured for `stream` (stdout by default; stderr for status lines). */
  badge(stream: 'stdout' | 'stderr' = 'stdout'): string {
    if (this.marker === undefined) return '';
    const c = stream === 'stdout' ? this.c : this.e;
    // Without colour the marker is still unmistakable in a log or a pipe.
    const host = this.marker === 'live' && this.host ? ` ${this.host}` : '';
    if (c.level === 0) return `[${this.marker.toUpperCase()}${host}] `;
    switch (this.marker) {
      case 'test':
        return `${c.black.bgYellow(' TEST ')} `;
      case 'live':
        return `${c.white.bgRed.bold(` LIVE${host} `)} `;
      case 'emulator':
        return `${c.black.bgCyan(' EMULATOR ')} `;
      default:
        return '';
    }
  }

  kv(pairs: [string, unknown][]): string[] {
    const shown = pairs.filter(([, v]) => v !== undefined);
    const width = Math.max(0, ...shown.map(([k]) => k.length));
    return shown.map(([k, v]) => `  ${this.c.dim(k.padEnd(width))}  ${this.value(v)}`);
  }

  table(columns: string[], rows: unknown[][]): string[] {
    if (rows.length === 0) return [this.c.dim('  (none)')];
    const cells = rows.map((r) => r.map((v) => plain(v)));
    const widths = columns.map((col, i) => Math.max(col.length, ...cells.map((r) => (r[i] ?? '').length)));
    const line = (r: string[]) => `  ${r.map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i]))).join('  ')}`.trimEnd();
    return [this.c.dim(line(columns)), ...cells.map((r) => line(r))];
  }

  /** Status words carry their meaning in colour. */
  statusWord(value: string): string {
    if (/^(completed|paid|active|approved|ok|valid|delivered|succeeded)$/.test(value)) return this.c.green(value);
    if (/^(failed|revoked|dead_letter|expired|invalid)$/.test(value)) return this.c.red(value);
    if (/^(pending|pending_approval|processing|needs_attention|partial)$/.test(value)) return this.c.yellow(value);
    return value;
  }

  private value(v: unknown): string {
    if (v === null) return this.c.dim('—');
    if (typeof v === 'string') return this.statusWord(v);
    return plain(v);
  }

}

function plain(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

const fractionDigits = new Map<string, number>();
/** 1200 USD → "12.00 USD" (the currency's own minor-unit digits). */
export function money(amount: number | null | undefined, currency: string): string {
  if (amount === null || amount === undefined) return 'any amount';
  let digits = fractionDigits.get(currency);
  if (digits === undefined) {
    try {
      digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    } catch {
      digits = 2;
    }
    fractionDigits.set(currency, digits);
  }
  const value = (amount / 10 ** digits).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${value} ${currency}`;
}

/**
 * A readable rendering of a JSON object whose exact shape the command does not fix (control
 * API answers): scalar fields as a key-value block, each array of objects as a table.
 */
export function genericLines(out: Output, data: unknown): string[] {
  if (data === null || typeof data !== 'object') return [`  ${plain(data)}`];
  if (Array.isArray(data)) return objectTable(out, data);
  const lines: string[] = [];
  const scalars: [string, unknown][] = [];
  for (const [k, v] of Object.entries(data)) {
    if (Array.isArray(v) && v.every(isRecord)) {
      lines.push('', out.c.bold(`  ${k}`), ...objectTable(out, v));
    } else scalars.push([k.replace(/_/g, ' '), v]);
  }
  return [...out.kv(scalars), ...lines];
}

function objectTable(out: Output, objects: Record<string, unknown>[]): string[] {
  const columns = [...new Set(objects.flatMap((o) => Object.keys(o).filter((k) => o[k] === null || typeof o[k] !== 'object')))];
  return out.table(
    columns.map((c) => c.toUpperCase()),
    objects.map((o) => columns.map((c) => o[c])),
  );
}
