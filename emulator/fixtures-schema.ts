import { z } from 'zod';
import { FixtureFile } from '../contract/fixtures.js';

// The fixtures format as a JSON Schema, generated from the zod schema the emulator validates
// with, so an editor can check a custom fixtures file ("$schema": "./node_modules/svc-toolkit/
// fixtures/fixtures.schema.json"). The package ships it as fixtures/fixtures.schema.json (a
// test keeps that file equal to this), and the emulator serves it at
// GET /_emulator/fixtures.schema.json.

export function fixturesJsonSchema(): Record<string, unknown> {
  // 'input': what a file may say (fields with defaults are optional there).
  const schema = z.toJSONSchema(FixtureFile, { io: 'input', target: 'draft-2020-12' }) as Record<string, unknown>;
  return {
    ...schema,
    $id: 'https://svc.dev/schemas/fixtures.schema.json',
    title: 'svc emulator fixtures',
    description: 'Merchants with their API keys, wallets, payees, gift-card wallets and fleet cards, and service users, seeded into a fresh emulator.',
  };
}

export const fixturesJsonSchemaText = (): string => `${JSON.stringify(fixturesJsonSchema(), null, 2)}\n`;
