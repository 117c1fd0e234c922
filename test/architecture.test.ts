import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ROUTES, type RouteName } from '../contract/routes.js';
import { ROUTE_SCHEMAS } from '../contract/route-schemas.js';
import { allRoutes } from '../emulator/registry.js';
import { defineRoute } from '../emulator/gateway/route.js';
import ts from 'typescript';

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
  const starters = ['src/cli/commands/emulator/start-run.ts', 'src/cli/commands/emulator/exec-run.ts', 'src/cli/commands/emulator/world-file.ts', 'src/testing/emulator.ts'];
  const intoEmulator = edges('src').filter((e) => e.target.startsWith('emulator/') && e.target !== SENDER);
  assert.deepEqual(intoEmulator.filter((e) => e.target !== 'emulator/index.ts'), [], 'only emulator/index.ts');
  assert.deepEqual(intoEmulator.filter((e) => !starters.includes(e.file)), [], 'only from the starters');
  assert.ok(intoEmulator.length > 0, 'the checks above ran on real imports');
});

// The one other door: the delivery engine's HTTP sender, which `svc webhooks check` sends its
// crafted deliveries with (so a receiver is graded on what the engine counts). It is a leaf: it
// imports nothing of the emulator, so the check loads no more than the sender.
const SENDER = 'emulator/webhooks/sender.ts';

