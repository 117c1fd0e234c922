import type { Services } from '../services.js';
import type { StoredRecord } from '../store/store.js';
import type { Collection } from '../store/collection.js';
import { PAYMENT_LINKS, toPublicLink, type LinkRecord } from '../resources/payment-links/domain.js';
import { PAYMENTS, toPublicPayment, type PaymentRecord } from '../resources/payments/domain.js';
import { MANDATES, toPublicMandate, type MandateRecord } from '../resources/mandates/domain.js';
import { PAYROLL_RUNS, viewRun, type PayrollRunRecord } from '../resources/payroll/domain.js';
import { PAYOUTS, toPublicPayout, type PayoutRecord } from '../resources/payouts/domain.js';
import { MERCHANTS, type MerchantRecord } from '../resources/merchants/records.js';
import { toPublicSubMerchant } from '../resources/sub-merchants/domain.js';
import { GIFT_CARD_TRANSACTIONS, GIFT_CARD_WALLETS, type GiftCardWalletRecord } from '../resources/gift-cards/domain.js';
import { FLEET_CARD_TRANSACTIONS, FLEET_CARDS, type FleetCardRecord } from '../resources/fleet-cards/domain.js';
import type { Section } from './layout.js';
import { redactValue } from '../../contract/redact.js';
import { isRecord } from '../../contract/json-path.js';

// What the records pages show of each kind. A record the merchant API returns is shown as the
// API returns it — the same toPublic… function its GET route calls, so a link's status is the
// one the API computes from the clock and no stored internal (`closed`, a payout's provider
// outcome) leaks. Cards, which the API never returns, are shown as stored minus anything
// secret-shaped. The row's status, amount and created time are read from that same view.

/** One row's summary, read from the record's view. */
interface Summary {
  status: string | null;
  /** Minor units, in `currency`. */
  amount: number | null;
  /** Shown instead of a missing amount (a pay-any-amount link). */
  noAmount?: string;
  currency: string | null;
  /** When the record came to be: created_at, a payout's initiated_at, a card's issue. */
  created: string | null;
  /** A name or title shown next to the id. */
  name: string | null;
}

export interface RecordKind {
  id: string;
  label: string;
  section: Section;
  /** Where the merchant API returns the view ("data of GET …"), or null when it never shows this record. */
  apiAnswer: string | null;
  /** Every record of the kind (unsorted). */
  all(services: Services): KindRecord[];
  get(services: Services, id: string): KindRecord | undefined;
}

/** One record of a kind, with what the pages read of it (each built when asked). */
export interface KindRecord {
  record: StoredRecord;
  /** The creation time used to sort, newest first (cheap: no view is built for it). */
  created(): string | null;
  /** The record as the API returns it, or as stored minus secrets. */
  view(): Record<string, unknown>;
  summary(): Summary;
  /** The merchant the record belongs to (the parent, for a sub-merchant): the dashboard shows every merchant's records. */
  owner: string | null;
}

/** Never shown in a stored record, whatever it holds. */
const HIDDEN = /secret|pin|token|hash|password|cvc/i;

interface Spec<R extends StoredRecord, V extends Record<string, unknown>> {
  id: string;
  label: string;
  section: Section;
  apiAnswer: string | null;
  collection: Collection<R>;
  /** Whether a record of the collection is of this kind (payments and charges share one collection). */
  has?: (r: R) => boolean;
  created: (services: Services, r: R) => string | null;
  view: (services: Services, r: R) => V;
  summary: (view: V, r: R) => Omit<Summary, 'created'>;
}

/** Binds a spec typed by its record and view to the shape the pages iterate over, each record with its own spec. */
function kind<R extends StoredRecord, V extends Record<string, unknown>>(spec: Spec<R, V>): RecordKind {
  const has = (r: R) => spec.has?.(r) ?? true;
  const of = (services: Services, r: R): KindRecord => ({
    record: r,
    created: () => spec.created(services, r),
    // What the API returns, with every secret taken out by the request log's rules (a card in metadata, a PIN under any name).
    view: () => {
      const { value } = redactValue(spec.view(services, r), services.secrets);
      return isRecord(value) ? value : {};
    },
    summary: () => ({ ...spec.summary(spec.view(services, r), r), created: spec.created(services, r) }),
    owner: typeof r.parent_id === 'string' ? r.parent_id : typeof r.merchant_id === 'string' ? r.merchant_id : null,
  });
  return {
    id: spec.id,
    label: spec.label,
    section: spec.section,
    apiAnswer: spec.apiAnswer,
    all: (services) => [...services.store.all(spec.collection)].filter(has).map((r) => of(services, r)),
    get: (services, id) => {
      const r = services.store.get(spec.collection, id);
      return r && has(r) ? of(services, r) : undefined;
    },
  };
}

