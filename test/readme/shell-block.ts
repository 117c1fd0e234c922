import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { compareShape, parseElided } from './json-shape.js';
import type { Block } from './readme-blocks.js';

// How the blocks test runs a ```sh block of the README or a docs page: every command by bash, one
// after the other, in the block's own project folder, the way a reader types them (README.md says
// what each stands for):
//
// - `svc` and `npx svc` are this repository's built bin (`node bin/svc.js`, a bash function:
//   `npx svc` in this repository would fetch an unrelated package), `npx @redocly/cli` the
//   Redocly CLI of its devDependencies; any other `npx` fails the command.
// - An emulator is already running in the folder (`svc emulator start --port 0 --data-dir .svc
//   --json`, so the CLI finds it as it finds one started by `npm start`), unless the block
//   starts its own (or only runs `svc emulator exec`, which does). 127.0.0.1:4242 and localhost:4242 become its real address; localhost:3000
//   (a merchant app's webhook URL) becomes a receiver the test runs. Keys stay the seeded ones.
// - `KEY=` and `BASE=` from the quick start are set in every block that does not set them
//   itself; assignments and aliases a block makes hold for its later commands. (An alias is not
//   expanded by a non-interactive bash: the `svc` function stands in for it, and the test
//   checks separately what the alias names.)
// - A placeholder id (`pl_…`, `pay_…`, `mdt_…`, `prun_…`, `flt_…`, `dlv_…`, `we_…`, `po_…`,
//   `svc_ctl_…`) becomes the latest id of that prefix an earlier command of the block printed.
// - Each command must exit 0, or the code its comment gives (`# exit 1`). A curl answered with
//   the API's envelope must be `"success": true`. A `# → {…}` comment (after the command, or on
//   the next line) is compared with the command's JSON output (json-shape.ts); another `# → …`
//   comment names ids (`pl_…`) and "quoted" words the output must contain.
// - Commands that run until stopped are started in the background and waited for until they
//   print their ready line: `svc emulator start` (its address; `--port 0` is added when it names
//   no port, since 4242 may be taken), `svc webhooks listen` (`Ready`), `curl -N` (the stream's
//   first line). At the block's end they get Ctrl-C (SIGINT) and the svc ones must exit 0.
// - A block about other hosts (`--host 0.0.0.0`, `http://svc:4242`) runs on two network hosts
//   (network namespaces, as root): `svc emulator start` on `svc`, the other commands on `app`,
//   ports and names as written.

export interface Command {
  /** The page it is on (README.md, docs/…). */
  file: string;
  /** 1-based line of its page where the command starts. */
  line: number;
  /** The command as written (continuation lines joined), without its comment. */
  code: string;
  comment: string;
  /** The text after `→` in its comment or in the comment line after it. */
  expect?: string;
  exit: number;
}

const PREFIXES = ['pl', 'pay', 'mdt', 'prun', 'flt', 'dlv', 'we', 'po', 'svc_ctl'];
const PLACEHOLDER = new RegExp(`\\b(${PREFIXES.join('|')})_…`, 'g');
const idPattern = (prefix: string) => new RegExp(`\\b${prefix}_${prefix === 'svc_ctl' ? '[A-Za-z0-9_-]+' : '[A-Za-z0-9]+'}`, 'g');

/** Splits a line at its comment: the first # outside quotes that starts a word. */
function splitComment(line: string): [string, string] {
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return [line.slice(0, i).trimEnd(), line.slice(i + 1).trim()];
  }
  return [line.trimEnd(), ''];
}

export function parseCommands(block: Block): Command[] {
  const commands: Command[] = [];
  const lines = block.text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = block.line + 1 + i;
    let text = lines[i]!;
    while (text.endsWith('\\') && i + 1 < lines.length) text = text.slice(0, -1) + lines[++i]!.trimStart();
    const trimmed = text.trim();
    if (trimmed === '') continue;
    if (trimmed.startsWith('#')) {
      const arrow = /^#\s*→\s*(.*)$/.exec(trimmed);
      const last = commands[commands.length - 1];
      if (arrow && last) last.expect = arrow[1];
      continue;
    }
    const [code, comment] = splitComment(trimmed);
    const exit = /^exit (\d+)\b/.exec(comment);
    const arrow = /→\s*(.*)$/.exec(comment);
    commands.push({ file: block.file, line, code, comment, exit: exit ? Number(exit[1]) : 0, ...(arrow && { expect: arrow[1] }) });
  }
  return commands;
}

