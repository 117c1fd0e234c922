import { defineControl, type ControlRoute } from '../../control/route.js';
import { providerState, queueOutcomes } from './domain.js';
import { QueuePayoutOutcomes } from '../../../contract/resources/payouts.js';

// The emulated payout provider: how long it takes (`--payout-delay`) and what it answers
// (`--payout-outcome`), plus a queue of outcomes for the next payouts, so a test can make one
// payout fail without restarting the emulator.

export const payoutControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/payouts/provider',
    summary: 'The payout provider: delay, default outcome and queued outcomes',
    handler: (s) => providerState(s),
  }),
  defineControl({
    method: 'post',
    path: '/payouts/provider/outcomes',
    summary: 'Replace the queue of outcomes for the next payouts accepted (any merchant, any environment)',
    body: QueuePayoutOutcomes,
    handler: (s, { body }, tx) => queueOutcomes(s, tx, body.outcomes),
  }),
];
