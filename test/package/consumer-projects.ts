// The fresh projects the pack test installs the tarball for: one per way a merchant's project
// loads svc-toolkit. Each is a folder under the merchant app (whose node_modules holds the
// tarball and the runners), with its own package.json, so its own "type" decides ESM or
// CommonJS exactly as in a project of its own.

/** A project: its files, and the command that runs it from its folder (node's argv after `node`). */
export interface RunnerProject {
  kind: 'runner';
  name: string;
  files: Record<string, string>;
  args: string[];
  /** What the runner prints when the one test passed (the exit code must be 0 too). */
  passed: RegExp;
}

/** A TypeScript project: `tsc --strict` over app.ts (uses every entry right) and bad.ts (one wrong use). */
export interface TypeScriptProject {
  kind: 'tsc';
  name: string;
  files: Record<string, string>;
  /** For each file that imports the three entries: the declaration file each must resolve to. */
  resolves: Record<string, Record<string, string>>;
}

export type ConsumerProject = RunnerProject | TypeScriptProject;

const ENTRIES = ['svc-toolkit', 'svc-toolkit/webhooks', 'svc-toolkit/testing'] as const;
const ESM_TYPES = ['dist/src/index.d.ts', 'dist/src/webhooks/signature.d.ts', 'dist/src/testing/index.d.ts'];
const CJS_TYPES = ['dist/cjs/index.d.cts', 'dist/cjs/webhooks.d.cts', 'dist/cjs/testing.d.cts'];
const typesOf = (files: string[]) => Object.fromEntries(ENTRIES.map((entry, i) => [entry, files[i]]));

const ESM_IMPORTS = `import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import * as svc from 'svc-toolkit';
import { verifySignature } from 'svc-toolkit/webhooks';
import { startEmulator } from 'svc-toolkit/testing';`;

const CJS_REQUIRES = `const assert = require('node:assert/strict');
const { createServer } = require('node:http');
const { randomUUID } = require('node:crypto');
const svc = require('svc-toolkit');
const { verifySignature } = require('svc-toolkit/webhooks');
const { startEmulator } = require('svc-toolkit/testing');`;

/**
 * The merchant's test, the same in every runner: an emulator per file (the testing API), a
 * webhook endpoint on a server of the test's own, a link created and paid with the merchant
 * API, and the delivery's Svc-Signature checked with svc-toolkit/webhooks (and with the root
 * entry, on a changed body: refused). The emulator's clock is manual: the test moves it to the
 * delivery's first attempt instead of waiting for it.
 */
function merchantTest(head: string, loadedBuild: string): string {
  return `${head}

// Receives one webhook delivery on 127.0.0.1.
function receiver() {
  return new Promise((listening) => {
    let deliver;
    const delivery = new Promise((ok) => (deliver = ok));
    const server = createServer((req, res) => {
      let body = '';
      req.setEncoding('utf8');
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        res.end();
        deliver({ signature: req.headers['svc-signature'], body });
      });
    });
    server.listen(0, '127.0.0.1', () => listening({
      url: 'http://127.0.0.1:' + server.address().port + '/webhooks',
      delivery,
      close: () => { server.closeAllConnections(); server.close(); },
    }));
  });
}

let emu;
beforeAll(async () => { emu = await startEmulator({ clock: 'manual' }); });
afterAll(() => emu.close());

async function call(method, path, body) {
  const res = await fetch(emu.baseUrl + path, {
    method,
    headers: { authorization: 'Bearer ' + emu.key('acme-test'), 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(res.ok, method + ' ' + path + ': ' + res.status + ' ' + text);
  return JSON.parse(text).data;
}

test('a paid link sends a payment.completed webhook that verifies with svc-toolkit/webhooks', async () => {
  ${loadedBuild}
  const hook = await receiver();
  try {
    const { secret } = await call('POST', '/v1/api/webhook-endpoints', { url: hook.url, events: ['payment.completed'] });
    const link = await call('POST', '/v1/api/payment-links', { title: 'Pack test', amount: 1200, currency: 'USD' });
    await call('POST', '/v1/api/payment-links/' + link.id + '/simulate', {});
    await emu.clock.advanceToNextDelivery();
    const { signature, body } = await hook.delivery;
    assert.equal(JSON.parse(body).data.payment.payment_link_id, link.id);
    assert.equal(verifySignature({ secret, header: signature, body }).ok, true);
    assert.equal(svc.verifySignature({ secret, header: signature, body: body.replace('1200', '1201') }).ok, false);
  } finally {
    hook.close();
  }
});
`;
}

const manifest = (name: string, type: 'module' | 'commonjs') => JSON.stringify({ name, version: '1.0.0', private: true, type });
// Generous per-test limits: a loaded CI machine, and a hang still ends with the runner's message.
const RUNNER_TIMEOUT = '30000';

