import type { Rng } from './seeded.js';

// Strings that match a regular expression, for the `pattern`s the OpenAPI documents emit
// (header-safe keys, phone numbers, URLs, dates, currency codes…). It reads the ECMAScript
// subset those patterns use — alternation, groups (capturing or `(?:`), character classes with
// ranges and negation, the escapes \d \w \s \xHH \uHHHH and their negations, `.`, anchors, and
// the quantifiers ? * + {n} {n,} {n,m} (lazy or not) — and refuses anything else by name, so a
// pattern it cannot read fails the test instead of being generated wrongly. Unbounded repeats
// stop after a few extra rounds. The caller checks the result against the pattern anyway.

type Range = [number, number];
type Node =
  | { kind: 'alt'; branches: Node[][] }
  | { kind: 'class'; ranges: Range[]; negated: boolean }
  | { kind: 'repeat'; node: Node; min: number; max: number }
  | { kind: 'empty' };

const DIGIT: Range[] = [[0x30, 0x39]];
const WORD: Range[] = [[0x30, 0x39], [0x41, 0x5a], [0x61, 0x7a], [0x5f, 0x5f]];
const SPACE: Range[] = [[0x09, 0x0d], [0x20, 0x20], [0xa0, 0xa0], [0x1680, 0x1680], [0x2000, 0x200a], [0x2028, 0x2029], [0x202f, 0x202f], [0x205f, 0x205f], [0x3000, 0x3000], [0xfeff, 0xfeff]];
/** What a negated class or `.` draws from: printable ASCII, plus a few letters beyond it. */
const UNIVERSE: Range[] = [[0x20, 0x7e], [0xe9, 0xe9], [0x4e2d, 0x4e2d], [0x1f600, 0x1f600]];

class Parser {
  private i = 0;
  constructor(private readonly src: string) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) this.fail('unexpected ")"');
    return node;
  }

  private fail(why: string): never {
    throw new Error(`regex-gen: ${why} at ${this.i} in /${this.src}/`);
  }

  private alternation(): Node {
    const branches: Node[][] = [this.sequence()];
    while (this.src[this.i] === '|') {
      this.i++;
      branches.push(this.sequence());
    }
    return { kind: 'alt', branches };
  }

  private sequence(): Node[] {
    const items: Node[] = [];
    while (this.i < this.src.length && this.src[this.i] !== '|' && this.src[this.i] !== ')') {
      const atom = this.atom();
      items.push(this.quantified(atom));
    }
    return items;
  }

  private quantified(atom: Node): Node {
    const c = this.src[this.i];
    let min: number;
    let max: number;
    if (c === '?') [min, max] = [0, 1];
    else if (c === '*') [min, max] = [0, Infinity];
    else if (c === '+') [min, max] = [1, Infinity];
    else if (c === '{' && /^\{\d+(,\d*)?\}/.test(this.src.slice(this.i))) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.src.slice(this.i))!;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      this.i += m[0].length - 1;
    } else return atom;
    this.i++;
    if (this.src[this.i] === '?') this.i++; // lazy: same strings
    return { kind: 'repeat', node: atom, min, max };
  }

  private atom(): Node {
    const c = this.src[this.i];
    if (c === '^' || c === '$') {
      this.i++;
      return { kind: 'empty' };
    }
    if (c === '(') {
      this.i++;
      if (this.src.startsWith('?:', this.i)) this.i += 2;
      else if (this.src[this.i] === '?') this.fail('lookarounds and named groups are not supported');
      const inner = this.alternation();
      if (this.src[this.i] !== ')') this.fail('missing ")"');
      this.i++;
      return inner;
    }
    if (c === '[') return this.charClass();
    if (c === '.') {
      this.i++;
      return { kind: 'class', ranges: [[0x0a, 0x0a], [0x0d, 0x0d], [0x2028, 0x2029]], negated: true };
    }
    if (c === '\\') return this.escape(false);
    if (c === '*' || c === '+' || c === '?' || c === ')') this.fail(`unexpected "${c}"`);
    const cp = this.src.codePointAt(this.i)!;
    this.i += cp > 0xffff ? 2 : 1;
    return { kind: 'class', ranges: [[cp, cp]], negated: false };
  }

  /** After a backslash; inside a class `\b` is a backspace and sets cannot be negated here. */
  private escape(inClass: boolean): Node & { kind: 'class' } {
    this.i++;
    const c = this.src[this.i++];
    const set = (ranges: Range[], negated = false) => ({ kind: 'class' as const, ranges, negated });
    const one = (cp: number) => set([[cp, cp]]);
    switch (c) {
      case 'd': return set(DIGIT);
      case 'D': return set(DIGIT, true);
      case 'w': return set(WORD);
      case 'W': return set(WORD, true);
      case 's': return set(SPACE);
      case 'S': return set(SPACE, true);
      case 'n': return one(0x0a);
      case 'r': return one(0x0d);
      case 't': return one(0x09);
      case 'f': return one(0x0c);
      case 'v': return one(0x0b);
      case '0': return one(0);
      case 'x': {
        const hex = this.src.slice(this.i, this.i + 2);
        if (!/^[0-9a-fA-F]{2}$/.test(hex)) this.fail('bad \\x escape');
        this.i += 2;
        return one(parseInt(hex, 16));
      }
      case 'u': {
        const m = /^(?:\{([0-9a-fA-F]+)\}|([0-9a-fA-F]{4}))/.exec(this.src.slice(this.i));
        if (!m) this.fail('bad \\u escape');
        this.i += m[0].length;
        return one(parseInt(m[1] ?? m[2], 16));
      }
      case 'b':
        if (inClass) return one(0x08);
        this.fail('word boundaries are not supported');
      // falls through (fail throws)
      default:
        if (c === undefined) this.fail('trailing backslash');
        if (/[A-Za-z1-9]/.test(c)) this.fail(`unsupported escape \\${c}`);
        return one(c.codePointAt(0)!);
    }
  }

  private charClass(): Node {
    this.i++;
    let negated = false;
    if (this.src[this.i] === '^') {
      negated = true;
      this.i++;
    }
    const ranges: Range[] = [];
    const excluded: Range[] = []; // \S, \D, \W inside a class
    while (this.src[this.i] !== ']') {
      if (this.i >= this.src.length) this.fail('missing "]"');
      let lo: number;
      if (this.src[this.i] === '\\') {
        const esc = this.escape(true);
        if (esc.negated) {
          excluded.push(...esc.ranges);
          continue;
        }
        if (esc.ranges.length !== 1 || esc.ranges[0][0] !== esc.ranges[0][1]) {
          ranges.push(...esc.ranges);
          continue;
        }
        lo = esc.ranges[0][0];
      } else {
        lo = this.src.codePointAt(this.i)!;
        this.i += lo > 0xffff ? 2 : 1;
      }
      if (this.src[this.i] === '-' && this.src[this.i + 1] !== ']' && this.i + 1 < this.src.length) {
        this.i++;
        let hi: number;
        if (this.src[this.i] === '\\') {
          const esc = this.escape(true);
          if (esc.ranges.length !== 1 || esc.ranges[0][0] !== esc.ranges[0][1] || esc.negated) this.fail('a set cannot end a range');
          hi = esc.ranges[0][0];
        } else {
          hi = this.src.codePointAt(this.i)!;
          this.i += hi > 0xffff ? 2 : 1;
        }
        if (hi < lo) this.fail('range out of order');
        ranges.push([lo, hi]);
      } else ranges.push([lo, lo]);
    }
    this.i++;
    if (excluded.length > 0) {
      // [\S…] and the like: everything of the universe that is not excluded, plus the rest.
      if (negated) this.fail('a negated class holding \\S, \\D or \\W is not supported');
      ranges.push(...subtract(UNIVERSE, excluded));
    }
    return { kind: 'class', ranges, negated };
  }
}

