// Writes scenarios/scenario.schema.json from the zod schema the runner validates with (run after
// `npm run build`; test/scenario/format.test.ts fails when the committed file is stale).
import { writeFileSync } from 'node:fs';
const { scenarioJsonSchemaText } = await import('../dist/src/scenario/format.js');
writeFileSync(new URL('../scenarios/scenario.schema.json', import.meta.url), scenarioJsonSchemaText());
