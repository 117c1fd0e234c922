import { defineControl, type ControlRoute } from '../../control/route.js';
import { providerState, queueOutcomes } from './domain.js';

// The emulated payout provider: how long it takes (`--payout-delay`) and what it answers
// (`--payout-outcome`), plus a queue of outcomes for the next payouts, so a test can make one
// payout fail without restarting the emulator.

export const payoutControlRoutes: ControlRoute[] = [
  defineControl('payoutProvider', { handler: (s) => providerState(s) }),
  defineControl('queuePayoutOutcomes', { handler: (s, { body }, tx) => queueOutcomes(s, tx, body.outcomes) }),
];
