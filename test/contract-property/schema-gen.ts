import type { Rng } from './seeded.js';
import { stringMatching } from './regex-gen.js';

// Random values that a JSON Schema (OpenAPI 3.1's dialect) accepts, read from a served document:
// types (and type lists), const, enum, $ref, anyOf/oneOf, objects (required always, optional
// properties half the time, additionalProperties), arrays (minItems/maxItems, uniqueItems),
// strings (minLength/maxLength, pattern, the formats date-time, date, email, uri), integers and
// numbers (minimum/maximum, exclusive bounds), booleans and null, the `false` schema (a property
// that must be absent), and an object's own anyOf (one branch's properties are laid over the
// object's). Lengths and numbers land on their bounds now and then, where off-by-one rules hide.
// Besides JSON Schema it honours the document's own extensions for rules JSON Schema cannot
// state: `x-max-json-length` (the most characters a value may take once serialized) and
// `x-unique-item-properties` (fields no two items of an array may share), `x-at-most-field`
// (a number at most a sibling's value, or the sibling's default when it is absent) and `x-luhn`
// (the digits of a card number pass the Luhn checksum). Conditions
// between fields (allOf, if/then/else, not, dependentRequired, dependentSchemas) are not drawn
// from: the caller checks every value with a real validator (Ajv) and draws again when one
// fails, so they hold by rejection. Anything else that constrains a value is refused by name,
// so the generator never silently ignores a rule.

export type Schema = { [key: string]: unknown };

/** Keywords that only describe; they never constrain a value. */
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'example', 'default', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'format']);
/** Keywords this generator acts on. */
/** Conditions between fields: left to the caller's validator (a draw that breaks one is drawn again). */
const BY_REJECTION = new Set(['allOf', 'if', 'then', 'else', 'not', 'dependentRequired', 'dependentSchemas']);
/** Keywords this generator acts on. */
const HANDLED = new Set([
  '$ref', 'type', 'const', 'enum', 'anyOf', 'oneOf', 'properties', 'required', 'additionalProperties', 'items', 'minItems', 'maxItems', 'uniqueItems',
  'minLength', 'maxLength', 'pattern', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'propertyNames', 'x-max-json-length', 'x-unique-item-properties', 'x-at-most-field', 'x-luhn',
]);

export interface GenOptions {
  rng: Rng;
  /** Resolves `#/components/schemas/X`. */
  resolve(ref: string): Schema;
  /** A value for a named property (an id from a pool, say), or undefined to generate one. */
  override?(name: string, schema: Schema): unknown;
}

const PRINTABLE = ' !"#$%&\'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~';
/** Beyond ASCII: accented, CJK, an astral emoji (two UTF-16 units, one code point). */
const WIDE = ['é', 'ß', '中', '😀', 'ñ'];

export function generate(schema: Schema, opts: GenOptions, depth = 0): unknown {
  if (depth > 12) throw new Error('schema-gen: nesting too deep (a recursive schema?)');
  for (const key of Object.keys(schema)) {
    if (!HANDLED.has(key) && !ANNOTATIONS.has(key) && !BY_REJECTION.has(key) && !key.startsWith('x-')) throw new Error(`schema-gen: keyword "${key}" is not supported (in ${JSON.stringify(schema).slice(0, 200)})`);
  }
  const { rng } = opts;
  if (typeof schema.$ref === 'string') return generate(opts.resolve(schema.$ref), opts, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  const branches = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  // An object with its own branches (a body whose fields depend on one another): one branch's
  // required fields and properties laid over the object's.
  if (branches && schema.type === 'object' && schema.properties) {
    const { anyOf: _a, oneOf: _o, ...base } = schema;
    const branch = rng.pick(branches);
    const props = { ...(base.properties as Record<string, Schema>) };
    for (const [name, s] of Object.entries((branch.properties ?? {}) as Record<string, Schema | boolean>)) props[name] = s === false ? (false as unknown as Schema) : { ...props[name], ...(s as Schema) };
    const required = [...((base.required ?? []) as string[]), ...((branch.required ?? []) as string[])];
    return object({ ...base, properties: props, required }, opts, depth);
  }
  // Branches beside other keywords (a description, a default): the branch with those around it.
  if (branches) {
    const { anyOf: _a, oneOf: _o, ...around } = schema;
    return generate({ ...around, ...rng.pick(branches) }, opts, depth + 1);
  }
  let type = schema.type as string | string[] | undefined;
  if (Array.isArray(type)) type = rng.pick(type);
  if (type === undefined) type = rng.pick(['string', 'integer', 'boolean', 'object', 'array', 'null']);
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return rng.chance(0.5);
    case 'integer':
    case 'number':
      return number(schema, type, rng);
    case 'string':
      return string(schema, rng);
    case 'array':
      return array(schema, opts, depth);
    case 'object':
      return object(schema, opts, depth);
    default:
      throw new Error(`schema-gen: unknown type ${type}`);
  }
}

