import { jsonPath } from '../json-path.js';

// The ledger rule of a world (worldProblems): every balance is the sum of its own ledger, and
// no ledger entry is for a wallet that is not there. The emulator keeps it on every write
// (each balance change is an entry, opening balances included: test/emulator/
// wallets-invariant.test.ts); a world from outside that breaks it would hold money nobody
// paid in (a wallet at +12,345 over its entries) or entries for nothing, and is refused.
// Records of the wrong shape are left to their schema's problems.

type Collections = Readonly<Record<string, readonly unknown[] | undefined>>;
type Row = Readonly<Record<string, unknown>>;

/** A ledger: the balances (records with a balance at a path) and the entries that make them. */
interface Ledger {
  balances: string;
  entries: string;
  /** Where each balance record's balances are: [key, path of the balance, words for it]. */
  held(record: Row): Array<[key: string, path: Array<string | number>, what: string]>;
  /** The balance an entry counts toward, and its signed amount; null when the entry is not of this shape. */
  entry(entry: Row): { key: string; amount: number; path: Array<string | number> } | null;
}

const num = (v: unknown) => (typeof v === 'number' ? v : null);
const str = (v: unknown) => (typeof v === 'string' ? v : null);
const isRow = (v: unknown): v is Row => v !== null && typeof v === 'object';

/** A card ledger: `type` says whether an amount went in or out. */
const card = (balances: string, entries: string, owner: string, out: string): Ledger => ({
  balances,
  entries,
  held: (r) => (str(r.id) !== null && num(r.balance) !== null ? [[str(r.id)!, ['balance'], `the balance of ${r.id}`]] : []),
  entry: (e) => {
    const key = str(e[owner]);
    const amount = num(e.amount);
    return key === null || amount === null ? null : { key, amount: e.type === out ? -amount : amount, path: [owner] };
  },
});

const LEDGERS: Ledger[] = [
  {
    balances: 'wallets',
    entries: 'wallet_entries',
    held: (r) => (str(r.id) !== null && num(r.balance) !== null ? [[str(r.id)!, ['balance'], `the balance of ${r.id}`]] : []),
    entry: (e) => (str(e.wallet_id) !== null && num(e.amount) !== null ? { key: str(e.wallet_id)!, amount: num(e.amount)!, path: ['wallet_id'] } : null),
  },
  {
    // A service user's wallet per environment and currency; an entry in a currency the user's
    // wallets do not list counts against a balance of 0.
    balances: 'users',
    entries: 'user_wallet_entries',
    held: (r) => {
      const wallets = r.wallets;
      if (str(r.id) === null || !isRow(wallets)) return [];
      return Object.entries(wallets).flatMap(([env, byCurrency]) =>
        isRow(byCurrency)
          ? Object.entries(byCurrency).flatMap(([currency, balance]): Array<[string, Array<string | number>, string]> =>
              num(balance) === null ? [] : [[`${r.id}\0${env}\0${currency}`, ['wallets', env, currency], `the ${env} ${currency} wallet of ${r.id}`]],
            )
          : [],
      );
    },
    entry: (e) => {
      const [user, env, currency, amount] = [str(e.user_id), str(e.environment), str(e.currency), num(e.amount)];
      return user === null || env === null || currency === null || amount === null ? null : { key: `${user}\0${env}\0${currency}`, amount, path: ['user_id'] };
    },
  },
  card('gift_card_wallets', 'gift_card_transactions', 'wallet_id', 'redemption'),
  card('fleet_cards', 'fleet_card_transactions', 'card_id', 'redemption'),
];

export function ledgerProblems(collections: Collections, add: (problem: string) => void): void {
  for (const ledger of LEDGERS) {
    const sums = new Map<string, { total: number; count: number }>();
    (collections[ledger.entries] ?? []).forEach((raw) => {
      const e = isRow(raw) ? ledger.entry(raw) : null;
      if (!e) return;
      const sum = sums.get(e.key) ?? { total: 0, count: 0 };
      sums.set(e.key, { total: sum.total + e.amount, count: sum.count + 1 });
    });
    const owners = new Set<string>();
    (collections[ledger.balances] ?? []).forEach((raw, i) => {
      if (!isRow(raw)) return;
      if (typeof raw.id === 'string') owners.add(raw.id);
      for (const [key, path, what] of ledger.held(raw)) {
        const balance = path.reduce<unknown>((v, p) => (isRow(v) ? v[p] : undefined), raw);
        const sum = sums.get(key) ?? { total: 0, count: 0 };
        sums.delete(key);
        if (balance !== sum.total) {
          add(`${jsonPath(['collections', ledger.balances, i, ...path])}: ${balance} is not the sum of the ${sum.count} entries of ${what} in ${jsonPath(['collections', ledger.entries])} (${sum.total}); a balance changes only by a ledger entry`);
        }
      }
    });
    // Entries left: for no wallet the balances list (or a user's wallet it does not list).
    (collections[ledger.entries] ?? []).forEach((raw, i) => {
      const e = isRow(raw) ? ledger.entry(raw) : null;
      if (!e || !sums.has(e.key)) return;
      const owner = e.key.split('\0')[0];
      add(
        owners.has(owner)
          ? `${jsonPath(['collections', ledger.entries, i])}: an entry of ${e.amount} for a wallet ${owner} does not list (${e.key.split('\0').slice(1).join(' ')}); a balance changes only by a ledger entry`
          : `${jsonPath(['collections', ledger.entries, i, ...e.path])}: ${JSON.stringify(owner)} is not in ${jsonPath(['collections', ledger.balances])} (an entry for a wallet that does not exist)`,
      );
    });
  }
}
