import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { idem, KEYS, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { packageFile } from '../../emulator/assets.js';
import { allRoutes } from '../../emulator/registry.js';
import { openApiPath } from '../../emulator/openapi/document.js';
import { toYaml } from '../../emulator/openapi/yaml.js';

// GET /openapi.yaml: linted by a real OpenAPI linter (Redocly CLI, offline), parsed back to
// the same document (the YAML emitter is exact), and checked against what the emulator
// serves: every route from allRoutes() — whoever added it — with its method, scope,
// idempotency header, success status and error responses.

const REDOCLY = packageFile('node_modules/.bin/redocly');

let emu: TestEmulator;
let dir: string;
let doc: any;
let yamlText: string;
let lintConfig: string;
/** The Redocly runs start together in before() (each takes seconds); tests await them. */
let runs: { lint: ReturnType<typeof redocly>; bundles: Array<[string, unknown, ReturnType<typeof redocly>]> };

// Asynchronous on purpose: the emulator runs in this process, and a blocked event loop would
// leave its keep-alive sockets to time out under the client's feet.
function redocly(...args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      REDOCLY,
      // No --config: Redocly finds redocly.yaml in the directory, as it does for a user.
      args,
      { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

before(async () => {
  emu = await startTestEmulator();
  dir = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
  // The lint configuration as a user gets it: served beside the document (docs/emulator.md, "The OpenAPI document").
  const config = await fetch(`${emu.baseUrl}/redocly.yaml`);
  assert.equal(config.status, 200);
  lintConfig = await config.text();
  writeFileSync(join(dir, 'redocly.yaml'), lintConfig);
  const res = await fetch(`${emu.baseUrl}/openapi.yaml`);
  assert.equal(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^application\/yaml/);
  yamlText = await res.text();
  writeFileSync(join(dir, 'openapi.yaml'), yamlText);
  doc = JSON.parse(await (await fetch(`${emu.baseUrl}/openapi.json`)).text());
  // Strings a naive emitter gets wrong, carried in an extension field through the same path.
  const cases = ['true', 'no', 'null', '~', '123', '1e3', '0x1F', '2026-01-01', '- dash', 'a: b', 'x #y', '#z', '', ' lead', 'trail ', 'multi\nline', 'ends in newline\n', 'two\n\n', 'gap\n\nline', 'x\n  indented\n#hash\n---', 'del\u007f', 'c1\u0085x', 'sep\u2028x', 'multi\nline with sep\u2029', 'multi\nline with trail \nend', 'tab\there', 'quote"s', "it's", '{brace}', '[b]', '*star', '&amp', '!bang', '%pct', '@at', '`tick`', 'ünïcödé ✓', '$ref', 'C:\\path', 'line\r\nwindows'];
  const probe = { ...doc, 'x-yaml-cases': { strings: cases, keys: Object.fromEntries(cases.map((c, i) => [c, i])), values: Object.fromEntries(cases.map((c, i) => [`k${i}`, c])), nested: [[1, [2, []]], [{}], { a: [{ b: null }] }], numbers: [0, -1, 1.5, 1e21, false] } };
  writeFileSync(join(dir, 'probe.yaml'), toYaml(probe));
  const bundle = (file: string) => redocly('bundle', file, '--ext', 'json', '-o', join(dir, `${file}.json`));
  // The probe holds the whole document, so one bundle checks the emitter on both.
  runs = { lint: redocly('lint', 'openapi.yaml', '--format', 'stylish'), bundles: [['probe.yaml', probe, bundle('probe.yaml')]] };
});
after(async () => {
  await emu.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the document is valid OpenAPI 3.1', () => {
  test('redocly lint exits 0 with no errors and no warnings', async () => {
    const { status, output } = await runs.lint;
    assert.equal(status, 0, output);
    assert.match(output, /Your API description is valid/, output);
    // (Redocly prints a Node 20 deprecation banner; its own findings read "You have N warnings".)
    assert.doesNotMatch(output, /You have \d+ warnings?|\berrors?\b/i, output);
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.servers[0].url, emu.baseUrl);
  });

  test('the served lint configuration is the repository\'s redocly.yaml: recommended, one rule off, with its reason', () => {
    assert.equal(lintConfig, readFileSync(packageFile('redocly.yaml'), 'utf8'));
    assert.match(lintConfig, /^extends:\n  - recommended$/m);
    const off = [...lintConfig.matchAll(/^  ([\w-]+): off$/gm)].map((m) => m[1]);
    assert.deepEqual(off, ['no-ambiguous-paths'], 'exactly one rule turned off');
    assert.match(lintConfig, /# Off on purpose[\s\S]*by-code/);
    // The spec's path stays in the document.
    assert.ok(doc.paths['/v1/api/payment-links/by-code/{code}'].get);
  });

  test('X-Trace-ID is a required header of every response', () => {
    assert.equal(doc.components.headers.TraceId.required, true);
    for (const [path, ops] of Object.entries(doc.paths) as Array<[string, any]>) {
      for (const [method, op] of Object.entries(ops) as Array<[string, any]>) {
        for (const [status, res] of Object.entries(op.responses) as Array<[string, any]>) {
          assert.deepEqual(res.headers['X-Trace-ID'], { $ref: '#/components/headers/TraceId' }, `${method} ${path} ${status}`);
        }
      }
    }
  });

  test('the YAML reads back as exactly the JSON document (and survives awkward strings)', async () => {
    assert.equal(yamlText, toYaml(doc), 'the served YAML is the emitter applied to the served JSON');
    for (const [file, expected, run] of runs.bundles) {
      const { status, output } = await run;
      assert.equal(status, 0, output);
      assert.deepEqual(JSON.parse(readFileSync(join(dir, `${file}.json`), 'utf8')), expected, file);
    }
  });
});

describe('every route the emulator serves is in it', () => {
  test('one operation per route from allRoutes(), and nothing else', () => {
    const routes = allRoutes();
    assert.ok(routes.length >= 10);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m} ${path}`));
    assert.deepEqual(documented.sort(), routes.map((r) => `${r.method} ${openApiPath(r.path)}`).sort());
  });

  test('scope, security, parameters, request body, success status and envelope follow the declaration', () => {
    for (const route of allRoutes()) {
      const label = `${route.method} ${route.path}`;
      const op = doc.paths[openApiPath(route.path)][route.method];
      assert.deepEqual(op['x-scopes'], [route.scope], label);
      assert.match(op.description, new RegExp(`Scope: \`${route.scope}\``), label);
      assert.deepEqual(op.security, [{ bearerAuth: [] }], label);
      for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
        assert.ok(op.parameters.some((p: any) => p.in === 'path' && p.name === name && p.required === true), `${label}: path parameter ${name}`);
      }
      const idemHeader = op.parameters.find((p: any) => p.in === 'header' && /idempotency-key$/i.test(p.name));
      if (route.idempotency) {
        assert.equal(idemHeader?.name, route.idempotency.header, label);
        assert.equal(idemHeader.required, route.idempotency.required, label);
      } else assert.equal(idemHeader, undefined, label);
      assert.ok(op.parameters.some((p: any) => p.$ref === '#/components/parameters/TraceId'), label);
      assert.equal(Boolean(op.requestBody), Boolean(route.body), label);
      const status = String(route.status ?? 200);
      const ok = op.responses[status];
      assert.ok(ok, `${label}: ${status} response`);
      assert.deepEqual(ok.headers['X-Trace-ID'], { $ref: '#/components/headers/TraceId' }, label);
      assert.deepEqual(ok.content['application/json'].schema.required, ['success', 'data'], label);
      for (const [code, res] of Object.entries(op.responses) as Array<[string, any]>) {
        if (Number(code) < 400) continue;
        assert.deepEqual(res.content['application/json'].schema, { $ref: '#/components/schemas/ErrorEnvelope' }, `${label} ${code}`);
        assert.ok(res.headers['X-Trace-ID'], `${label} ${code}`);
      }
    }
    assert.deepEqual(doc.components.securitySchemes.bearerAuth, { type: 'http', scheme: 'bearer', description: doc.components.securitySchemes.bearerAuth.description });
    assert.deepEqual(doc.components.schemas.ErrorEnvelope.required, ['success', 'error']);
  });

  test('the documented errors include what the server really answers (401 everywhere; 403 with a key lacking the scope)', async () => {
    for (const route of allRoutes()) {
      const label = `${route.method} ${route.path}`;
      const path = route.path.replace(/:(\w+)/g, 'x');
      const op = doc.paths[openApiPath(route.path)][route.method];
      const noKey = await emu.request(route.method.toUpperCase(), path, { key: null, body: route.method === 'get' ? undefined : {} }).catch((err) => {
        throw new Error(`${label}: ${err.cause ?? err}`);
      });
      assert.equal(noKey.status, 401, label);
      assert.ok(op.responses['401'].description.includes(noKey.json.error.code), label);
      // The read-only key holds payments:read only.
      if (route.scope !== 'payments:read') {
        const wrongScope = await emu.request(route.method.toUpperCase(), path, { key: KEYS.acmeReadOnly, body: route.method === 'get' ? undefined : {} });
        assert.equal(wrongScope.status, 403, label);
        assert.ok(op.responses['403'].description.includes(wrongScope.json.error.code), label);
      }
    }
  });

  test("the envelope's code list names exactly the codes the operations answer with: no PIN or INVALID_STATE (no /v1 route takes a PIN), 423 only for OTP_LOCKED", () => {
    const answered = new Map<string, Set<string>>();
    for (const ops of Object.values(doc.paths) as any[]) {
      for (const op of Object.values(ops) as any[]) {
        for (const [status, res] of Object.entries(op.responses) as Array<[string, any]>) {
          if (Number(status) >= 400) for (const code of Object.keys(res.content['application/json'].examples)) answered.set(code, (answered.get(code) ?? new Set()).add(status));
        }
      }
    }
    const listed: string[] = doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum;
    assert.deepEqual([...listed].sort(), [...answered.keys()].sort());
    for (const code of ['PIN_INVALID', 'PIN_LOCKED', 'INVALID_STATE']) assert.ok(!listed.includes(code), code);
    assert.deepEqual([...answered].filter(([, statuses]) => statuses.has('423')).map(([code]) => code), ['OTP_LOCKED']);
  });

  test('list page parameters document the defaults the emulator applies (payments: the spec\'s 50)', async () => {
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: any) => p.in === 'query' && p.name === name);
    assert.deepEqual(param('/v1/api/payments', 'limit').schema, { type: 'integer', minimum: 1, maximum: 100, default: 50 });
    // The payouts list answers the page it applied: with no query, its defaults.
    const payouts = await emu.request('GET', '/v1/api/payouts');
    assert.equal(payouts.status, 200, payouts.text);
    assert.equal(param('/v1/api/payouts', 'limit').schema.default, payouts.json.data.limit);
    assert.equal(param('/v1/api/payouts', 'offset').schema.default, payouts.json.data.offset);
    assert.deepEqual([payouts.json.data.limit, payouts.json.data.offset], [20, 0]);
  });

  test('required idempotency: the documented 422 code is the one the server answers', async () => {
    for (const route of allRoutes().filter((r) => r.idempotency?.required)) {
      const res = await emu.request('POST', route.path.replace(/:(\w+)/g, 'x'), { body: {} });
      assert.equal(res.status, 422, route.path);
      assert.equal(res.json.error.code, 'IDEMPOTENCY_KEY_REQUIRED', route.path);
      assert.match(doc.paths[openApiPath(route.path)][route.method].responses['422'].description, /IDEMPOTENCY_KEY_REQUIRED/, route.path);
    }
  });

  test('real responses carry exactly the documented fields (payout, gift-card and fleet-card redemption)', async () => {
    const schemaOf = (path: string, status: string) => {
      const data = doc.paths[path].post.responses[status].content['application/json'].schema.properties.data;
      return data.$ref ? doc.components.schemas[data.$ref.split('/').pop()] : data;
    };
    const deref = (s: any) => (s.$ref ? doc.components.schemas[s.$ref.split('/').pop()] : s);
    const payout = await emu.request('POST', '/v1/api/payouts', { body: { payee_id: 'payee_ada', amount_cents: 100, currency: 'USD' }, idempotencyKey: idem('oa') });
    assert.deepEqual(Object.keys(payout.json.data).sort(), Object.keys(schemaOf('/v1/api/payouts', '201').properties).sort());
    const gift = await emu.request('POST', '/v1/gift-cards/redeem', { body: { merchant_wallet_id: 'mw_test_ada_usd', amount: 100, idempotency_key: idem('oa') } });
    const giftSchema = schemaOf('/v1/gift-cards/redeem', '201');
    assert.deepEqual(Object.keys(gift.json.data.transaction).sort(), Object.keys(deref(giftSchema.properties.transaction).properties).sort());
    assert.deepEqual(Object.keys(gift.json.data.wallet).sort(), Object.keys(deref(giftSchema.properties.wallet).properties).sort());
    const fleet = await emu.request('POST', '/v1/fleet-cards/redeem', { body: { fleet_card_id: 'fc_test_truck_01', category: 'fuel', amount_cents: 100, idempotency_key: idem('oa') } });
    const fleetSchema = schemaOf('/v1/fleet-cards/redeem', '201');
    assert.deepEqual(Object.keys(fleet.json.data.card).sort(), Object.keys(deref(fleetSchema.properties.card).properties).sort());
    // The body key is documented as a required body field as well as in the header's description.
    const body = deref(doc.paths['/v1/fleet-cards/redeem'].post.requestBody.content['application/json'].schema);
    assert.ok(body.required.includes('idempotency_key'));
  });
});
