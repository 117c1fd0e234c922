// A small YAML emitter for JSON-shaped data (objects, arrays, strings, numbers, booleans,
// null) — enough for the OpenAPI document, without a YAML dependency. It emits block style,
// which people read more easily than JSON; short lists of scalars go on one line. Strings are
// written plain only when no YAML 1.1 or 1.2 parser could read them as anything else;
// otherwise double-quoted with JSON escapes (a JSON string is a valid YAML double-quoted
// scalar), or as a `|-` block when they span lines.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const PLAIN = /^[A-Za-z_$][A-Za-z0-9_./ $-]*$/;
const RESERVED = /^(true|false|null|yes|no|on|off|y|n|~)$/i;
const FLOW_MAX = 80;

function scalar(value: null | boolean | number | string): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`YAML: cannot emit ${value}`);
    return String(value);
  }
  if (PLAIN.test(value) && !value.endsWith(' ') && !RESERVED.test(value)) return value;
  return quote(value);
}

/**
 * JSON's escaping, plus the characters JSON leaves raw that YAML may not carry raw (DEL, C1
 * controls, the Unicode line and paragraph separators, a BOM).
 */
const YAML_UNSAFE = /[\u007f-\u009f\u2028\u2029\ufeff]/;
const quote = (value: string) => JSON.stringify(value).replace(new RegExp(YAML_UNSAFE, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const isScalar = (v: Json): v is null | boolean | number | string => v === null || typeof v !== 'object';
const isEmpty = (v: Json) => (Array.isArray(v) ? v.length === 0 : v !== null && typeof v === 'object' && Object.keys(v).length === 0);

/**
 * A multi-line string as a `|-` block, when it survives one exactly: no trailing spaces or
 * tabs, no leading whitespace on the first line, no final newline (`-` would strip it).
 */
function block(value: string, indent: string): string[] | undefined {
  if (!value.includes('\n') || value.endsWith('\n') || YAML_UNSAFE.test(value) || /^\s/.test(value) || /[ \t]\n|[ \t]$/.test(value) || /[\r\t]/.test(value)) return undefined;
  return ['|-', ...value.split('\n').map((line) => (line === '' ? '' : indent + line))];
}

/** The text after `key:` or `-` when the value fits on that line; undefined when it nests. */
function inline(value: Json): string | undefined {
  if (isScalar(value)) return scalar(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    if (value.every(isScalar)) {
      const flow = `[${value.map((v) => scalar(v as null | boolean | number | string)).join(', ')}]`;
      if (flow.length <= FLOW_MAX) return flow;
    }
    return undefined;
  }
  return isEmpty(value) ? '{}' : undefined;
}

function emit(value: Json, indent: string, out: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = inline(item);
      if (text !== undefined) {
        out.push(`${indent}- ${text}`);
        continue;
      }
      // The first line of the nested block goes after "- ", the rest line up under it.
      const nested: string[] = [];
      emit(item, `${indent}  `, nested);
      out.push(`${indent}- ${nested[0].slice(indent.length + 2)}`, ...nested.slice(1));
    }
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, Json>)) {
    const k = scalar(key);
    const lines = typeof item === 'string' ? block(item, `${indent}  `) : undefined;
    if (lines) {
      out.push(`${indent}${k}: ${lines[0]}`, ...lines.slice(1));
      continue;
    }
    const text = inline(item);
    if (text !== undefined) out.push(`${indent}${k}: ${text}`);
    else {
      out.push(`${indent}${k}:`);
      emit(item, Array.isArray(item) ? indent : `${indent}  `, out);
    }
  }
}

export function toYaml(value: unknown): string {
  const json = JSON.parse(JSON.stringify(value)) as Json; // drops undefined, as JSON would
  const text = inline(json);
  if (text !== undefined) return `${text}\n`;
  const out: string[] = [];
  emit(json, '', out);
  return `${out.join('\n')}\n`;
}