const TS_APP = `import { signPayload, verifySignature, type VerifyResult } from 'svc-toolkit';
import * as webhooks from 'svc-toolkit/webhooks';
import { startEmulator, type TestEmulator, type EventRecord } from 'svc-toolkit/testing';

const header: string = signPayload('whsec_x', '{}', 1);
const result: VerifyResult = webhooks.verifySignature({ secret: 'whsec_x', header, body: '{}' });

export async function useIt(): Promise<string> {
  const emu: TestEmulator = await startEmulator({ clock: 'manual', rateLimit: 'off' });
  const event: EventRecord = await emu.waitForEvent((e) => e.type === 'payment.completed', { timeout: 10 });
  await emu.clock.advance('1h');
  await emu.close();
  return event.id + String(result.ok) + String(verifySignature === webhooks.verifySignature);
}
`;
// The one error tsc must report: the types are real, not `any`.
const TS_BAD = `import { startEmulator } from 'svc-toolkit/testing';
export async function wrong(): Promise<number> {
  return (await startEmulator()).baseUrl;
}
`;

function typescriptProject(name: string, type: 'module' | 'commonjs', compilerOptions: Record<string, unknown>, resolves: TypeScriptProject['resolves']): TypeScriptProject {
  const apps = Object.keys(resolves);
  const tsconfig = {
    // `types`: only node's, not every @types package the runners beside it brought.
    compilerOptions: { target: 'es2022', strict: true, noEmit: true, types: ['node'], ...compilerOptions },
    files: [...apps, 'bad.ts'],
  };
  return { kind: 'tsc', name, resolves, files: { 'package.json': manifest(name, type), 'tsconfig.json': JSON.stringify(tsconfig, null, 2), ...Object.fromEntries(apps.map((f) => [f, TS_APP])), 'bad.ts': TS_BAD } };
}

export const CONSUMER_PROJECTS: ConsumerProject[] = [
  {
    kind: 'runner',
    name: 'node-test-esm',
    files: {
      'package.json': manifest('node-test-esm', 'module'),
      'merchant.test.js': merchantTest(`import { test, before as beforeAll, after as afterAll } from 'node:test';\n${ESM_IMPORTS}`, `assert.match(import.meta.resolve('svc-toolkit/testing'), /dist\\/testing\\/index\\.js$/);`),
    },
    args: ['--test', '--test-reporter=tap', `--test-timeout=${RUNNER_TIMEOUT}`],
    passed: /^# pass 1$/m,
  },
  {
    kind: 'runner',
    name: 'vitest',
    files: {
      'package.json': manifest('vitest', 'module'),
      'merchant.test.js': merchantTest(`import { test, beforeAll, afterAll } from 'vitest';\n${ESM_IMPORTS}`, ''),
    },
    args: ['../../node_modules/vitest/vitest.mjs', 'run', '--reporter=verbose', '--testTimeout', RUNNER_TIMEOUT],
    passed: /Tests\s+1 passed/,
  },
  {
    // jest's default: CommonJS, `require` — the CommonJS build.
    kind: 'runner',
    name: 'jest-cjs',
    files: {
      'package.json': manifest('jest-cjs', 'commonjs'),
      'merchant.test.js': merchantTest(CJS_REQUIRES, `assert.match(require.resolve('svc-toolkit/testing'), /dist\\/cjs\\/testing\\.cjs$/);`),
    },
    args: ['../../node_modules/jest/bin/jest.js', '--ci', '--watchman=false', '--cacheDirectory', '.jest-cache', '--testTimeout', RUNNER_TIMEOUT],
    passed: /Tests:\s+1 passed, 1 total/,
  },
  {
    // jest's ES module mode, as its docs give it: node --experimental-vm-modules.
    kind: 'runner',
    name: 'jest-esm',
    files: {
      'package.json': manifest('jest-esm', 'module'),
      'merchant.test.js': merchantTest(ESM_IMPORTS, `assert.equal(typeof require, 'undefined', 'the test runs as an ES module');`),
    },
    args: ['--experimental-vm-modules', '../../node_modules/jest/bin/jest.js', '--ci', '--watchman=false', '--cacheDirectory', '.jest-cache', '--testTimeout', RUNNER_TIMEOUT],
    passed: /Tests:\s+1 passed, 1 total/,
  },
  // TS1479 here before the CommonJS build: a CommonJS file may not import an ES module's types.
  typescriptProject('ts-node16-cjs', 'commonjs', { module: 'node16', moduleResolution: 'node16' }, { 'app.ts': typesOf(CJS_TYPES) }),
  typescriptProject('ts-node16-esm', 'module', { module: 'node16', moduleResolution: 'node16' }, { 'app.ts': typesOf(ESM_TYPES) }),
  // Both kinds of file in one nodenext project: .ts is ESM here ("type": "module"), .cts CommonJS.
  typescriptProject('ts-nodenext', 'module', { module: 'nodenext', moduleResolution: 'nodenext' }, { 'app.ts': typesOf(ESM_TYPES), 'app.cts': typesOf(CJS_TYPES) }),
  typescriptProject('ts-bundler', 'module', { module: 'esnext', moduleResolution: 'bundler' }, { 'app.ts': typesOf(ESM_TYPES) }),
  // node10 reads no `exports`: "types" for the root, `typesVersions` for the subpaths (TS2307
  // before). esModuleInterop, as `tsc --init` sets it: zod's own declarations need it here.
  typescriptProject('ts-node10', 'commonjs', { module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true }, { 'app.ts': typesOf(CJS_TYPES) }),
];
