// What the suite uses against an svc emulator running the bundled fixtures (fixtures/
// default.json; a test keeps the two in step): the second merchant's and the restricted key,
// and the host inputs (--var) of the scenarios that need real objects of the merchant —
// an approved payee, a gift-card wallet, fleet cards. Against any other host these come from
// flags, or the scenarios that need them are skipped.

export const EMULATOR_KEYS = {
  /** globex-test: a second merchant (its objects are 404 to acme). */
  other: 'svc_test_globex0all0scopes000000000001',
  /** acme-test-readonly: payments:read only. */
  restricted: 'svc_test_acme0read0only00000000000001',
};

export const EMULATOR_VARS: Record<string, string> = {
  manager_phone: '+231770000201',
  payee_id: 'payee_ada',
  payee_currency: 'USD',
  payee_other_currency: 'LRD',
  payee_revoked_id: 'payee_old',
  gift_card_wallet_id: 'mw_test_ada_usd',
  fleet_card_id: 'fc_test_truck_01',
  fleet_card_inactive_id: 'fc_test_truck_02',
  fleet_category: 'fuel',
  fleet_over_limit_amount: '60000',
};
