import type { Command } from 'commander';
import { verb } from '../../options.js';
import { FLEET_CARDS } from './flags.js';

export function register(fleetCards: Command): void {
  verb(fleetCards, 'redeem', 'Redeem a fleet card for an allowed category', FLEET_CARDS.redeem, () => import('./redeem.js'), 'run', [
    'svc fleet-cards redeem --card fc_test_truck_01 --category fuel --amount 4000',
  ]);
}
