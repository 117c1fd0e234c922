import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROUTES, type RouteName } from '../contract/routes.js';
import { ROUTE_SCHEMAS } from '../contract/route-schemas.js';
import { allRoutes } from '../emulator/registry.js';
import { defineRoute } from '../emulator/gateway/route.js';

// The layering, checked on the sources: contract/ (schemas, scopes, the route table, error
// codes, the signature scheme) imports neither side; the emulator never imports the CLI or the
// client; src/ reaches the emulator only through emulator/index.ts, and only where it starts
// one (the CLI's `emulator start`/`exec`, the testing API).

const root = resolve(dirname(new URL(import.meta.url).pathname), '../..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(root, dir))) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** Every relative module a source file imports (static, dynamic and re-exports), repo-relative. */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((s) => relative(root, resolve(join(root, dirname(file)), s)).replace(/\.js$/, '.ts'));
}

const edges = (dir: string) => sources(dir).flatMap((file) => importsOf(file).map((target) => ({ file, target })));

test('contract/ imports nothing from emulator/ or src/', () => {
  const bad = edges('contract').filter((e) => !e.target.startsWith('contract/'));
  assert.deepEqual(bad, []);
});

test('emulator/ imports nothing from src/', () => {
  const bad = edges('emulator').filter((e) => e.target.startsWith('src/'));
  assert.deepEqual(bad, []);
});

test('src/ reaches the emulator only through emulator/index.ts, and only where it starts one', () => {
  const starters = ['src/cli/commands/emulator/start-run.ts', 'src/cli/commands/emulator/exec-run.ts', 'src/cli/commands/emulator/world-file.ts', 'src/testing/index.ts'];
  const intoEmulator = edges('src').filter((e) => e.target.startsWith('emulator/'));
  assert.deepEqual(intoEmulator.filter((e) => e.target !== 'emulator/index.ts'), [], 'only emulator/index.ts');
  assert.deepEqual(intoEmulator.filter((e) => !starters.includes(e.file)), [], 'only from the starters');
  assert.ok(intoEmulator.length > 0, 'the checks above ran on real imports');
});

test('every route of the contract has exactly one handler in the emulator, and no handler is outside the contract', () => {
  const bound = allRoutes().map((r) => r.name);
  assert.equal(new Set(bound).size, bound.length, 'no route bound twice');
  assert.deepEqual([...bound].sort(), Object.keys(ROUTES).sort());
  assert.deepEqual(Object.keys(ROUTE_SCHEMAS).sort(), Object.keys(ROUTES).sort());
});

test('a mounted route carries the contract facts of its name', () => {
  for (const route of allRoutes()) {
    const facts = ROUTES[route.name as RouteName];
    assert.equal(route.method.toUpperCase(), facts.method, route.name);
    assert.equal(route.path, facts.path, route.name);
    assert.equal(route.scope, facts.scope, route.name);
    assert.equal(route.response, ROUTE_SCHEMAS[route.name].response, route.name);
  }
});

// Compile-time checks: `npm run build` fails if a line marked @ts-expect-error compiles, so a
// handler that returns the wrong shape, reads a field its route does not parse, or names a
// route the contract lacks cannot slip in.
export const typeChecks = () => [
  // @ts-expect-error a payment link handler must return a PaymentLink
  defineRoute('getLink', () => ({ id: 'pl_1' })),
  // @ts-expect-error getLink has path parameters but no body
  defineRoute('getLink', (_ctx, { body }) => body.title),
  // @ts-expect-error no such route in the contract
  defineRoute('getLinks', () => null),
];
