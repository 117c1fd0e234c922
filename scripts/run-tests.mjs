// Runs every compiled test file (dist/test/**/*.test.js) with node:test.
// Node 20's --test takes no glob, so the files are listed here.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('../dist/test', import.meta.url).pathname;
const filter = process.argv.slice(2);
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.test.js') && (filter.length === 0 || filter.some((f) => path.includes(f)))) files.push(path);
  }
})(root);
if (files.length === 0) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=2', '--test-timeout=120000', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
