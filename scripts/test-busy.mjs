// `npm run test:busy [filters…]`: the suite as it runs on a busy machine. Two CPU-bound processes
// (as many as this machine's CI has CPUs) spin beside `npm test`'s runner for its whole run and
// are killed when it ends, however it ends. The suite must pass like this: its limits scale with
// the work (scripts/run-tests.mjs), never with the assumption of an idle machine.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const HOGS = Number(process.env.SVC_TEST_HOGS) || 2;
const hogs = Array.from({ length: HOGS }, () => spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
process.on('exit', () => hogs.forEach((h) => h.kill('SIGKILL')));
console.error(`test-busy: ${HOGS} CPU-bound processes spin beside the suite (pids ${hogs.map((h) => h.pid).join(', ')})`);
const runner = spawn(process.execPath, [fileURLToPath(new URL('./run-tests.mjs', import.meta.url)), ...process.argv.slice(2)], { stdio: 'inherit' });
runner.on('close', (code) => process.exit(code ?? 1));
// A signal (a closed terminal's SIGHUP too, which would otherwise end this process without its
// 'exit' and leave the hogs spinning) goes on to the runner, which ends its tests; then the hogs go.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => (runner.kill(signal), process.exit(130)));
