import { MONEY_FLAGS, type FlagTable } from '../../flags.js';
import { intFlag } from '../../parse.js';

export const FLEET_CARDS = {
  redeem: {
    ...MONEY_FLAGS,
    card: { value: '<id>', help: 'fleet_card_id, e.g. fc_test_truck_01', required: true },
    category: { value: '<name>', help: 'a category the card allows (fuel, lubricants, …)', required: true },
    amount: { value: '<minor>', help: 'minor units', parse: intFlag(1, 100_000_000_000), required: true },
    reference: { value: '<text>', help: 'your reference' },
    location: { value: '<id>', help: 'location id (ignored with a station-scoped key)' },
  },
} as const satisfies Record<string, FlagTable>;
