import type { FixtureFile } from './fixtures.js';
import { jsonPath } from './json-path.js';
import { MAX_MONEY } from './money.js';

// What a fixtures file's shape (contract/fixtures.ts) cannot say, each problem named by the
// JSON paths of every place involved. Without these, seeding would go ahead and one record
// would silently replace another: a key secret held twice authenticates as whichever merchant
// was seeded last, a key name held twice (its id is key_<name>) drops the first key, an id held
// twice keeps the second record only.

type Path = (string | number)[];

export function fixtureRuleProblems(f: FixtureFile): string[] {
  const problems: string[] = [];
  const unique = new Uniques(problems);
  f.merchants.forEach((m, mi) => {
    const at: Path = ['merchants', mi];
    unique.check('merchant id', m.id, [...at, 'id']);
    m.keys.forEach((k, ki) => {
      const key: Path = [...at, 'keys', ki];
      unique.check('key name', k.name, [...key, 'name']);
      unique.check('key secret', k.key, [...key, 'key'], 'the same secret');
      if (!k.key.startsWith(`svc_${k.environment}_`)) problems.push(`${jsonPath([...key, 'key'])}: a ${k.environment} key must start with svc_${k.environment}_ (${jsonPath([...key, 'environment'])})`);
    });
    m.payees.forEach((p, i) => unique.check('payee id', p.id, [...at, 'payees', i, 'id']));
    m.gift_card_wallets.forEach((g, i) => unique.check('gift-card wallet id', g.id, [...at, 'gift_card_wallets', i, 'id']));
    m.fleet_cards.forEach((c, i) => unique.check('fleet card id', c.id, [...at, 'fleet_cards', i, 'id']));
    // Two entries for one wallet are two opening entries: their sum must stay a safe balance.
    const sums = new Map<string, { total: number; paths: Path[] }>();
    m.wallets.forEach((w, i) => {
      const name = `${w.environment} ${w.currency}`;
      const sum = sums.get(name) ?? { total: 0, paths: [] };
      sum.total += w.balance;
      sum.paths.push([...at, 'wallets', i, 'balance']);
      sums.set(name, sum);
      if (sum.total > MAX_MONEY) problems.push(`${jsonPath(sum.paths.at(-1)!)}: the ${name} wallet of ${m.id} would open with ${sum.paths.map(jsonPath).join(' + ')} = ${sum.total}, past the largest balance ${MAX_MONEY}`);
    });
  });
  // As a restored world must (contract/records/index.ts): without a key nothing could call the API.
  if (!f.merchants.some((m) => m.keys.some((k) => !k.revoked))) {
    problems.push(`${jsonPath(['merchants'])}: the fixtures would leave no API key (no merchant with a key that is not revoked), so nothing could call the API`);
  }
  f.users.forEach((u, i) => {
    unique.check('user id', u.id, ['users', i, 'id']);
    unique.check('user phone', u.phone.replace(/[\s.()-]/g, ''), ['users', i, 'phone']);
  });
  return problems;
}

/** Remembers where each value was first seen, per kind; a second sighting names both places. */
class Uniques {
  private readonly seen = new Map<string, Path>();
  constructor(private readonly problems: string[]) {}

  check(kind: string, value: string, path: Path, sameness = `the same ${kind}`): void {
    const first = this.seen.get(`${kind}\0${value}`);
    if (!first) {
      this.seen.set(`${kind}\0${value}`, path);
      return;
    }
    const shown = kind === 'key secret' ? '' : ` ${JSON.stringify(value)}`;
    this.problems.push(`${jsonPath(path)}: ${sameness}${shown} as ${jsonPath(first)} (each ${kind} must be unique)`);
  }
}
