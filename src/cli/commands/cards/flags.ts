import { MONEY_FLAGS, type FlagTable } from '../../flags.js';
import { intFlag } from '../../parse.js';

const amount = (help: string) => ({ value: '<minor>', help, parse: intFlag(1, 100_000_000_000), required: true }) as const;

// `svc gift-cards redeem` and `svc fleet-cards redeem`: a point of sale takes money off a card.
export const CARDS = {
  gift: {
    ...MONEY_FLAGS,
    wallet: { value: '<id>', help: 'merchant_wallet_id, e.g. mw_test_ada_usd', required: true },
    amount: amount("minor units of the wallet's currency"),
    reference: { value: '<text>', help: 'your reference' },
    location: { value: '<id>', help: 'location id (reporting only)' },
  },
  fleet: {
    ...MONEY_FLAGS,
    card: { value: '<id>', help: 'fleet_card_id, e.g. fc_test_truck_01', required: true },
    category: { value: '<name>', help: 'a category the card allows (fuel, lubricants, …)', required: true },
    amount: amount('minor units'),
    reference: { value: '<text>', help: 'your reference' },
    location: { value: '<id>', help: 'location id (ignored with a station-scoped key)' },
  },
} as const satisfies Record<string, FlagTable>;
