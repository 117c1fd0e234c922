import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { errorRecipes, operationsOf } from './error-recipes.js';

// Every route lists only error codes it can send: for each operation of the served /openapi.yaml
// and each code its error responses list, a recipe makes the running emulator answer that
// code, with the documented status, over HTTP (the recipes: error-recipes.ts). A listed code with no recipe fails the test
// (it would be a code the route cannot be shown to send). The other direction — every code the
// server answers is listed — is checked on every /v1 answer of the suite (helpers/contract.ts)
// and by the property tests.

let emu: TestEmulator;
/** An emulator started with --latency 1s (on its manual clock): a request holds its key until the clock moves. */
let slow: TestEmulator;
let doc: any;

before(async () => {
  emu = await startTestEmulator();
  slow = await startTestEmulator({ config: { latencyMs: 1000 } });
  doc = await (await fetch(`${emu.baseUrl}/openapi.json`)).json();
});
after(async () => {
  await emu.stop();
  await slow.stop();
});

test('each code a /v1 operation lists in /openapi.yaml is one it sends, with the listed status', async () => {
  const recipeFor = errorRecipes(emu, slow);
  const missing: string[] = [];
  let shown = 0;
  for (const { op, codes } of operationsOf(doc)) {
    for (const { code, status } of codes) {
      const recipe = recipeFor(op, code);
      if (!recipe) {
        missing.push(`${op.id} ${code}`);
        continue;
      }
      const answer = await recipe();
      assert.equal(answer.json?.error?.code, code, `${op.method} ${op.path} should be able to answer ${code}: got ${answer.status} ${answer.text}`);
      assert.equal(String(answer.status), status, `${op.method} ${op.path} ${code}`);
      shown++;
    }
  }
  assert.deepEqual(missing, [], 'codes the document lists with no way to make the route send them');
  assert.ok(shown > 100, `${shown} codes shown`);
});
