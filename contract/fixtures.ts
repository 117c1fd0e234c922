import { readFileSync } from 'node:fs';
import { parseWorldJson } from './world-json.js';
import { z } from 'zod';
import { SCOPES } from './scopes.js';
import { KEY_PATTERN } from './keys.js';
import { Balance } from './money.js';
import { jsonPath } from './json-path.js';
import { fixtureRuleProblems } from './fixtures-rules.js';
import { messageOf } from './errors.js';

// The fixtures format: what seeds a fresh data dir (merchants and their keys, service users,
// payees, cards, balances). The emulator seeds from it; `svc emulator fixtures validate` and the
// JSON Schema shipped as fixtures/fixtures.schema.json check files against the same shape.

const Env = z.enum(['test', 'live']);
// Balances and caps: non-negative safe integers, the bound every balance change keeps (emulator/money.ts).
const Minor = Balance;

const FixtureKey = z.strictObject({
  name: z.string(),
  key: z.string().regex(KEY_PATTERN, 'must look like svc_test_… or svc_live_… with 16+ letters and digits'),
  environment: Env,
  scopes: z.union([z.literal('all'), z.array(z.enum(SCOPES))]),
  revoked: z.boolean().optional(),
  station_location_id: z.string().optional(),
});

const FixtureMerchant = z.strictObject({
  id: z.string(),
  name: z.string(),
  business: z.boolean(),
  owner_phone: z.string(),
  owner_pin: z.string().regex(/^\d{4,6}$/),
  keys: z.array(FixtureKey),
  wallets: z.array(z.strictObject({ environment: Env, currency: z.enum(['USD', 'LRD']), balance: Minor })).default([]),
  payees: z
    .array(
      z.strictObject({
        id: z.string(),
        environment: Env,
        name: z.string(),
        currency: z.enum(['USD', 'LRD']),
        per_payout_cap: Minor,
        daily_cap: Minor,
        status: z.enum(['pending_approval', 'approved', 'revoked']),
      }),
    )
    .default([]),
  gift_card_wallets: z
    .array(z.strictObject({ id: z.string(), environment: Env, currency: z.enum(['USD', 'LRD']), balance: Minor, holder_phone: z.string().optional() }))
    .default([]),
  fleet_cards: z
    .array(
      z.strictObject({
        id: z.string(),
        environment: Env,
        status: z.enum(['active', 'inactive']),
        allowed_categories: z.array(z.string()),
        balance: Minor,
        spend_limit: Minor,
        spend_period: z.enum(['daily', 'weekly', 'monthly']),
        currency: z.enum(['USD', 'LRD']),
      }),
    )
    .default([]),
});

export const FixtureFile = z.object({
  $comment: z.string().optional(),
  merchants: z.array(FixtureMerchant),
  users: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      phone: z.string(),
      pin: z.string().regex(/^\d{4,6}$/),
      wallets: z.record(z.enum(['USD', 'LRD']), Minor),
    }),
  ),
});
export type FixtureFile = z.infer<typeof FixtureFile>;

/** A fixtures file that cannot seed an emulator; `problems` name their JSON paths. */
export class FixturesError extends Error {
  constructor(
    readonly file: string,
    readonly problems: readonly string[],
  ) {
    super(`fixtures ${file} are invalid:\n  ${problems.join('\n  ')}`);
    this.name = 'FixturesError';
  }
}

/**
 * The one check of a fixtures file: `svc emulator start|exec --fixtures`, the testing API's
 * startEmulator({ fixtures }) and `svc emulator fixtures validate` all read files through here
 * (emulator/server.ts reads them before it opens a data dir, so a refused file starts nothing
 * and locks nothing). Shape first (zod), then what the shape cannot say (fixtures-rules.ts).
 * `read` gives the text of a file that is not on disk (the executable's bundled fixtures).
 */
export function readFixtures(path: string, read: () => string = () => readFileSync(path, 'utf8')): FixtureFile {
  let raw: unknown;
  try {
    raw = parseWorldJson(read());
  } catch (err) {
    throw new FixturesError(path, [`cannot read the file: ${messageOf(err)}`]);
  }
  const checked = checkFixtures(raw);
  if ('problems' in checked) throw new FixturesError(path, checked.problems);
  return checked.fixtures;
}

function checkFixtures(raw: unknown): { fixtures: FixtureFile } | { problems: string[] } {
  const parsed = FixtureFile.safeParse(raw);
  if (!parsed.success) return { problems: parsed.error.issues.map((i) => `${jsonPath(i.path)}: ${i.message}`) };
  const problems = fixtureRuleProblems(parsed.data);
  return problems.length > 0 ? { problems } : { fixtures: parsed.data };
}