export interface Ran {
  command: Command;
  /** What bash ran (placeholders and addresses substituted). */
  ran: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

interface BackgroundKind {
  match: RegExp;
  /** The ready line, in the output so far. */
  ready: (code: string) => RegExp;
  /** Where it prints it. */
  readyOn: 'stdout' | 'stderr';
  /** Whether its exit code after Ctrl-C must be 0. */
  exitsZero: boolean;
}

const BACKGROUND: BackgroundKind[] = [
  { match: /^svc emulator start\b/, ready: (code) => (/--json\b/.test(code) ? /^\{.*\}$/m : /^\s*API\s+http\S+$/m), readyOn: 'stdout', exitsZero: true },
  { match: /^svc webhooks listen\b/, ready: () => /\bReady\b/, readyOn: 'stderr', exitsZero: true },
  { match: /^curl\b.*\s-N\b/, ready: () => /\n/, readyOn: 'stdout', exitsZero: false },
];

export interface Background {
  command: Command;
  ran: string;
  child: ChildProcess;
  /** Its stdout so far. */
  output(): string;
  /** Its stderr so far (where `svc webhooks listen` says Ready and gives its secret). */
  errors(): string;
  done: Promise<number | null>;
}

export interface ShellSetup {
  /** The block's project folder. */
  dir: string;
  /** The environment every command gets. */
  env: NodeJS.ProcessEnv;
  /** Bash that defines `svc` and `npx` (and anything else every command needs). */
  preamble: string;
  /** The quick start's KEY= and BASE= lines. */
  quickStart: string[];
  /** Where localhost:3000 goes: a receiver the test runs. */
  appPort: number;
  /** Gives up on a command that runs this long (a hang, not a measurement). */
  commandTimeoutMs: number;
  /**
   * For a block about other hosts: the command line that runs bash (`args`) for `code` on its
   * network host (test/helpers/netns.ts: `svc emulator start` on `svc`, the rest on `app`).
   * Ports are then left as written: a fresh namespace has 4242 free, and `svc` names the emulator's host.
   */
  onHost?: (code: string, args: string[]) => [string, string[]];
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=\S*$/;

/** One block's run: its commands, their outputs, its background processes and emulator. */
export class ShellRun {
  readonly results: Ran[] = [];
  readonly background: Background[] = [];
  /** The emulator the block talks to: its base URL. */
  emulatorUrl?: string;
  private state: string[] = [];
  private printed: string[] = [];

  constructor(readonly setup: ShellSetup) {}

  /** Starts the emulator the block talks to, as a reader's `npm start` would have. */
  async startEmulator(): Promise<void> {
    const command: Command = { file: '(the test)', line: 0, code: 'svc emulator start --port 0 --data-dir .svc --json', comment: '(started by the test)', exit: 0 };
    await this.startBackground(command, command.code, BACKGROUND[0]!);
  }

  private substitute(command: Command): string {
    let code = command.code.replace(PLACEHOLDER, (all, prefix: string) => {
      for (const out of [...this.printed].reverse()) {
        const ids = out.match(idPattern(prefix));
        if (ids) return ids[ids.length - 1]!;
      }
      throw new Error(`${command.file}:${command.line}: ${all} but no earlier command of the block printed a ${prefix}_ id`);
    });
    if (this.setup.onHost) return code;
    code = code.replace(/\b(?:localhost|127\.0\.0\.1):3000\b/g, `127.0.0.1:${this.setup.appPort}`);
    if (/\b(?:localhost|127\.0\.0\.1):4242\b/.test(code)) {
      if (!this.emulatorUrl) throw new Error(`${command.file}:${command.line}: names port 4242 before any emulator runs`);
      const port = new URL(this.emulatorUrl).port;
      code = code.replace(/\b(localhost|127\.0\.0\.1):4242\b/g, `$1:${port}`);
    }
    if (/^svc emulator start\b/.test(code) && !/--port\b/.test(code)) code = code.replace(/^svc emulator start\b/, 'svc emulator start --port 0');
    return code;
  }

  private script(code: string): string {
    // Before the block's own emulator is up there is no address to put in BASE (nor need of one).
    const own = this.state.some((l) => /^(KEY|BASE)=/.test(l));
    const quick = own || !this.emulatorUrl ? [] : this.setup.quickStart.map((l) => this.substitute({ file: 'README.md', line: 0, code: l, comment: '', exit: 0 }));
    return [this.setup.preamble, ...quick, ...this.state, code].join('\n');
  }

  private spawn(code: string): ChildProcess {
    // A process group of its own: a background command and everything it started stop together.
    const args = ['-c', this.script(code)];
    const [command, argv] = this.setup.onHost?.(code, args) ?? ['bash', args];
    return spawn(command, argv, { cwd: this.setup.dir, env: this.setup.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  }

  /** Runs the block's next command; returns what it printed. Fails on a wrong exit code. */
  async run(command: Command): Promise<Ran | Background> {
    const ran = this.substitute(command);
    const kind = BACKGROUND.find((k) => k.match.test(command.code));
    if (kind) return this.startBackground(command, ran, kind);
    const child = this.spawn(ran);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c) => (stdout += c));
    child.stderr!.on('data', (c) => (stderr += c));
    const guard = setTimeout(() => kill(child, 'SIGKILL'), this.setup.commandTimeoutMs);
    const [code] = (await once(child, 'close')) as [number | null];
    clearTimeout(guard);
    const result: Ran = { command, ran, code, stdout, stderr };
    this.results.push(result);
    this.printed.push(stdout);
    if (ASSIGNMENT.test(command.code) || /^alias \w+=/.test(command.code)) this.state.push(ran);
    if (code !== command.exit) throw new Error(`${command.file}:${command.line}: \`${ran}\` exited ${code ?? 'on a signal (timed out?)'}, the page expects ${command.exit}\nstdout: ${stdout}\nstderr: ${stderr}`);
    const problems = checkOutput(result);
    if (problems.length) throw new Error(`${command.file}:${command.line}: \`${ran}\`:\n${problems.join('\n')}\nstdout: ${stdout}`);
    return result;
  }