/** A stored record without its secret-shaped fields (the merchant's id stays: the dashboard is every merchant's). */
function withoutSecrets(record: StoredRecord): Record<string, unknown> {
  // A copy through JSON: the replacer leaves out a secret-shaped key at any depth.
  return JSON.parse(JSON.stringify(record, (k, v: unknown) => (HIDDEN.test(k) ? undefined : v)));
}

const createdAt = (_s: Services, r: { created_at: string }) => r.created_at;
/** A card's creation is its first ledger row (the `issue` written when it was issued or seeded). */
const firstEntry = (rows: Array<{ created_at: string }>) => rows[0]?.created_at ?? null;

const pick = (view: { status?: unknown; currency?: unknown }, amount: number | null, name: string | null = null) => ({
  status: typeof view.status === 'string' ? view.status : null,
  amount,
  currency: typeof view.currency === 'string' ? view.currency : null,
  name,
});

/** Payments and charges: one collection, one view; a charge is a payment with a mandate. */
function payments(id: string, label: string, charges: boolean): RecordKind {
  return kind({
    id,
    label,
    section: 'records',
    apiAnswer: 'data of GET /v1/api/payments/{id}',
    collection: PAYMENTS,
    has: (r: PaymentRecord) => Boolean(r.mandate_id) === charges,
    created: createdAt,
    view: (_s, r: PaymentRecord) => toPublicPayment(r),
    summary: (v) => pick(v, v.amount),
  });
}

export const KINDS: RecordKind[] = [
  kind({
    id: 'payment-links',
    label: 'Payment links',
    section: 'records',
    apiAnswer: 'data of GET /v1/api/payment-links/{id}',
    collection: PAYMENT_LINKS,
    created: createdAt,
    view: (s, r: LinkRecord) => toPublicLink(r, s.clock.now()),
    summary: (v) => ({ ...pick(v, v.amount, v.title), noAmount: 'any amount' }),
  }),
  payments('payments', 'Payments', false),
  kind({
    id: 'mandates',
    label: 'Mandates',
    section: 'records',
    apiAnswer: 'data of GET /v1/api/mandates/{id}',
    collection: MANDATES,
    created: createdAt,
    view: (s, r: MandateRecord) => toPublicMandate(s, r),
    summary: (v) => pick(v, v.max_amount_cents, v.customer_ref),
  }),
  payments('charges', 'Charges', true),
  kind({
    id: 'payroll-runs',
    label: 'Payroll runs',
    section: 'records',
    apiAnswer: 'data of GET /v1/api/payroll/runs/{id}',
    collection: PAYROLL_RUNS,
    created: createdAt,
    view: (s, r: PayrollRunRecord) => viewRun(s, r),
    summary: (v) => pick(v.run, v.run.total_amount_cents, v.run.note),
  }),
  kind({
    id: 'payouts',
    label: 'Payouts',
    section: 'records',
    apiAnswer: 'data of GET /v1/api/payouts/{id}',
    collection: PAYOUTS,
    // A payout is created when it is initiated: the API has no created_at for it.
    created: (_s, r: PayoutRecord) => r.initiated_at,
    view: (_s, r: PayoutRecord) => toPublicPayout(r),
    summary: (v) => pick(v, v.amount_cents),
  }),
  kind({
    id: 'sub-merchants',
    label: 'Sub-merchants',
    section: 'records',
    apiAnswer: 'an entry of data.sub_merchants in GET /v1/api/sub-merchants',
    collection: MERCHANTS,
    has: (r: MerchantRecord) => typeof r.parent_id === 'string',
    created: createdAt,
    view: (_s, r: MerchantRecord) => toPublicSubMerchant(r),
    summary: (v) => pick({}, null, v.merchant_name),
  }),
  kind({
    id: 'gift-card-wallets',
    label: 'Gift-card wallets',
    section: 'wallets',
    apiAnswer: null,
    collection: GIFT_CARD_WALLETS,
    created: (s, r: GiftCardWalletRecord) => firstEntry(s.store.byIndex(GIFT_CARD_TRANSACTIONS, 'by_wallet', r.id)),
    view: (_s, r: GiftCardWalletRecord) => withoutSecrets(r),
    summary: (_v, r) => pick(r, r.balance),
  }),
  kind({
    id: 'fleet-cards',
    label: 'Fleet cards',
    section: 'wallets',
    apiAnswer: null,
    collection: FLEET_CARDS,
    created: (s, r: FleetCardRecord) => firstEntry(s.store.byIndex(FLEET_CARD_TRANSACTIONS, 'by_card', r.id)),
    view: (_s, r: FleetCardRecord) => withoutSecrets(r),
    summary: (_v, r) => pick(r, r.balance),
  }),
];

/** The kind and record with this exact id, searching every kind (ids are unique across collections by their prefixes). */
export function findRecord(services: Services, id: string): { kind: RecordKind; found: KindRecord } | undefined {
  for (const kind of KINDS) {
    const found = kind.get(services, id);
    if (found) return { kind, found };
  }
  return undefined;
}