function number(schema: Schema, type: string, rng: Rng): number {
  const int = type === 'integer';
  let lo = typeof schema.minimum === 'number' ? schema.minimum : -1_000_000;
  let hi = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
  if (typeof schema.exclusiveMinimum === 'number') lo = int ? Math.floor(schema.exclusiveMinimum) + 1 : schema.exclusiveMinimum + 1e-6;
  if (typeof schema.exclusiveMaximum === 'number') hi = int ? Math.ceil(schema.exclusiveMaximum) - 1 : schema.exclusiveMaximum - 1e-6;
  if (int) {
    lo = Math.ceil(lo);
    hi = Math.floor(hi);
  }
  if (lo > hi) throw new Error(`schema-gen: empty range ${lo}..${hi}`);
  const roll = rng.next();
  if (roll < 0.1) return lo;
  if (roll < 0.2) return hi;
  // Small values are the common case; the rest spread over the whole range.
  if (roll < 0.6 && lo <= 1000 && hi >= 1) return int ? rng.int(Math.max(lo, 1), Math.min(hi, 1000)) : Math.max(lo, Math.min(hi, rng.next() * 1000));
  return int ? rng.int(lo, hi) : lo + rng.next() * (hi - lo);
}

const codePoints = (s: string) => [...s].length;

function string(schema: Schema, rng: Rng): string {
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const pattern = typeof schema.pattern === 'string' ? schema.pattern : undefined;
  const fits = (s: string) => codePoints(s) >= min && codePoints(s) <= max && (pattern === undefined || new RegExp(pattern, 'u').test(s));
  for (let tries = 0; tries < 200; tries++) {
    let s = candidate(schema, min, max, pattern, rng);
    if (schema['x-luhn'] === true) s = withLuhnDigit(s);
    if (fits(s)) return s;
  }
  throw new Error(`schema-gen: no string of ${min}..${max} characters matching ${pattern ?? schema.format} after 200 tries`);
}

function candidate(schema: Schema, min: number, max: number, pattern: string | undefined, rng: Rng): string {
  // An anchored pattern says the whole string; an unanchored one only what it must contain.
  if (pattern?.startsWith('^') && pattern.endsWith('$')) return stringMatching(pattern, rng);
  const formatted = byFormat(schema.format, rng);
  if (formatted !== undefined) return formatted;
  const roll = rng.next();
  const top = Number.isFinite(max) ? max : min + 40;
  const length = roll < 0.1 ? min : roll < 0.2 && max <= 5000 ? top : rng.int(min, Math.min(top, min + 24));
  let s = '';
  for (let k = 0; k < length; k++) s += rng.chance(0.08) ? rng.pick(WIDE) : PRINTABLE[rng.int(0, PRINTABLE.length - 1)];
  if (pattern !== undefined && !new RegExp(pattern, 'u').test(s)) {
    // Put a match of the pattern somewhere inside, then trim back to the bounds.
    const part = stringMatching(pattern, rng);
    const chars = [...s];
    const at = rng.int(0, chars.length);
    chars.splice(at, Math.min(codePoints(part), chars.length - at), part);
    s = chars.join('');
  }
  return s;
}

/** `s` with its last digit replaced by the Luhn check digit of the digits before it. */
function withLuhnDigit(s: string): string {
  const at = s.search(/[0-9][^0-9]*$/);
  if (at < 0) return s;
  const body = s.slice(0, at).replace(/[^0-9]/g, '');
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    // Counting from the check digit (position 0), every second digit is doubled.
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return `${s.slice(0, at)}${(10 - (sum % 10)) % 10}${s.slice(at + 1)}`;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function byFormat(format: unknown, rng: Rng): string | undefined {
  const date = () => `${pad(rng.int(1970, 2100), 4)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
  switch (format) {
    case 'date':
      return date();
    case 'date-time':
      return `${date()}T${pad(rng.int(0, 23))}:${pad(rng.int(0, 59))}:${pad(rng.int(0, 59))}Z`;
    case 'email':
      return `u${rng.int(0, 1e6)}@example.com`;
    case 'uri':
      return `https://example.com/${rng.int(0, 1e6)}`;
    default:
      return undefined;
  }
}

