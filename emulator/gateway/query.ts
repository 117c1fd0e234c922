import type { z } from 'zod';

// How a query string is read before its schema sees it, on every route that takes one (the
// merchant API, the control API and the live stream).
//
// The spec writes its list routes with empty placeholders (`GET /v1/api/payments?status=&before=&limit=`),
// and form serializers and URL builders send unset fields the same way: a parameter given with
// an empty value is read as a parameter not given, so its default applies. Only names the route
// declares are dropped: an unknown name is refused whatever its value (`?stauts=` is a typo the
// client should hear about), and a name given twice stays an error (`?limit=&limit=5` arrives as
// a list, never as an empty value).

/** `query` without the empty values of the parameters `schema` declares. */
export function withoutEmptyParams(query: Record<string, unknown>, schema: z.ZodType): Record<string, unknown> {
  const declared = (schema as { shape?: Record<string, unknown> }).shape;
  if (!declared) return query;
  let out: Record<string, unknown> | undefined;
  for (const [name, value] of Object.entries(query)) {
    if (value !== '' || !Object.hasOwn(declared, name)) continue;
    out ??= { ...query };
    delete out[name];
  }
  return out ?? query;
}
