import { collection, type Collection } from '../../emulator/store/collection.js';
import type { StoredRecord } from '../../emulator/store/store.js';

// Store tests write to collections of their own ('things'); the emulator's are typed handles
// (emulator/store/collection.ts). This names an ad-hoc one, the same handle for the same name.
const made = new Map<string, Collection<StoredRecord>>();
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const named = (name: string): Collection<any, never> => {
  let c = made.get(name);
  if (!c) made.set(name, (c = collection<StoredRecord>()(name)));
  return c;
};