/** `from` minus `minus`, as ranges. */
function subtract(from: Range[], minus: Range[]): Range[] {
  let out = from.map((r) => [...r] as Range);
  for (const [mlo, mhi] of minus) {
    out = out.flatMap(([lo, hi]): Range[] => {
      if (mhi < lo || mlo > hi) return [[lo, hi]];
      const parts: Range[] = [];
      if (lo < mlo) parts.push([lo, mlo - 1]);
      if (hi > mhi) parts.push([mhi + 1, hi]);
      return parts;
    });
  }
  return out;
}

function pickCodePoint(ranges: Range[], rng: Rng): number {
  const total = ranges.reduce((n, [lo, hi]) => n + hi - lo + 1, 0);
  if (total === 0) throw new Error('regex-gen: an empty character class matches nothing');
  let k = rng.int(0, total - 1);
  for (const [lo, hi] of ranges) {
    if (k <= hi - lo) return lo + k;
    k -= hi - lo + 1;
  }
  throw new Error('unreachable');
}

function emit(node: Node, rng: Rng, out: string[]): void {
  switch (node.kind) {
    case 'empty':
      return;
    case 'class':
      out.push(String.fromCodePoint(pickCodePoint(node.negated ? subtract(UNIVERSE, node.ranges) : node.ranges, rng)));
      return;
    case 'alt':
      for (const item of rng.pick(node.branches)) emit(item, rng, out);
      return;
    case 'repeat': {
      // Unbounded: a few rounds past the minimum, now and then many more.
      const cap = node.max === Infinity ? node.min + (rng.chance(0.15) ? rng.int(0, 40) : rng.int(0, 6)) : node.max;
      const n = rng.int(node.min, cap);
      for (let k = 0; k < n; k++) emit(node.node, rng, out);
    }
  }
}

const cache = new Map<string, Node>();

/** A string matching `pattern` (an unanchored JSON Schema pattern matches anywhere; we emit the whole). */
export function stringMatching(pattern: string, rng: Rng): string {
  let ast = cache.get(pattern);
  if (!ast) cache.set(pattern, (ast = new Parser(pattern).parse()));
  const out: string[] = [];
  emit(ast, rng, out);
  return out.join('');
}
