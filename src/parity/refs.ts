// Back-references in scenario data. `${link:id}` is `data.id` in the answer of the step named
// `link`; `${link@x-trace-id}` a header of that answer; `${var:payee_id}` a host input;
// `${run}` this run's nonce (idempotency keys and references unique per run, since a host keeps
// keys for 24 h); `${webhook:url}` the public URL of the local receiver. A string that is one
// reference alone takes the referenced value's JSON type (a number stays a number).

export interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: unknown;
}

export interface RefContext {
  run: string;
  vars: Record<string, string>;
  webhookUrl?: string;
  answers: Map<string, Answer>;
}

export class Unresolved extends Error {}

const REF = /\$\{([^}]+)\}/g;

/** `payments[*].created_at`, `payments[-1].id`, `endpoint.secret`: the values at a path (several for [*]). */
export function valuesAt(root: unknown, path: string): unknown[] {
  let current: unknown[] = [root];
  if (path === '' || path === '.') return current;
  for (const part of path.split('.').flatMap((p) => p.split(/(?=\[)/))) {
    const next: unknown[] = [];
    for (const value of current) {
      const index = /^\[(\*|-?\d+)\]$/.exec(part);
      if (index) {
        if (!Array.isArray(value)) continue;
        if (index[1] === '*') next.push(...value);
        else {
          const i = Number(index[1]);
          const item = value[i < 0 ? value.length + i : i];
          if (item !== undefined) next.push(item);
        }
      } else if (value !== null && typeof value === 'object' && part in value) {
        next.push((value as Record<string, unknown>)[part]);
      }
    }
    current = next;
  }
  return current;
}

/** The `data` of a success envelope (what references point into), else the whole body. */
export const dataOf = (answer: Answer): unknown => {
  const body = answer.json as { success?: unknown; data?: unknown } | undefined;
  return body && typeof body === 'object' && body.success === true ? body.data : answer.json;
};

function resolveOne(ref: string, ctx: RefContext): unknown {
  if (ref === 'run') return ctx.run;
  if (ref === 'webhook:url') {
    if (!ctx.webhookUrl) throw new Unresolved('no webhook URL');
    return ctx.webhookUrl;
  }
  if (ref.startsWith('var:')) {
    const value = ctx.vars[ref.slice(4)];
    if (value === undefined) throw new Unresolved(`no value for ${ref}`);
    // --var values are text; one that is digits alone stands for a number (an amount).
    return /^\d{1,15}$/.test(value) ? Number(value) : value;
  }
  const header = /^([\w-]+)@([\w-]+)$/.exec(ref);
  if (header) {
    const answer = ctx.answers.get(header[1]);
    const value = answer?.headers[header[2].toLowerCase()];
    if (value === undefined) throw new Unresolved(`\${${ref}}: step ${header[1]} has no ${header[2]} header`);
    return value;
  }
  const m = /^([\w-]+):(.*)$/.exec(ref);
  if (!m) throw new Error(`bad reference \${${ref}}`);
  const answer = ctx.answers.get(m[1]);
  if (!answer) throw new Unresolved(`\${${ref}}: step ${m[1]} has no answer`);
  const [value] = valuesAt(dataOf(answer), m[2]);
  if (value === undefined) throw new Unresolved(`\${${ref}}: the answer of step ${m[1]} (HTTP ${answer.status}) has no ${m[2]}`);
  // A reference stands for one value (an id, an amount): an object or array there is a host
  // answering another shape (and turning one of thousands of levels into text would overflow the stack).
  if (value !== null && typeof value === 'object') throw new Unresolved(`\${${ref}}: the answer of step ${m[1]} has ${Array.isArray(value) ? 'an array' : 'an object'} at ${m[2]}, not a value`);
  return value;
}

/** Every reference in `value` (deeply) replaced by what it names; Unresolved when one cannot be. */
export function resolve(value: unknown, ctx: RefContext): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([^}]+)\}$/.exec(value);
    if (whole) return resolveOne(whole[1], ctx);
    return value.replace(REF, (_, ref: string) => String(resolveOne(ref, ctx)));
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, ctx));
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, ctx)]));
  return value;
}

export const resolveString = (value: string, ctx: RefContext): string => String(resolve(value, ctx));

/** The `${var:…}` names a piece of scenario data uses. */
export function varsIn(value: unknown): string[] {
  const text = JSON.stringify(value) ?? '';
  return [...text.matchAll(/\$\{var:([\w-]+)\}/g)].map((m) => m[1]);
}
