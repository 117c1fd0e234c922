import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Router } from 'express';
import { request, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { packageFile } from '../../emulator/assets.js';
import { allControlRoutes, controlRouter } from '../../emulator/control/router.js';
import { defineControl } from '../../emulator/control/route.js';
import { openApiPath } from '../../emulator/openapi/document.js';
import { toYaml } from '../../emulator/openapi/yaml.js';
import { CONTROL_PREFIX, CONTROL_ROUTES, type ControlRouteName } from '../../contract/control/routes.js';
import { CONTROL_SCHEMAS } from '../../contract/control/schemas.js';
import { ControlContract } from './control-contract.js';

// GET /_emulator/openapi.yaml: linted by Redocly with the project's configuration (served at
// /redocly.yaml, as for /openapi.yaml), read back as exactly the JSON document, and compared
// with what the control router really mounts — its express route table, not a list kept for
// the test — so a route added without a contract entry, or a contract entry without a route,
// fails here. Answers of the routes themselves are checked in responses.test.ts.

const REDOCLY = packageFile('node_modules/.bin/redocly');

let emu: TestEmulator;
let dir: string;
let doc: any;
let yamlText: string;
let lint: Promise<{ status: number; output: string }>;

function redocly(...args: string[]): Promise<{ status: number; output: string }> {
  return new Promise((resolve) => {
    execFile(
      REDOCLY,
      args,
      { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' } },
      (err, stdout, stderr) => resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, output: `${stdout}\n${stderr}` }),
    );
  });
}

/** What the control router answers: method and path of every route in its express stack. */
function mountedRoutes(router: Router): string[] {
  const out: string[] = [];
  for (const layer of router.stack as Array<{ route?: { path: string; methods: Record<string, boolean> } }>) {
    if (!layer.route) continue;
    for (const [method, on] of Object.entries(layer.route.methods)) if (on) out.push(`${method} ${CONTROL_PREFIX}${layer.route.path}`);
  }
  return out;
}

before(async () => {
  emu = await startTestEmulator({ store: 'memory' });
  dir = mkdtempSync(join(tmpdir(), 'svc-control-openapi-'));
  const config = await request(emu.baseUrl, 'GET', '/redocly.yaml', { key: null });
  assert.equal(config.status, 200);
  writeFileSync(join(dir, 'redocly.yaml'), config.text);
  const yaml = await request(emu.baseUrl, 'GET', '/_emulator/openapi.yaml', { key: null });
  assert.equal(yaml.status, 200);
  assert.match(yaml.headers.get('content-type') ?? '', /^application\/yaml/);
  yamlText = yaml.text;
  writeFileSync(join(dir, 'control-openapi.yaml'), yamlText);
  const json = await request(emu.baseUrl, 'GET', '/_emulator/openapi.json', { key: null });
  assert.equal(json.status, 200);
  assert.match(json.headers.get('content-type') ?? '', /^application\/json/);
  doc = json.json;
  lint = redocly('lint', 'control-openapi.yaml', '--format', 'stylish');
});
after(async () => {
  await emu.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the control document is valid OpenAPI 3.1', () => {
  test('redocly lint (the project configuration) exits 0 with no errors and no warnings', async () => {
    const { status, output } = await lint;
    assert.equal(status, 0, output);
    assert.match(output, /Your API description is valid/, output);
    assert.doesNotMatch(output, /You have \d+ warnings?|\berrors?\b/i, output);
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.servers[0].url, emu.baseUrl);
  });

  test('the YAML is the JSON document, written by the same emitter as /openapi.yaml', () => {
    assert.equal(yamlText, toYaml(doc));
  });

  test('it is served beside /openapi.yaml, without the control token or the router, and describes only the control API', async () => {
    // The merchant document does not list control routes, nor the control document merchant ones.
    const merchant = (await request(emu.baseUrl, 'GET', '/openapi.json', { key: null })).json;
    assert.ok(Object.keys(merchant.paths).every((p) => p.startsWith('/v1/')));
    assert.ok(Object.keys(doc.paths).every((p) => p.startsWith(`${CONTROL_PREFIX}/`)));
    // The control router refuses an Authorization header; the documents (which only describe) do not.
    const withAuth = await request(emu.baseUrl, 'GET', '/_emulator/openapi.json', { key: 'svc_test_whatever' });
    assert.equal(withAuth.status, 200);
  });

  test('the control token is a documented security scheme, optional on loopback', () => {
    assert.deepEqual(doc.components.securitySchemes.controlToken, { ...doc.components.securitySchemes.controlToken, type: 'apiKey', in: 'header', name: 'Svc-Control-Token' });
    assert.match(doc.components.securitySchemes.controlToken.description, /not on the emulator's machine/);
    assert.deepEqual(doc.security, [{}, { controlToken: [] }]);
  });
});

