import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import type { CliIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { cliResult, type CliOptions, type CliResult } from './cli-result.js';

// `svc <args>` as main() in this process, with an IO of its own: stdout and stderr collected
// (not terminals), stdin closed or fed from `input` (not a terminal either, so nothing
// prompts), an environment of NO_COLOR and what the test gives (never this process's SVC_* or
// CI), and the test's folder. Tests in one file run one after another, so two runs never
// share the process at once. A run that does not finish in time is reported as hung.

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

/** Keeps what is written, like a pipe into a file (a test may mark it a terminal: isTTY). */
export class Collected extends Writable {
  isTTY?: boolean;
  text = '';
  constructor() {
    super({ decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

/** NO_COLOR, then `extra` (undefined leaves a name out). */
function inProcessEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { NO_COLOR: '1' };
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** The IO of one in-process run, its output streams typed as what they are. */
export function testIO(opts: CliOptions = {}): CliIO & { stdout: Collected; stderr: Collected } {
  return {
    stdout: new Collected(),
    stderr: new Collected(),
    stdin: Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input)]),
    env: inProcessEnv(opts.env),
    cwd: opts.cwd ?? process.cwd(),
    sleep: opts.sleep,
  };
}

export async function runInProcess(args: string[], opts: CliOptions = {}, io = testIO(opts)): Promise<CliResult> {
  const { stdout, stderr } = io;
  const timeoutMs = opts.timeoutMs ?? 20_000;
  let guard: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_ok, fail) => {
    guard = setTimeout(() => fail(new Error(`svc ${args.join(' ')} hung for ${timeoutMs} ms\nstdout: ${stdout.text}\nstderr: ${stderr.text}`)), timeoutMs);
  });
  try {
    const code = await Promise.race([main(['node', 'svc', ...args], version, io), hung]);
    return cliResult(args, code, stdout.text, stderr.text);
  } finally {
    clearTimeout(guard);
  }
}
