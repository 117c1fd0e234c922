import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { z } from 'zod';
import type { ClockState, ControlUser, DeliveryRow, EmulatorKey, MandateView, WalletView } from '../../src/client/control.js';
import type { ClockState as ClockStateSchema, EmulatorKey as EmulatorKeySchema } from '../../contract/control/emulator.js';
import type { ControlUser as ControlUserSchema, WalletView as WalletViewSchema } from '../../contract/control/dashboard.js';
import type { DeliveryRow as DeliveryRowSchema } from '../../contract/control/webhooks.js';
import type { Mandate } from '../../contract/resources/mandates.js';

// The control client (src/client/control.ts) types its answers with the contract's schemas,
// by type-only imports: the CLI's commands that only talk to the control API (svc emulator
// status, keys, clock, otp, events, users, metrics) must not load zod when they start. Checked
// on the compiled JavaScript, by following its static imports from the files those commands load.

const dist = resolve(dirname(new URL(import.meta.url).pathname), '../..');

/** Every bare module a compiled file reaches through static imports (relative ones followed). */
function staticPackages(entry: string): { files: number; packages: Set<string> } {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const stack = [join(dist, entry)];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    assert.ok(existsSync(file), `${file} exists (npm run build)`);
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^;]*?from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm)) {
      const spec = m[1] ?? m[2];
      if (spec.startsWith('.')) stack.push(resolve(dirname(file), spec));
      else packages.add(spec);
    }
  }
  return { files: seen.size, packages };
}

test('the control client, and the commands that only talk to the control API, load no zod at startup', () => {
  for (const entry of ['src/client/control.js', 'src/cli/context.js', 'src/cli/commands/emulator/control.js']) {
    const { files, packages } = staticPackages(entry);
    assert.ok(files > 1, `${entry}: its imports were followed`);
    assert.ok(!packages.has('zod'), `${entry} reaches zod: ${[...packages].join(', ')}`);
  }
  // The walk does see zod where it is imported as a value (the check above can fail).
  assert.ok(staticPackages('contract/control/schemas.js').packages.has('zod'));
});

// Compile-time: the client's answer types are the contract schemas' outputs, not copies.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export const sameTypes: [
  Equal<EmulatorKey, z.output<typeof EmulatorKeySchema>>,
  Equal<ClockState, z.output<typeof ClockStateSchema>>,
  Equal<WalletView, z.output<typeof WalletViewSchema>>,
  Equal<DeliveryRow, z.output<typeof DeliveryRowSchema>>,
  Equal<ControlUser, z.output<typeof ControlUserSchema>>,
  Equal<MandateView, z.output<typeof Mandate>>,
] = [true, true, true, true, true, true];
// @ts-expect-error the clock's mode is the contract's enum, not any string
export const notAMode: ClockState['mode'] = 'sometimes';