describe('every route the control router mounts is in it, from the contract', () => {
  test('the router binds each contract route exactly once, with the contract schemas', () => {
    const routes = allControlRoutes();
    const names = routes.map((r) => r.name);
    assert.equal(new Set(names).size, names.length, 'no route bound twice');
    assert.deepEqual([...names].sort(), Object.keys(CONTROL_ROUTES).sort());
    assert.deepEqual(Object.keys(CONTROL_SCHEMAS).sort(), Object.keys(CONTROL_ROUTES).sort());
    for (const route of routes) {
      const facts = CONTROL_ROUTES[route.name];
      assert.equal(route.method.toUpperCase(), facts.method, route.name);
      assert.equal(route.path, facts.path, route.name);
      assert.equal(route.response, CONTROL_SCHEMAS[route.name].response, route.name);
    }
  });

  test("one operation per route in the router's express stack, and nothing else", () => {
    const mounted = mountedRoutes(controlRouter(emu.services));
    assert.ok(mounted.length >= 50, `the router mounts ${mounted.length} routes`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops as object).map((m) => `${m} ${path}`));
    assert.deepEqual(documented.sort(), mounted.map((r) => openApiPath(r)).sort());
  });

  test('each operation: its name, request schema, success status, a response schema, and the errors the door and the router answer', () => {
    for (const route of allControlRoutes()) {
      const label = `${route.method} ${route.path}`;
      const op = doc.paths[openApiPath(CONTROL_PREFIX + route.path)][route.method];
      assert.equal(op.operationId, route.name, label);
      assert.deepEqual(op.tags, [CONTROL_ROUTES[route.name as ControlRouteName].tag], label);
      assert.equal(Boolean(op.requestBody), Boolean(route.body), `${label}: request body`);
      const queryParams = op.parameters.filter((p: any) => p.in === 'query');
      assert.equal(queryParams.length > 0, Boolean(route.query), `${label}: query parameters`);
      for (const [, name] of route.path.matchAll(/:(\w+)/g)) {
        assert.ok(op.parameters.some((p: any) => p.in === 'path' && p.name === name && p.required === true), `${label}: path parameter ${name}`);
      }
      const status = String(route.status ?? 200);
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      assert.deepEqual(success, [status], label);
      const envelope = op.responses[status].content['application/json'].schema;
      assert.deepEqual(envelope.required, ['success', 'data'], label);
      const data = envelope.properties.data;
      assert.ok(data.$ref || data.type || data.anyOf, `${label}: the data has a schema (${JSON.stringify(data)})`);
      for (const [code, name] of [
        ['401', 'UNAUTHORIZED'],
        ['403', 'FORBIDDEN'],
        ['422', 'VALIDATION_ERROR'],
        ['500', 'INTERNAL_ERROR'],
        ['503', 'SERVICE_UNAVAILABLE'],
      ]) {
        const res = op.responses[code];
        assert.ok(res, `${label}: ${code} documented`);
        assert.deepEqual(res.content['application/json'].schema, { $ref: '#/components/schemas/ErrorEnvelope' }, `${label} ${code}`);
        assert.ok(res.content['application/json'].examples[name], `${label} ${code} ${name}`);
      }
      for (const code of route.errors ?? []) assert.ok(Object.values(op.responses).some((r: any) => r.content?.['application/json']?.examples?.[code]), `${label}: ${code}`);
      assert.ok(op.responses['401'].headers['Svc-Guard'] && op.responses['403'].headers['Svc-Guard'], `${label}: Svc-Guard on the door's refusals`);
    }
    // The envelope names the codes of this API's routes: the PIN and state codes only it sends (the merchant document's leaves them out).
    const listed: string[] = doc.components.schemas.ErrorEnvelope.properties.error.properties.code.enum;
    assert.deepEqual([...listed].sort(), [...new Set(allControlRoutes().flatMap((r) => Object.values(doc.paths[openApiPath(CONTROL_PREFIX + r.path)][r.method].responses).flatMap((res: any) => Object.keys(res.content?.['application/json']?.examples ?? {}))))].sort());
    for (const code of ['PIN_INVALID', 'PIN_LOCKED', 'INVALID_STATE']) assert.ok(listed.includes(code), code);
  });

  test("the door's refusals are the documented ones (401 UNAUTHORIZED, 403 FORBIDDEN, with Svc-Guard), on every route", async () => {
    const contract = new ControlContract(doc);
    for (const route of allControlRoutes()) {
      const path = CONTROL_PREFIX + route.path.replace(/:(\w+)/g, 'x');
      const withKey = await request(emu.baseUrl, route.method.toUpperCase(), path, { key: 'svc_test_acme0all0scopes0000000000001', body: route.method === 'get' ? undefined : {} });
      assert.equal(withKey.status, 403, path);
      assert.equal(withKey.headers.get('svc-guard'), 'authorization', path);
      contract.check(route.method, path, withKey);
      const foreignHost = await request(emu.baseUrl, route.method.toUpperCase(), path, { key: null, headers: { host: 'attacker.example' } });
      assert.equal(foreignHost.status, 403, path);
      assert.equal(foreignHost.headers.get('svc-guard'), 'host', path);
      contract.check(route.method, path, foreignHost);
      // A control token in the query string is refused (only the dashboard's login link takes one).
      const queryToken = await request(emu.baseUrl, route.method.toUpperCase(), `${path}?token=abcdefghijklmnop`, { key: null });
      assert.equal(queryToken.status, 401, path);
      assert.equal(queryToken.headers.get('svc-guard'), 'token', path);
      contract.check(route.method, path, queryToken);
    }
  });
});

// Compile-time checks: `npm run build` fails if a line marked @ts-expect-error compiles, so a
// control handler that returns another shape than its contract response schema, reads a body
// its route does not parse, or names a route the contract lacks cannot slip in.
export const typeChecks = () => [
  // @ts-expect-error GET /_emulator/clock must answer the whole ClockState (pending_timers is missing)
  defineControl('clock', { handler: () => ({ mode: 'manual' as const, now: '2026-01-01T00:00:00.000000Z' }) }),
  // @ts-expect-error a payee's status is one of the contract's, not any string
  defineControl('revokePayee', { handler: () => ({ id: 'p', merchant_id: 'm', environment: 'test' as const, name: 'n', currency: 'USD' as const, per_payout_cap: 1, daily_cap: 1, status: 'gone', created_at: 'x' }) }),
  // @ts-expect-error GET /_emulator/health takes no body
  defineControl('health', { handler: (_s, { body }) => ({ ok: true as const, service: body.service }) }),
  // @ts-expect-error no such control route in the contract
  defineControl('clocks', { handler: () => null }),
];
