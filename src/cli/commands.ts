import type { Command } from 'commander';

// Every top-level command: name, one-line description (shown by `svc --help` without loading
// anything), and the module that registers its subcommands and flags.

export interface CommandEntry {
  name: string;
  description: string;
  load(): Promise<{ register(cmd: Command, program: Command): void }>;
}

export const COMMANDS: CommandEntry[] = [
  { name: 'links', description: 'Payment links: create, get, simulate', load: () => import('./commands/links/index.js') },
  { name: 'payments', description: 'Payments: get, list, summary', load: () => import('./commands/payments/index.js') },
  { name: 'mandates', description: 'Recurring-billing mandates: create, get, revoke', load: () => import('./commands/mandates/index.js') },
  { name: 'charges', description: 'Charge a mandate', load: () => import('./commands/charges/index.js') },
  { name: 'sub-merchants', description: 'Sub-merchants: create (with OTP), list', load: () => import('./commands/sub-merchants/index.js') },
  { name: 'payroll', description: 'Payroll runs: create from CSV/JSON, get, approve (PIN)', load: () => import('./commands/payroll/index.js') },
  { name: 'payouts', description: 'Payouts to approved payees: create, get, list', load: () => import('./commands/payouts/index.js') },
  { name: 'gift-cards', description: 'Redeem a gift card at a point of sale', load: () => import('./commands/cards/index.js') },
  { name: 'fleet-cards', description: 'Redeem a fleet card at a point of sale', load: () => import('./commands/cards/index.js') },
  { name: 'webhooks', description: 'Webhooks: endpoints, listen, tail, verify, replay, check, deliveries', load: () => import('./commands/webhooks/index.js') },
  { name: 'trigger', description: 'Fire a test event with your data (runs a shipped trigger scenario)', load: () => import('./commands/trigger/index.js') },
  { name: 'scenario', description: 'Scenario files: run a flow with expectations (emulator or live host), check, list the shipped ones', load: () => import('./commands/scenario/index.js') },
  { name: 'parity', description: 'Record the scenario suite against a host; check a host (the emulator) against a recording', load: () => import('./commands/parity/index.js') },
  { name: 'coverage', description: 'What your tests exercised of the contract, and how to exercise the rest', load: () => import('./commands/coverage/index.js') },
  { name: 'logs', description: "The emulator's request log: list, get (--curl), tail", load: () => import('./commands/logs/index.js') },
  { name: 'emulator', description: 'Run and control the local emulator', load: () => import('./commands/emulator/index.js') },
  { name: 'config', description: 'Profiles in the config file: set, get, list, use', load: () => import('./commands/config/index.js') },
  { name: 'login', description: 'Check an API key with a read call and save it in a profile', load: () => import('./commands/login/index.js') },
  { name: 'completion', description: 'Print a bash or zsh completion script', load: () => import('./commands/completion/index.js') },
];

/**
 * The docs page each command's --help ends with (docs/<page>): the entry of the longest command
 * path that has one ('emulator faults add' takes 'emulator faults'). test/cli/help.test.ts holds
 * it to the pages that exist and to every command.
 */
export const DOCS_PAGES: Record<string, string> = {
  links: 'cli.md',
  payments: 'cli.md',
  mandates: 'cli.md',
  charges: 'cli.md',
  'sub-merchants': 'cli.md',
  payroll: 'cli.md',
  payouts: 'cli.md',
  'gift-cards': 'cli.md',
  'fleet-cards': 'cli.md',
  webhooks: 'webhooks.md',
  trigger: 'scenarios.md',
  scenario: 'scenarios.md',
  parity: 'parity.md',
  logs: 'request-logs.md',
  coverage: 'coverage.md',
  emulator: 'emulator.md',
  'emulator exec': 'testing.md',
  'emulator faults': 'faults.md',
  'emulator dashboard': 'dashboard.md',
  'emulator deliveries': 'webhooks.md',
  config: 'cli.md',
  login: 'cli.md',
  completion: 'cli.md',
};

/** The page for a command path (['emulator', 'faults', 'add']): its longest entry in DOCS_PAGES. */
export function docsPage(path: string[]): string | undefined {
  for (let n = path.length; n > 0; n--) {
    const page = DOCS_PAGES[path.slice(0, n).join(' ')];
    if (page) return page;
  }
  return undefined;
}

/** The last lines of a command's --help: where its page is, in the repository and in an installed package. */
export const docsLine = (page: string) => `\nDocs: docs/${page} (installed: node_modules/svc-toolkit/docs/${page})`;
