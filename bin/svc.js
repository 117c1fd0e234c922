#!/usr/bin/env node
// The published entry: compiled JavaScript only (run `npm run build` after editing src/).
// CommonJS (bin/package.json), like the CLI bundle it loads (dist/cli/, scripts/build-bundles.mjs):
// Node's CommonJS loader reads a file synchronously, its ES module loader does not, and a CLI
// that CI scripts call in loops pays that on every start.
// `--version` is answered before anything else loads: CI scripts call it to probe the tool.
'use strict';
// package.json is read only by a command line that prints the version (--version, --help).
const version = () => require('../package.json').version;

const args = process.argv.slice(2);
if (require.main !== module) {
  // Required, not run: the export (`svc-toolkit/bin/svc.js`) is there to find the file and spawn it.
} else if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version()}\n`);
} else {
  let cli;
  try {
    cli = require('../dist/cli/fast.cjs');
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND' && String(err.message).startsWith("Cannot find module '../dist/cli/fast.cjs'")) {
      process.stderr.write('svc is not built yet: run `npm run build` in its folder.\n');
      process.exit(2);
    }
    throw err;
  }
  cli.main(process.argv, version).then((code) => {
    process.exitCode = code;
  });
}
