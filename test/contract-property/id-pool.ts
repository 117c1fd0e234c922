import type { Rng } from './seeded.js';

// Ids the server handed out (every `id` and `…_id` string in the fixtures and in a 2xx
// answer), each filed under its kind: `payee_id` is a payee, the `id` of an object under
// `mandate` or of an item of `payees` is a mandate or a payee. A random id names nothing, so a
// request built only from random ids stops at the lookup (404) and never reaches the rules
// behind it; drawing an id of the right kind half the time lets the property test reach them.
// Ids differ from run to run, so a replayed seed draws the same bodies but maybe other ids;
// a failure prints the request it sent.

const singular = (word: string) => word.replace(/ies$/, 'y').replace(/s$/, '').replace(/-/g, '_');

export class IdPool {
  private readonly byKind = new Map<string, Set<string>>();

  /** Files the ids in `json`; `rootKind` is the kind of the answer's own `data.id`. */
  collect(json: unknown, rootKind = ''): void {
    const walk = (v: unknown, key: string, parent: string) => {
      if (parent === 'data' && key === 'id' && rootKind) parent = rootKind;
      if (Array.isArray(v)) v.forEach((x) => walk(x, key, parent));
      else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, k, key);
      else if (typeof v === 'string' && v !== '') {
        const kind = key === 'id' ? singular(parent) : /_id$/.test(key) ? key.slice(0, -3) : undefined;
        if (kind !== undefined) (this.byKind.get(kind) ?? this.byKind.set(kind, new Set()).get(kind)!).add(v);
      }
    };
    walk(json, '', '');
  }

  /**
   * Half the time an id: of `kind` when the pool has one (`payee` for payee_id, the path's
   * resource for a path id), else of any kind; undefined means "generate one".
   */
  draw(kind: string, rng: Rng): string | undefined {
    if (!rng.chance(0.5)) return undefined;
    const exact = [...(this.byKind.get(singular(kind)) ?? [])];
    const candidates = exact.length > 0 && rng.chance(0.9) ? exact : [...this.byKind.values()].flatMap((s) => [...s]);
    return candidates.length > 0 ? rng.pick(candidates) : undefined;
  }
}

/** The spec's "merchant wallet" is what the fixtures and the control API call a gift-card wallet. */
const ALIASES: Record<string, string> = { merchant_wallet: 'gift_card_wallet' };

/** The kind of an id field (`payee_id` → payee) or of a path's id (`/v1/api/payouts/{id}` → payout). */
export function idKind(name: string, path: string): string {
  if (name !== 'id') {
    const kind = name.replace(/_id$/, '');
    return ALIASES[kind] ?? kind;
  }
  return singular(path.split('/{id}')[0].split('/').pop() ?? '');
}

/** What a route's answer is (`POST /v1/api/sub-merchants/complete` → sub_merchant): its last plural segment. */
export function answerKind(path: string): string {
  const nouns = path.split('/').filter((s) => s && !s.startsWith('{') && /s$/.test(s) && s !== 'status');
  return singular(nouns.pop() ?? '');
}
