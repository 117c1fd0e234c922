#!/usr/bin/env node
// The published entry: compiled JavaScript only (run `npm run build` after editing src/).
// `--version` is answered before anything else loads: CI scripts call it to probe the tool.
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version}\n`);
} else {
  let cli;
  try {
    cli = await import('../dist/src/cli/main.js');
  } catch (err) {
    if (err && err.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/src/cli/main.js')) {
      process.stderr.write('svc is not built yet: run `npm run build` in its folder.\n');
      process.exit(2);
    }
    throw err;
  }
  process.exitCode = await cli.main(process.argv, version);
}
