import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { packageFile } from '../../emulator/assets.js';
import { fixturesJsonSchemaText } from '../../emulator/fixtures-schema.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { Ajv2020 } from 'ajv/dist/2020.js';

// The shipped fixtures/fixtures.schema.json is the zod schema's JSON Schema (regenerate with
// `npm run fixtures-schema`), the emulator serves the same, and the bundled fixtures match it.

test('fixtures/fixtures.schema.json is up to date with the zod schema, and the emulator serves it', async (t) => {
  const shipped = readFileSync(packageFile('fixtures/fixtures.schema.json'), 'utf8');
  assert.equal(shipped, fixturesJsonSchemaText(), 'stale: run `npm run fixtures-schema`');
  const emu = await startTestEmulator();
  t.after(() => emu.stop());
  const res = await emu.request('GET', '/_emulator/fixtures.schema.json', { key: null });
  assert.equal(res.status, 200);
  assert.deepEqual(res.json.data, JSON.parse(shipped));
});

test('the bundled fixtures are valid against the shipped JSON Schema (checked by Ajv, not by zod)', async () => {
  const ajv = new Ajv2020({ strict: false });
  const validate = ajv.compile(JSON.parse(readFileSync(packageFile('fixtures/fixtures.schema.json'), 'utf8')));
  const fixtures = JSON.parse(readFileSync(packageFile('fixtures/default.json'), 'utf8'));
  assert.equal(validate(fixtures), true, JSON.stringify(validate.errors));
  fixtures.merchants[0].keys[0].environment = 'staging';
  assert.equal(validate(fixtures), false);
});
