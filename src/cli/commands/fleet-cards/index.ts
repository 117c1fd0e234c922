import type { Command } from 'commander';
import { intFlag } from '../../parse.js';
import { examples, lazy, moneyOptions } from '../../options.js';

export function register(fleetCards: Command): void {
  examples(
    moneyOptions(fleetCards.command('redeem').description('Redeem a fleet card for an allowed category'))
      .requiredOption('--card <id>', 'fleet_card_id, e.g. fc_test_truck_01')
      .requiredOption('--category <name>', 'a category the card allows (fuel, lubricants, …)')
      .requiredOption('--amount <minor>', 'minor units', intFlag(1, 100_000_000_000))
      .option('--reference <text>', 'your reference')
      .option('--location <id>', 'location id (ignored with a station-scoped key)')
      .action(lazy(() => import('./redeem.js'))),
    ['svc fleet-cards redeem --card fc_test_truck_01 --category fuel --amount 4000'],
  );
}
