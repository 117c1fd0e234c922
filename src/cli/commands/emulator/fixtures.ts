import { readFixtures } from '../../../../contract/fixtures.js';
import { UsageError } from '../../errors.js';
import { Output } from '../../output.js';
import type { CommonFlags } from '../../options.js';
import type { CliIO } from '../../io.js';

// `svc emulator fixtures validate FILE`: the emulator's own check of a fixtures file, without
// starting one. Every problem is named by its JSON path (merchants.0.keys.1.key: …); exit 2.

export async function validate([file]: string[], flags: CommonFlags, io: CliIO): Promise<void> {
  let fixtures;
  try {
    fixtures = readFixtures(file);
  } catch (err) {
    throw new UsageError((err as Error).message.replace(/; /g, '\n  '));
  }
  const keys = fixtures.merchants.flatMap((m) => m.keys);
  const duplicates = [
    ...dupes(fixtures.merchants.map((m) => m.id)).map((id) => `merchant id ${id}`),
    ...dupes(keys.map((k) => k.name)).map((n) => `key name ${n}`),
    ...dupes(keys.map((k) => k.key)).map(() => 'a key secret'),
    ...dupes(fixtures.users.map((u) => u.phone)).map((p) => `user phone ${p}`),
  ];
  if (duplicates.length > 0) throw new UsageError(`fixtures ${file} are invalid: more than one ${duplicates.join(', more than one ')}`);
  const summary = { valid: true, file, merchants: fixtures.merchants.length, keys: keys.length, users: fixtures.users.length };
  const out = new Output(io, Boolean(flags.json));
  out.result(summary, `${file} is a valid fixtures file`, () => out.kv([['merchants', summary.merchants], ['keys', summary.keys], ['users', summary.users]]));
}

function dupes(values: string[]): string[] {
  const seen = new Set<string>();
  return [...new Set(values.filter((v) => (seen.has(v) ? true : (seen.add(v), false))))];
}
