// `npm run test:node -- 24 [filters]`: the suite (or the files matching the filters, as
// scripts/run-tests.mjs takes them) under Node.js 24, or 22: the runtime from npm's
// node-<platform>-<arch> package, fetched and checked as `npm run build:exe` fetches it
// (scripts/lib/node-runtime.mjs), first on the PATH so that every `node` the tests start, npm's
// own included, is that one. `npm run test:node` builds first, as `npm test` does.
import { spawn } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeRuntime, RuntimeError } from './lib/node-runtime.mjs';

const [major, ...filters] = process.argv.slice(2);
let runtime;
try {
  if (major === undefined) throw new RuntimeError('which Node.js? npm run test:node -- 24 (or 22), then any run-tests filters');
  runtime = nodeRuntime(major);
} catch (err) {
  if (!(err instanceof RuntimeError)) throw err;
  console.error(`test:node: ${err.message}`);
  process.exit(2);
}
console.error(`test:node: Node.js ${runtime.version} (${runtime.source}): ${runtime.path}`);
const env = { ...process.env, PATH: `${dirname(runtime.path)}${delimiter}${process.env.PATH}` };
const child = spawn(runtime.path, [fileURLToPath(new URL('run-tests.mjs', import.meta.url)), ...filters], { stdio: 'inherit', env });
// The runner ends its own test processes on a signal; this script only passes it on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
