import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'junit2json';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { packageFile, SHIPPED_SCENARIOS } from '../../emulator/assets.js';
import { scenarioJsonSchemaText } from '../../src/scenario/format.js';
import { tempDir } from '../helpers/emulator.js';
import { cliSession } from '../cli/cli.js';

// The shipped scenarios (issue 44): every one passes against the emulator through `svc scenario
// run` (the triggers through `svc trigger` too), `svc scenario list` names each, each is valid
// against the published JSON Schema (checked by Ajv, not by the zod schema it came from, which
// it must match), and a run's JUnit file, read back by a JUnit XML parser, counts every step.

const cli = cliSession({ clock: 'system' });
const FLOWS = SHIPPED_SCENARIOS.flows.map((f) => f.replace(/^.*\/|\.yaml$/g, ''));
const TRIGGERS = SHIPPED_SCENARIOS.triggers.map((f) => f.replace(/^.*\/|\.yaml$/g, ''));

test('scenarios/scenario.schema.json is the zod schema\'s, and every shipped flow and trigger is valid against it (Ajv)', () => {
  assert.equal(readFileSync(packageFile('scenarios/scenario.schema.json'), 'utf8'), scenarioJsonSchemaText(), 'stale: run `npm run scenario-schema`');
  const validate = new Ajv2020({ strict: false }).compile(JSON.parse(scenarioJsonSchemaText()));
  for (const file of [...SHIPPED_SCENARIOS.flows, ...SHIPPED_SCENARIOS.triggers]) {
    assert.equal(validate(parseYaml(readFileSync(packageFile(file), 'utf8'))), true, `${file}: ${JSON.stringify(validate.errors)}`);
  }
  assert.equal(validate({ name: 'x', steps: [{ name: 'a', request: 'GET /v1/api/payments', exepct: {} }] }), false, 'an unknown key is refused by the schema too');
  // Every file under scenarios/ is shipped (listed, so the single executable carries it too).
  for (const dir of ['flows', 'triggers', 'parity'] as const) {
    assert.deepEqual(readdirSync(packageFile(`scenarios/${dir}`)).sort(), SHIPPED_SCENARIOS[dir].map((f) => f.split('/').pop()).sort(), dir);
  }
});

test('svc scenario list names every shipped flow and trigger with its description', async () => {
  const r = await cli.run(['scenario', 'list', '--json']);
  assert.equal(r.code, 0, r.stderr);
  const rows = r.json() as { name: string; kind: string; description: string; steps: number }[];
  assert.deepEqual(rows.map((x) => x.name), [...FLOWS, ...TRIGGERS]);
  assert.equal(FLOWS.length, 9);
  assert.equal(TRIGGERS.length, 7);
  for (const row of rows) assert.ok(row.description.length > 20 && row.steps > 0, row.name);
});

test('every shipped flow passes against the emulator, every step run (none skipped); the JUnit file counts them', async () => {
  const dir = tempDir('svc-scenario-junit-');
  const junitFile = join(dir, 'results.xml');
  const r = await cli.svc(['scenario', 'run', ...FLOWS, '--junit', junitFile]);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  const steps = r.stdout.split('\n').filter((l) => /^ {2}(PASS|FAIL|SKIP) /.test(l));
  assert.ok(steps.length >= 40, `${steps.length} steps`);
  assert.deepEqual(steps.filter((l) => !l.startsWith('  PASS')), []);
  assert.match(r.stdout, new RegExp(`^9 scenario\\(s\\), ${steps.length} step\\(s\\): ${steps.length} passed, 0 failed, 0 skipped$`, 'm'));
  // Read back by a JUnit XML parser: a testsuite a scenario, a testcase a step.
  const xml = await parse(readFileSync(junitFile, 'utf8'));
  assert.ok(xml && 'testsuite' in xml);
  assert.equal(xml.tests, steps.length);
  assert.equal(xml.failures, 0);
  assert.equal(xml.testsuite!.length, 9);
  assert.deepEqual(xml.testsuite!.map((s) => s.name), FLOWS);
  assert.equal(xml.testsuite!.reduce((n, s) => n + (s.testcase?.length ?? 0), 0), steps.length);
});

test('every shipped trigger passes as a scenario, and through svc trigger with --set', async () => {
  for (const name of TRIGGERS) {
    const r = await cli.svc(['scenario', 'run', name, '--env', 'PIN=1357', '--json']);
    assert.equal(r.code, 0, `${name}: ${r.stdout}${r.stderr}`);
    assert.equal(r.json().totals.skipped, 0, name);
  }
  const t = await cli.svc(['trigger', 'payment.completed', '--set', 'amount=777', '--set', 'metadata={"order":"A-1"}', '--set', 'link.accepted_methods=["card","wallet"]', '--set', 'pay.method=wallet', '--json']);
  assert.equal(t.code, 0, t.stderr);
  const payment = t.json();
  assert.deepEqual([payment.amount, payment.payment_method, payment.status], [777, 'wallet', 'completed']);
  const events = await cli.control('/events?merchant_id=mer_acme&environment=test&type=payment.completed');
  const event = events.events.find((e: { body: string }) => JSON.parse(e.body).data.payment.id === payment.id);
  assert.deepEqual(JSON.parse(event.body).data.link.metadata, { order: 'A-1' }, 'the merchant\'s own metadata rides on the event');
  const payroll = await cli.svc(['trigger', 'payroll_run.completed', '--pin', '1357', '--set', 'payments[0].amount_cents=4321', '--json']);
  assert.equal(payroll.code, 0, payroll.stderr);
  assert.equal(payroll.json().run.status, 'completed');
  assert.equal(payroll.json().payments[0].amount_cents, 4321);
  // A --set for a field or a step that is not there: exit 2 with the file's line and column, nothing created.
  const before = (await cli.control('/events?merchant_id=mer_acme&environment=test')).events.length;
  for (const [set, message] of [
    ['amout=5', /^error: scenarios\/triggers\/payment\.completed\.yaml:\d+:\d+: --set link\.amout=5: step link's body has no amout$/m],
    ['nope.amount=5', /^error: scenarios\/triggers\/payment\.completed\.yaml:\d+:\d+: --set link\.nope\.amount=5: step link's body has no nope\.amount$/m],
  ] as const) {
    const bad = await cli.svc(['trigger', 'payment.completed', '--set', set]);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, message);
  }
  const wrongPin = await cli.svc(['trigger', 'payroll_run.failed', '--pin', '0000']);
  assert.equal(wrongPin.code, 1);
  assert.match(wrongPin.stderr, /FAIL {2}approve .*\n.*status: expected 2xx, received 422 \(PIN_INVALID\)\n.*\{"pin":"\[redacted\]"\}/);
  assert.doesNotMatch(wrongPin.stderr + wrongPin.stdout, /0000/, 'the PIN is never shown');
  assert.equal((await cli.control('/events?merchant_id=mer_acme&environment=test')).events.length, before, 'no event from the refused ones');
});
