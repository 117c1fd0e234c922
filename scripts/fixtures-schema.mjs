// Writes fixtures/fixtures.schema.json from the zod schema (run after `npm run build`;
// test/package/fixtures-schema.test.ts fails when the committed file is stale).
import { writeFileSync } from 'node:fs';
const { fixturesJsonSchemaText } = await import('../dist/emulator/fixtures-schema.js');
writeFileSync(new URL('../fixtures/fixtures.schema.json', import.meta.url), fixturesJsonSchemaText());
