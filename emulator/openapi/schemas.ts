import { z } from 'zod';

// zod → JSON Schema (2020-12, the dialect of OpenAPI 3.1) with shared schemas lifted into
// `components.schemas`. Every schema declared with `.meta({ id })` becomes one component
// that operations `$ref`; the rest is inlined. Request schemas are converted as zod *input*
// (what a client sends: coerced query numbers, defaults optional), responses as *output*.

export type JsonSchema = { [key: string]: unknown };
type Io = 'input' | 'output';

const REF_PREFIX = '#/components/schemas/';

export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};

  /** The JSON Schema of `schema`; its `.meta({id})` parts land in `schemas`. */
  convert(schema: z.ZodType, io: Io): JsonSchema {
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    delete json.$defs;
    delete json.$schema;
    // The same id can differ between input and output (a default, a coercion): the second
    // shape gets its own component name rather than overwriting the first.
    const names = new Map(Object.keys(defs).map((id) => [id, id]));
    for (const [id, def] of Object.entries(defs)) {
      const existing = this.schemas[id];
      if (existing && JSON.stringify(existing) !== JSON.stringify(tidy(def, names))) names.set(id, `${id}${io === 'input' ? 'Input' : 'Output'}`);
    }
    for (const [id, def] of Object.entries(defs)) this.schemas[names.get(id)!] = tidy(def, names);
    return tidy(json, names);
  }

  /**
   * The object schema behind a query or path schema, for listing its properties as
   * parameters. Its own component is dropped again: parameters replace it.
   */
  convertObject(schema: z.ZodType, io: Io): JsonSchema {
    const before = new Set(Object.keys(this.schemas));
    const json = this.convert(schema, io);
    const ref = typeof json.$ref === 'string' && json.$ref.startsWith(REF_PREFIX) ? json.$ref.slice(REF_PREFIX.length) : undefined;
    if (!ref) return json;
    const target = this.schemas[ref];
    if (!before.has(ref)) delete this.schemas[ref];
    return target;
  }
}

/**
 * An `anyOf` branch that only constrains (`{ required: ['by'] }`, `{ minimum: 0, maximum: 99 }`)
 * is `unknown` to client generators (openapi-typescript), and `unknown` swallows the union: each
 * such branch gets its schema's type and the schemas of the properties it requires.
 */
function typedBranch(branch: JsonSchema, of: JsonSchema): JsonSchema {
  if (branch.type !== undefined || branch.$ref !== undefined || of.type === undefined) return branch;
  const required: unknown[] = Array.isArray(branch.required) ? branch.required : [];
  const own = Object.entries(of.properties ?? {}).filter(([name]) => required.includes(name));
  return { type: of.type, ...branch, ...(own.length > 0 && { properties: { ...Object.fromEntries(own), ...(branch.properties ?? {}) } }) };
}

/**
 * Rewrites `#/$defs/X` to component refs and `example` (deprecated in OpenAPI 3.1's
 * dialect) to `examples`, and types constraint-only `anyOf` branches, recursively; returns a new object.
 */
function tidy(value: JsonSchema, names: Map<string, string>): JsonSchema {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out: JsonSchema = {};
    for (const [k, child] of Object.entries(v)) {
      if (k === '$ref' && typeof child === 'string' && child.startsWith('#/$defs/')) out.$ref = REF_PREFIX + (names.get(child.slice(8)) ?? child.slice(8));
      else if (k === 'example') out.examples = [child];
      else out[k] = walk(child);
    }
    if (Array.isArray(out.anyOf)) out.anyOf = out.anyOf.map((branch: JsonSchema) => typedBranch(branch, out));
    return out;
  };
  return walk(value) as JsonSchema;
}
