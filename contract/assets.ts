import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { getAsset, isSea } from 'node:sea';
import { fileURLToPath } from 'node:url';

// svc runs in one of two shapes, and this is the one module that asks which (the emulator and
// the CLI both read through it):
// - its npm package: the files it ships sit under the package root, found from this file;
// - the single executable (`npm run build:exe`, scripts/build-exe.mjs): one file, a copy of node
//   holding one CommonJS bundle of the CLI and the emulator, that may be moved anywhere, so the
//   files the code reads travel inside it as assets (node:sea getAsset).
// Everything else that differs between the two is settled when the executable is built, not
// asked at run time: the version (bin/svc.js's require of package.json is inlined), the CLI's
// chunks and its dependencies (bundled: no require from node_modules, no import()).

const under = <D extends string, N extends string>(dir: D, names: readonly N[]) => names.map((n) => `${dir}/${n}.yaml` as const);

/** The shipped scenario files, by folder and in the order `svc scenario list` shows them (parity: the order the suite runs). */
export const SHIPPED_SCENARIOS = {
  flows: under('scenarios/flows', ['link-paid', 'link-failed', 'mandate-charges', 'sub-merchant-otp', 'payroll-pin', 'payouts-cap', 'gift-card', 'fleet-card', 'idempotency']),
  triggers: under('scenarios/triggers', ['payment.completed', 'payment.failed', 'payroll_run.completed', 'payroll_run.partial', 'payroll_run.failed', 'catalog.published', 'inventory.low_stock']),
  parity: under('scenarios/parity', [
    'auth', 'scopes', 'cross-merchant', 'payment-links', 'simulate', 'payments', 'pagination', 'mandates', 'idempotency',
    'validation', 'sub-merchants', 'payroll', 'payouts', 'gift-cards', 'fleet-cards', 'webhook-endpoints', 'webhook-deliveries',
  ]),
};

/** The files the code reads from its package at run time; the executable carries each as an asset. */
export const SHIPPED_FILES = ['fixtures/default.json', ...Object.values(SHIPPED_SCENARIOS).flat()] as const;
export type ShippedFile = (typeof SHIPPED_FILES)[number];

/** A file of this package, found from compiled (dist/emulator) or source (emulator) code. */
export function packageFile(relative: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, relative);
}

/** The text of a shipped file: an asset of the executable, else the package's file. */
export function shippedText(name: ShippedFile): string {
  return isSea() ? getAsset(name, 'utf8') : readFileSync(packageFile(name), 'utf8');
}
