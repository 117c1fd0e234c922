import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import type { AgentSpec } from './load-agent.js';
import type { LoadResult } from './load.js';

// The bench's side of load-agent.ts: a load whose generator runs in a child process started
// by `argv` (e.g. inside a network namespace). Same steps as a Load (warm up, measure slices,
// result), so rows measured this way are measured the way every other row is.

interface Answer {
  result?: LoadResult;
  cpuMs?: number | null;
}

export const AGENT_SCRIPT = fileURLToPath(new URL('./load-agent.js', import.meta.url));

export class AgentLoad {
  private readonly child: ChildProcess;
  private readonly answers: Array<(msg: Answer) => void> = [];
  private last: LoadResult | undefined;
  /** The server's CPU time during the measured slices (ms), when the spec asked for metrics. */
  cpuMs: number | null = null;
  private stderr = '';

  /** `wrap` turns `node load-agent.js` into the command that starts it where it must run. */
  constructor(wrap: (command: string, args: string[]) => [string, string[]]) {
    const [command, args] = wrap(process.execPath, [AGENT_SCRIPT]);
    this.child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (c: Buffer) => (this.stderr = (this.stderr + c.toString()).slice(-2000)));
    createInterface({ input: this.child.stdout! }).on('line', (line) => this.answers.shift()?.(JSON.parse(line)));
    this.child.once('exit', (code) => {
      for (const answer of this.answers.splice(0)) answer({});
      if (code !== 0) process.stderr.write(`bench: load agent exited with ${code}\n${this.stderr}\n`);
    });
  }

  private ask(msg: object): Promise<Answer> {
    return new Promise((ok, fail) => {
      this.answers.push((answer) => (answer.result !== undefined || 'ready' in answer || 'done' in answer ? ok(answer) : fail(new Error(`load agent stopped: ${this.stderr}`))));
      this.child.stdin!.write(`${JSON.stringify(msg)}\n`);
    });
  }

  async start(spec: AgentSpec): Promise<void> {
    await this.ask({ spec });
  }

  async warmUp(ms: number): Promise<void> {
    await this.ask({ warmUp: ms });
  }

  async measure(ms: number): Promise<void> {
    const answer = await this.ask({ measure: ms });
    this.last = answer.result;
    this.cpuMs = answer.cpuMs ?? null;
  }

  /** The numbers of every measured slice so far (the agent keeps them, as a Load does). */
  result(): LoadResult {
    if (!this.last) throw new Error('load agent: nothing measured yet');
    return this.last;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.child.stdin!.end();
    await exited;
  }
}
