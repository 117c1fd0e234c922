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
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
const extra = process.env.SVC_TEST_ARGS ? process.env.SVC_TEST_ARGS.split(" ") : [];
const result = spawnSync(process.execPath, [...extra, '--test', '--test-concurrency=2', '--test-timeout=120000', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
