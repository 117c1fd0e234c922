import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { tempDir } from '../helpers/emulator.js';
import { startCli } from '../cli/cli.js';

/**
 * `svc emulator start` as a user runs it (request lines on the console, a manual clock, no rate
 * limit, a log holding `logSize` entries) and a keep-alive agent of `sockets` to load it. close()
 * ends both; a start that never gets ready is ended before the error goes on.
 */
export async function consoleEmulator(prefix: string, logSize: number, sockets: number) {
  const dataDir = tempDir(prefix);
  const run = startCli(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--rate-limit', 'off', '--request-log', String(logSize), '--clock', 'manual']);
  const agent = new Agent({ keepAlive: true, maxSockets: sockets });
  const close = async () => {
    agent.destroy();
    await run.interrupt();
  };
  try {
    await run.waitFor(/Stop: Ctrl-C/);
  } catch (err) {
    await close();
    throw err;
  }
  const base = new URL(JSON.parse(readFileSync(join(dataDir, 'emulator.json'), 'utf8')).local_url);
  return { run, agent, base, close };
}
