import { FixturesError, readFixtures } from '../../../../contract/fixtures.js';
import { UsageError } from '../../errors.js';
import { Output } from '../../output.js';
import type { FlagsOf } from '../../flags.js';
import type { EMULATOR } from './flags.js';
import type { CliIO } from '../../io.js';

// `svc emulator fixtures validate FILE`: the emulator's own check of a fixtures file, without
// starting one (contract/fixtures.ts readFixtures, the check start, exec and the testing API
// run). Every problem is named by its JSON path (merchants[0].keys[1].key: …); exit 2.

/** Reads a fixtures file the way the emulator will; a refused one is a usage error (exit 2), after `name` (--fixtures or SVC_FIXTURES) when given. */
export function checkedFixtures(file: string, name?: string) {
  try {
    return readFixtures(file);
  } catch (err) {
    if (err instanceof FixturesError) throw new UsageError(name ? `${name}: ${err.message}` : err.message);
    throw err;
  }
}

export async function validate([file]: string[], flags: FlagsOf<typeof EMULATOR.fixturesValidate>, io: CliIO): Promise<void> {
  const fixtures = checkedFixtures(file);
  const keys = fixtures.merchants.flatMap((m) => m.keys);
  const summary = { valid: true, file, merchants: fixtures.merchants.length, keys: keys.length, users: fixtures.users.length };
  const out = new Output(io, Boolean(flags.json));
  out.result(summary, `${file} is a valid fixtures file`, () => out.kv([['merchants', summary.merchants], ['keys', summary.keys], ['users', summary.users]]));
}