test('the webhook sender is shared by the engine and webhooks check, and imports nothing of the emulator', () => {
  assert.deepEqual(importsOf(SENDER).filter((t) => !t.startsWith('contract/')), []);
  const users = (dir: string) => edges(dir).filter((e) => e.target === SENDER).map((e) => e.file);
  assert.deepEqual(users('src'), ['src/webhooks/check/index.ts']);
  assert.ok(users('emulator').includes('emulator/webhooks/engine.ts'));
  assert.deepEqual(sources('contract').filter((f) => /['"](?:undici|node:(?:https?|net|tls))['"]/.test(readFileSync(join(root, f), 'utf8'))), [], 'contract/ holds no HTTP client');
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

// Per-emulator state is a field of the emulator's Services (emulator/services.ts), never module
// state: two emulators in one process (a test file, the testing API) must share nothing. A
// module-level `let` assigned inside a function, or a module-level object, array, Map, Set or
// WeakMap (declared there or imported) that a function changes, is module state. Constants
// (a Set of names only read) are not. The one exception is emulator/performance/process-caches.ts:
// caches that no emulator can tell it shares (random bytes, formatted seconds, currency formats).
const MUTATORS = new Set(['set', 'add', 'delete', 'clear', 'push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);

function moduleState(file: string, text: string): string[] {
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lets = new Set<string>();
  const holders = new Set<string>();
  for (const st of tree.statements) {
    if (ts.isImportDeclaration(st) && st.importClause?.namedBindings && ts.isNamedImports(st.importClause.namedBindings) && !st.importClause.isTypeOnly) {
      for (const e of st.importClause.namedBindings.elements) holders.add(e.name.text);
    }
    if (!ts.isVariableStatement(st)) continue;
    const constant = (st.declarationList.flags & ts.NodeFlags.Const) !== 0;
    for (const d of st.declarationList.declarations) {
      if (!ts.isIdentifier(d.name)) continue;
      if (!constant) lets.add(d.name.text);
      else if (d.initializer && (ts.isNewExpression(d.initializer) || ts.isArrayLiteralExpression(d.initializer) || ts.isObjectLiteralExpression(d.initializer))) holders.add(d.name.text);
    }
  }
  const found: string[] = [];
  const at = (n: ts.Node) => `${file}:${tree.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const assigned = (n: ts.Node) => {
    const p = n.parent;
    if (ts.isBinaryExpression(p)) return p.left === n && p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment && p.operatorToken.kind <= ts.SyntaxKind.LastAssignment;
    return (ts.isPrefixUnaryExpression(p) || ts.isPostfixUnaryExpression(p)) && (p.operator === ts.SyntaxKind.PlusPlusToken || p.operator === ts.SyntaxKind.MinusMinusToken);
  };
  const visit = (n: ts.Node, inFunction: boolean): void => {
    if (inFunction && ts.isIdentifier(n)) {
      if (lets.has(n.text) && assigned(n)) found.push(`${at(n)}: let ${n.text} changes after load`);
      if (holders.has(n.text)) {
        const p = n.parent;
        if (ts.isPropertyAccessExpression(p) && p.expression === n && MUTATORS.has(p.name.text) && ts.isCallExpression(p.parent) && p.parent.expression === p) {
          found.push(`${at(n)}: ${n.text}.${p.name.text}()`);
        }
        let outer: ts.Node = n;
        while ((ts.isPropertyAccessExpression(outer.parent) || ts.isElementAccessExpression(outer.parent)) && outer.parent.expression === outer) outer = outer.parent;
        if (outer !== n && assigned(outer)) found.push(`${at(n)}: ${n.text}'s fields change`);
      }
    }
    ts.forEachChild(n, (c) => visit(c, inFunction || ts.isFunctionLike(n)));
  };
  visit(tree, false);
  return found;
}

test('no module state under emulator/: what an emulator keeps is a field of its Services', () => {
  // The scan itself, on two small modules: one with state, one with constants only.
  assert.equal(moduleState('a.ts', 'let n = 0;\nconst seen = new Map();\nexport function f() { n++; seen.set(1, 2); }').length, 2);
  assert.deepEqual(moduleState('b.ts', "let ready = false;\nready = true;\nconst NAMES = new Set(['a']);\nexport const known = (s: string) => ready && NAMES.has(s);"), []);
  const allowed = ['emulator/performance/process-caches.ts'];
  const scanned = sources('emulator').filter((f) => !allowed.includes(f));
  assert.deepEqual(
    scanned.flatMap((f) => moduleState(f, readFileSync(join(root, f), 'utf8'))),
    [],
  );
  assert.ok(moduleState(allowed[0], readFileSync(join(root, allowed[0]), 'utf8')).length > 0, 'the allowed file still holds what it is allowed to');
});

// A runtime import cycle makes load order matter (a module can run before what it imports has
// run). Read from the compiled JavaScript, which holds only the imports that run: `import type`
// and imports used only as types are gone. A dynamic import() runs after both modules have
// loaded, so it closes no cycle (the CLI loads each command's code that way).
const staticImports = (dir: string) => declaredImports(dir, (file) => join(root, 'dist', file.replace(/\.ts$/, '.js')));
// Types count too: a module in a cycle of imports, `import type` included, cannot be read without
// the whole cycle. Read from the sources, which still hold every import.
const typeImports = (dir: string) => declaredImports(dir, (file) => join(root, file));

/** Each module's import and export declarations of relative modules, read from where `at` says it is. */
function declaredImports(dir: string, at: (file: string) => string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(dir)) {
    if (!existsSync(at(file))) continue; // a declaration-only source
    const tree = ts.createSourceFile(file, readFileSync(at(file), 'utf8'), ts.ScriptTarget.Latest);
    const targets = tree.statements.flatMap((st) =>
      (ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) && st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) && st.moduleSpecifier.text.startsWith('.')
        ? [relative(root, resolve(join(root, dirname(file)), st.moduleSpecifier.text)).replace(/\.js$/, '.ts')]
        : [],
    );
    graph.set(file, targets);
  }
  return graph;
}

/** Every cycle's modules (strongly connected components of more than one module, or a module importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const strong = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        strong(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = stack.splice(stack.indexOf(v));
    if (component.length > 1 || graph.get(v)?.includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) strong(v);
  return found;
}

test('no runtime import cycle in contract/, emulator/ or src/', () => {
  const toy = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
  assert.deepEqual(cycles(toy), [['a', 'b', 'c']], 'the cycle finder finds a cycle');
  const graph = new Map(['contract', 'emulator', 'src'].flatMap((dir) => [...staticImports(dir)]));
  assert.ok(graph.size > 100 && [...graph.values()].some((t) => t.length > 0), 'the compiled modules were read');
  assert.deepEqual(cycles(graph), []);
});

// Issue 48: services.ts names its parts by type only, so the modules that name `Services` stay
// outside its cycle; the bound is what keeps a run-time import (or one part too many) from pulling
// the emulator back into one knot (92 modules before).
test('import cycles counting `import type` hold at most 20 modules each', () => {
  const graph = new Map(['contract', 'emulator', 'src'].flatMap((dir) => [...typeImports(dir)]));
  assert.ok(graph.get('emulator/gateway/route.ts')?.includes('emulator/services.ts'), 'type-only imports are edges');
  const [largest = []] = cycles(graph).sort((a, b) => b.length - a.length);
  assert.ok(largest.length <= 20, `a knot of ${largest.length} modules: ${largest.join(', ')}`);
});

// Issue 48: express types res.locals as Record<string, any>, so a value not declared in
// Express.Locals (emulator/http/locals.ts) would be read and written as `any`. The list below must
// name exactly the declared ones, or the build fails; the test refuses any other use of `locals`.
const DECLARED_LOCALS: Record<keyof Express.Locals, true> = { traceId: true, keyRecord: true, requestLog: true, coverage: true };

test('every res.locals access names a value declared in Express.Locals', () => {
  const seen: string[] = [];
  const untyped: string[] = [];
  for (const file of ['contract', 'emulator', 'src'].flatMap(sources)) {
    const tree = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      // Any identifier `locals`: `res.locals.traceId` passes, `res.locals.other`, `const { locals } = res` do not.
      if (ts.isIdentifier(node) && node.text === 'locals') {
        const access = node.parent;
        const name = ts.isPropertyAccessExpression(access) && ts.isPropertyAccessExpression(access.parent) && access.parent.expression === access ? access.parent.name.text : undefined;
        (name !== undefined && Object.hasOwn(DECLARED_LOCALS, name) ? seen : untyped).push(`${file}: ${access.parent.getText()}`);
      }
      ts.forEachChild(node, visit);
    };
    visit(tree);
  }
  assert.deepEqual(untyped, []);
  assert.ok(seen.length >= 5, `the known accesses were found (${seen.length})`);
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
