// The API key scopes, as plain data: the CLI imports this list (to find an all-scope key of a
// discovered emulator) and must not load zod on its cold start, so it lives outside common.ts.

export const SCOPES = [
  'payments:create',
  'payments:read',
  'sub_merchants:create',
  'sub_merchants:read',
  'payroll:create',
  'payroll:read',
  'payouts:create',
  'payouts:read',
  'gift_cards:redeem',
  'fleet_cards:redeem',
] as const;
