// The compose recipe's test service (Node's standard library only): the JS checks (run.mjs),
// then the repository's example suites in Python and Java (examples/python, examples/java)
// against the emulator service, each as its own process. Every one runs, so a failure in one
// does not hide the others; the exit code is 1 if any failed.
//
// The suites' webhook receivers listen on every interface and register themselves as
// http://app:<port> (EXAMPLE_RECEIVER_BIND, EXAMPLE_RECEIVER_NAME): this service shares the
// app service's network (network_mode: service:app), and the emulator allows the name app.

import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const examples = join(here, '..', '..');
const runs = [
  ['JS checks', process.execPath, [join(here, 'run.mjs')]],
  ['Python suite', 'python3', ['-m', 'unittest', 'discover', '-s', join(examples, 'python'), '-v']],
  ['Java suite', 'sh', [join(examples, 'java', 'run.sh')]],
];
const failed = [];
for (const [name, command, args] of runs) {
  console.log(`== ${name}`);
  // The example folders are mounted read-only: Python writes no bytecode next to them.
  const run = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
  if (run.status !== 0) failed.push(`${name} (${run.error ? run.error.message : `exit ${run.status ?? run.signal}`})`);
}
console.log(failed.length === 0 ? '== all suites passed' : `== failed: ${failed.join(', ')}`);
process.exit(failed.length === 0 ? 0 : 1);
