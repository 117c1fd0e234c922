// A user-given name (a snapshot's collection, a config profile) looked up in a table: among the
// table's own keys only, so `constructor`, `toString` or `__proto__` never find what every
// object inherits (a function where a schema was expected: a 500; Object.prototype as a profile).

export const ownValue = <T>(table: Readonly<Record<string, T>>, key: string): T | undefined => (Object.hasOwn(table, key) ? table[key] : undefined);
