// Runs every compiled test file (dist/test/**/*.test.js) with node:test.
// Node 20's --test takes no glob, so the files are listed here.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('../dist/test', import.meta.url).pathname;
const sources = new URL('../test', import.meta.url).pathname;
// tsc never deletes outputs: a compiled test whose source was removed or renamed is stale.
const hasSource = (compiled) => existsSync(sources + compiled.slice(root.length).replace(/\.js$/, '.ts'));
const filter = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.js') && hasSource(path) && (filter.length === 0 || filter.some((f) => path.includes(f)))) files.push(path);
  }
})(root);
// The longest files start first (browser, package, crash and compiler tests, measured at
// 10–70 s each against 1–5 s for the rest): started last, they would run on alone at the end
// while the other CPU sits idle.
const FIRST = ['package/pack', 'dashboard/dashboard', 'pages/', 'emulator/store-durability', 'dashboard/faults', 'cli/emulator-world', 'emulator/openapi-types', 'http/cross-site-browser', 'emulator/start-command', 'cli/webhooks-listen-failures'];
const rank = (path) => {
  const i = FIRST.findIndex((f) => path.includes(`/${f}`));
  return i === -1 ? FIRST.length : i;
};
files.sort((a, b) => rank(a) - rank(b));
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
// SVC_TEST_ARGS: more `node --test` flags (a reporter, another concurrency), after ours so they win.
const extra = process.env.SVC_TEST_ARGS ? process.env.SVC_TEST_ARGS.split(' ') : [];
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=120000', ...extra, ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
