import { defineControl, type ControlRoute } from '../../control/route.js';
import { fleetCardLedger, issueFleetCard, listFleetCards, setFleetCardStatus, topUpFleetCard } from './domain.js';

// Fleet-card issuance, status and top-ups are dashboard actions.

export const fleetCardControlRoutes: ControlRoute[] = [
  defineControl('listFleetCards', { handler: (s, { query }) => ({ fleet_cards: listFleetCards(s, query.merchant_id, query.environment) }) }),
  defineControl('fleetCardTransactions', { handler: (s, { params }) => fleetCardLedger(s, params.id) }),
  defineControl('issueFleetCard', { handler: (s, { body }, tx) => issueFleetCard(s, tx, body) }),
  defineControl('setFleetCardStatus', { handler: (s, { body, params }, tx) => setFleetCardStatus(s, tx, params.id, body.status) }),
  defineControl('topUpFleetCard', { handler: (s, { body, params }, tx) => topUpFleetCard(s, tx, params.id, body.amount) }),
];
