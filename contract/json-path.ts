// A place in a JSON document as people write it: merchants[1].keys[0].key,
// collections.wallets[3].balance. Fixtures and world snapshots name their problems this way, so
// a refusal points at the line of the file to change.

/** Whether a value is an object whose fields can be read by name (an array too: its indexes are names). */
export const isRecord = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object';

export function jsonPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_$][\w$]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out || '(the whole document)';
}

/** A value as a problem quotes it: JSON where it has one ("1e3", 1152921504606847000, null), else its type. */
export function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  try {
    return JSON.stringify(value) ?? typeof value;
  } catch {
    return typeof value;
  }
}
