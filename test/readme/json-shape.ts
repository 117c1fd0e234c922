// The README shows answers with elisions (`…`). These read such an example and compare it with a
// real answer, so an example that names a field the emulator does not send, or leaves one out
// without saying so, fails:
//
// - `…` as an object member (`{"id":"pl_…",…}`): the object has more members than shown;
//   without it, the real object has exactly the members shown;
// - `…` as an array element (`["payments:create",…]`): more elements follow; without it, the
//   real array has exactly the elements shown; shown elements are compared by position;
// - `…` inside a string (`"pl_…"`, `"svc_test_…"`): any text there;
// - every other value is compared exactly, type and value, except the keys the caller names
//   as varying from run to run (`latency_ms`), which are compared by type, and strings the
//   caller compares by shape (digits may differ: timestamps and cursors).

export const MORE = '\u2026more';
const ELLIPSIS = '…';

/** Parses an example with elisions into plain JSON: `…` members become `"…more": true`, `…` elements `"…more"`. */
export function parseElided(text: string): unknown {
  let out = '';
  const stack: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c);
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ELLIPSIS) {
      out += stack[stack.length - 1] === '{' ? `${JSON.stringify(MORE)}:true` : JSON.stringify(MORE);
      continue;
    }
    out += c;
  }
  return JSON.parse(out);
}

export interface ShapeOptions {
  /** Keys whose values differ on every run: compared by JSON type only. */
  varies?: string[];
  /** Keys whose string values are compared by shape: every digit may differ. */
  byShape?: string[];
}

const typeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const shape = (s: string) => s.replace(/\d/g, '0');

/** Where `actual` differs from the example `expected` (parsed by parseElided); empty when it matches. */
export function compareShape(expected: unknown, actual: unknown, options: ShapeOptions = {}, path = '$'): string[] {
  const key = path.slice(path.lastIndexOf('.') + 1);
  if (typeOf(expected) !== typeOf(actual)) return [`${path}: the README shows ${JSON.stringify(expected)}, the real answer has ${JSON.stringify(actual)}`];
  if (options.varies?.includes(key)) return [];
  if (Array.isArray(expected)) {
    const real = actual as unknown[];
    const open = expected.includes(MORE);
    const shown = expected.filter((e) => e !== MORE);
    const diffs = open || shown.length === real.length ? [] : [`${path}: the README shows ${shown.length} elements and no "…", the real answer has ${real.length}`];
    if (real.length < shown.length) return [...diffs, `${path}: the real answer has only ${real.length} elements`];
    return [...diffs, ...shown.flatMap((e, i) => compareShape(e, real[i], options, `${path}[${i}]`))];
  }
  if (typeof expected === 'object' && expected !== null) {
    const real = actual as Record<string, unknown>;
    const shownKeys = Object.keys(expected).filter((k) => k !== MORE);
    const diffs = shownKeys.filter((k) => !(k in real)).map((k) => `${path}.${k}: shown in the README, not in the real answer`);
    if (!(MORE in expected)) diffs.push(...Object.keys(real).filter((k) => !shownKeys.includes(k)).map((k) => `${path}.${k}: in the real answer, missing from the README (no "…" there)`));
    return [...diffs, ...shownKeys.filter((k) => k in real).flatMap((k) => compareShape((expected as Record<string, unknown>)[k], real[k], options, `${path}.${k}`))];
  }
  if (typeof expected === 'string') {
    const real = actual as string;
    const ok = expected.includes(ELLIPSIS)
      ? new RegExp(`^${expected.split(ELLIPSIS).map(escape).join('[\\s\\S]*')}$`).test(real)
      : options.byShape?.includes(key)
        ? shape(expected) === shape(real)
        : expected === real;
    return ok ? [] : [`${path}: the README shows ${JSON.stringify(expected)}, the real answer has ${JSON.stringify(real)}`];
  }
  return expected === actual ? [] : [`${path}: the README shows ${JSON.stringify(expected)}, the real answer has ${JSON.stringify(actual)}`];
}
