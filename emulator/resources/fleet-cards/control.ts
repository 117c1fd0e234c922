import { defineControl, type ControlRoute } from '../../control/route.js';
import { fleetCardLedger, issueFleetCard, listFleetCards, setFleetCardStatus, topUpFleetCard } from './domain.js';
import { FleetCardQuery, IssueFleetCard, SetFleetCardStatus, TopUpFleetCard } from '../../../contract/resources/fleet-cards.js';

// Fleet-card issuance, status and top-ups are dashboard actions.

export const fleetCardControlRoutes: ControlRoute[] = [
  defineControl({
    method: 'get',
    path: '/fleet-cards',
    summary: "A merchant's fleet cards (?merchant_id=&environment=)",
    query: FleetCardQuery,
    handler: (s, { query }) => ({ fleet_cards: listFleetCards(s, query.merchant_id, query.environment) }),
  }),
  defineControl({
    method: 'get',
    path: '/fleet-cards/:id/transactions',
    summary: 'A fleet card with its transactions (issue, top_up, redemption; signed amounts that sum to the balance)',
    handler: (s, { params }) => fleetCardLedger(s, params.id),
  }),
  defineControl({
    method: 'post',
    path: '/fleet-cards',
    summary: 'Issue a fleet card (active unless told otherwise)',
    body: IssueFleetCard,
    status: 201,
    handler: (s, { body }, tx) => issueFleetCard(s, tx, body),
  }),
  defineControl({
    method: 'post',
    path: '/fleet-cards/:id/status',
    summary: 'Activate or deactivate a fleet card',
    body: SetFleetCardStatus,
    handler: (s, { body, params }, tx) => setFleetCardStatus(s, tx, params.id, body.status),
  }),
  defineControl({
    method: 'post',
    path: '/fleet-cards/:id/top-up',
    summary: 'Add money to a fleet card',
    body: TopUpFleetCard,
    handler: (s, { body, params }, tx) => topUpFleetCard(s, tx, params.id, body.amount),
  }),
];