  private startBackground(command: Command, ran: string, kind: BackgroundKind): Promise<Background> {
    const child = this.spawn(ran);
    let output = '';
    let stderr = '';
    const done = once(child, 'close').then(([code]) => code as number | null);
    const bg: Background = { command, ran, child, output: () => output, errors: () => stderr, done };
    this.background.push(bg);
    const ready = kind.ready(ran);
    return new Promise((ok, fail) => {
      const guard = setTimeout(() => fail(new Error(`${command.file}:${command.line}: \`${ran}\` printed no ready line in ${this.setup.commandTimeoutMs} ms:\n${output}\n${stderr}`)), this.setup.commandTimeoutMs);
      let settled = false;
      const check = () => {
        if (settled || !ready.test(kind.readyOn === 'stdout' ? output : stderr)) return;
        settled = true;
        clearTimeout(guard);
        this.printed.push(output);
        if (kind === BACKGROUND[0]) this.emulatorUrl = emulatorAddress(output);
        const problems = command.expect?.startsWith('{') ? compareShape(parseElided(jsonPrefix(command.expect)), parseJson(/^\{.*\}$/m.exec(output)?.[0] ?? '')) : [];
        if (problems.length) fail(new Error(`${command.file}:${command.line}: \`${ran}\`:\n${problems.join('\n')}\nstdout: ${output}`));
        else ok(bg);
      };
      child.stdout!.on('data', (c) => ((output += c), check()));
      child.stderr!.on('data', (c) => ((stderr += c), check()));
      void done.then((code) => {
        clearTimeout(guard);
        fail(new Error(`${command.file}:${command.line}: \`${ran}\` exited ${code} before its ready line:\n${output}\n${stderr}`));
      });
    });
  }

  /** Ctrl-C to every background command, newest first (the emulator last); fails on a bad exit. */
  async stop(): Promise<void> {
    const problems: string[] = [];
    for (const bg of [...this.background].reverse()) {
      kill(bg.child, 'SIGINT');
      const guard = setTimeout(() => kill(bg.child, 'SIGKILL'), this.setup.commandTimeoutMs);
      const code = await bg.done;
      clearTimeout(guard);
      const kind = BACKGROUND.find((k) => k.match.test(bg.command.code))!;
      if (kind.exitsZero && code !== 0) problems.push(`${bg.command.file}:${bg.command.line}: \`${bg.ran}\` exited ${code} after Ctrl-C:\n${bg.output()}`);
    }
    this.background.length = 0;
    if (problems.length) throw new Error(problems.join('\n'));
  }

  /** Ends whatever is still running (after a failure), without asking. */
  kill(): void {
    for (const bg of this.background) kill(bg.child, 'SIGKILL');
  }
}

const parseJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** What the command's output must show: an envelope's success, its `→` comment. */
function checkOutput({ command, stdout }: Ran): string[] {
  const json = parseJson(stdout);
  const problems: string[] = [];
  const expect = command.expect;
  if (/^curl\b/.test(command.code) && typeof json === 'object' && json !== null && 'success' in json && json.success !== true && !expect?.startsWith('{')) {
    problems.push('the API answered with success: false');
  }
  if (expect?.startsWith('{')) {
    problems.push(...(json === undefined ? [`the page shows ${expect}, the output is not JSON`] : compareShape(parseElided(jsonPrefix(expect)), json)));
  } else if (expect) {
    for (const [, prefix] of expect.matchAll(PLACEHOLDER)) if (!idPattern(prefix!).test(stdout)) problems.push(`the page says it prints a ${prefix}_ id (→ ${expect})`);
    for (const [quoted] of expect.matchAll(/"[^"]+"/g)) if (!stdout.includes(quoted)) problems.push(`the page says it prints ${quoted} (→ ${expect})`);
  }
  return problems;
}

/** The JSON example at the start of a `→` comment, without the words after it (`{…}: made up because …`). */
function jsonPrefix(text: string): string {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return text.slice(0, i + 1);
  }
  return text;
}

function kill(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // the group is gone already
  }
}

/** The base URL in `svc emulator start`'s ready output: the JSON line's base_url, or the API line. */
function emulatorAddress(output: string): string {
  const json = /^\{.*\}$/m.exec(output);
  if (json) return (JSON.parse(json[0]) as { base_url: string }).base_url;
  return /^\s*API\s+(http\S+)$/m.exec(output)![1]!;
}