function array(schema: Schema, opts: GenOptions, depth: number): unknown[] {
  const { rng } = opts;
  const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const max = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const items = (schema.items ?? {}) as Schema;
  const n = rng.chance(0.1) ? min : rng.int(min, Math.min(max, min + 5));
  const out: unknown[] = [];
  const seen = new Set<string>();
  const uniqueBy = schema['x-unique-item-properties'] as string[] | undefined;
  for (let tries = 0; out.length < n && tries < n * 50 + 50; tries++) {
    const v = generate(items, opts, depth + 1);
    const keys = [...(schema.uniqueItems === true ? [JSON.stringify(v)] : []), ...(uniqueBy ?? []).map((p) => `${p}=${JSON.stringify(trimmed((v as Record<string, unknown>)[p]))}`)];
    if (keys.some((k) => seen.has(k))) continue;
    keys.forEach((k) => seen.add(k));
    out.push(v);
  }
  if (out.length < min) throw new Error(`schema-gen: could not make ${min} distinct items`);
  return out;
}

/** Text fields are compared as the server keeps them: trimmed. */
const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);

function object(schema: Schema, opts: GenOptions, depth: number): Record<string, unknown> {
  const { rng } = opts;
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  // Free-form keys follow propertyNames (a string schema: pattern, lengths).
  const names = (schema.propertyNames ?? { type: 'string', minLength: 1, maxLength: 12 }) as Schema;
  if (names.type !== 'string') throw new Error(`schema-gen: propertyNames ${JSON.stringify(names)} is not supported`);
  const required = new Set((schema.required ?? []) as string[]);
  const out: Record<string, unknown> = {};
  for (const [name, prop] of Object.entries(props)) {
    if ((prop as unknown) === false) continue; // the false schema: this property must be absent
    if (!required.has(name) && !rng.chance(0.5)) continue;
    const chosen = opts.override?.(name, prop);
    out[name] = chosen === undefined ? generate(prop, opts, depth + 1) : chosen;
  }
  const extra = schema.additionalProperties;
  if (extra !== undefined && extra !== false) {
    // Free-form members (metadata): a few keys with any JSON, nested a little.
    const valueSchema = extra === true ? {} : (extra as Schema);
    const count = rng.int(0, 4);
    for (let k = 0; k < count; k++) {
      const key = string({ minLength: 1, maxLength: 12, ...names }, rng);
      if (!(key in props)) out[key] = Object.keys(valueSchema).length === 0 ? anyJson(rng, depth + 1) : generate(valueSchema, opts, depth + 1);
    }
  }
  // x-at-most-field: a number no greater than the named sibling; either one, when absent, counts
  // as its default (an absent field whose default is too big is sent, at the bound).
  for (const [name, prop] of Object.entries(props)) {
    const other = (prop as Schema | false) && (prop as Schema)['x-at-most-field'];
    if (typeof other !== 'string') continue;
    const bound = typeof out[other] === 'number' ? (out[other] as number) : (props[other] as Schema | undefined)?.default;
    const value = typeof out[name] === 'number' ? (out[name] as number) : (prop as Schema).default;
    if (typeof bound === 'number' && typeof value === 'number' && value > bound) out[name] = bound;
  }
  const limit = schema['x-max-json-length'];
  if (typeof limit === 'number') {
    // Drop free-form members until the serialization fits (declared properties stay).
    for (const key of Object.keys(out).reverse()) {
      if (JSON.stringify(out).length <= limit) break;
      if (!(key in props)) delete out[key];
    }
  }
  return out;
}

function anyJson(rng: Rng, depth: number): unknown {
  const kind = depth > 3 ? rng.int(0, 3) : rng.int(0, 5);
  switch (kind) {
    case 0: return null;
    case 1: return rng.chance(0.5);
    case 2: return rng.int(-1e6, 1e6);
    case 3: return string({ maxLength: rng.chance(0.05) ? 3000 : 30 }, rng);
    case 4: return Array.from({ length: rng.int(0, 3) }, () => anyJson(rng, depth + 1));
    default: return Object.fromEntries(Array.from({ length: rng.int(0, 3) }, (_, i) => [`k${i}`, anyJson(rng, depth + 1)]));
  }
}
