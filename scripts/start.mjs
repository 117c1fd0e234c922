// `npm start [-- <flags>]`: `svc emulator start` of this checkout, after bundling the CLI only
// when its sources changed since it was last bundled (scripts/lib/build-stamp.mjs). The bundle is
// made by esbuild straight from the TypeScript sources (`build-bundles.mjs --cli-from-source`,
// a few seconds): nothing is type-checked here. `npm run typecheck` and `npm test` do that, and
// the tests never run on this bundle (it marks dist/ as not the full build).
// With nothing changed it runs the CLI in this same process, so a restart costs one stat per
// source file on top of `node bin/svc.js emulator start`.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { cliDigest, clearStamp, readStamp, writeStamp } from './lib/build-stamp.mjs';

const digest = cliDigest();
if (readStamp().cli !== digest) {
  clearStamp();
  const started = performance.now();
  console.error('npm start: bundling the CLI from src/ (esbuild; `npm run typecheck` type-checks)');
  const built = spawnSync(process.execPath, [fileURLToPath(new URL('build-bundles.mjs', import.meta.url)), '--cli-from-source'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (built.status !== 0) process.exit(built.status ?? 1);
  writeStamp({ full: null, cli: digest });
  console.error(`npm start: bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
// What bin/svc.js does when it is the program (required, it runs nothing): the CLI's main() on
// `svc emulator start <flags>`, its exit code the process's.
const require = createRequire(import.meta.url);
const argv = [process.argv[0], fileURLToPath(new URL('../bin/svc.js', import.meta.url)), 'emulator', 'start', ...process.argv.slice(2)];
process.exitCode = await require('../dist/cli/fast.cjs').main(argv, () => require('../package.json').version);
