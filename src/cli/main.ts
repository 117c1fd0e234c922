import { Command, CommanderError, type OutputConfiguration } from 'commander';
import { EXIT, quietOnClosedPipe } from './errors.js';
import { COMMANDS, docsLine, docsPage, type CommandEntry } from './commands.js';
import { attachIO, processIO, type CliIO } from './io.js';
import { hasColour, loadColour } from './output.js';

// The svc program. The top level lists every command from a static table (commands.ts); a
// command's flags are registered only when that command is on the command line, and its work
// lives in a module imported only when it runs — so `svc --help` loads commander and nothing
// else, and `svc links get` loads the links command alone. Every invocation gets its IO
// (io.ts): commander's own output (help, usage errors) and every command write through it.

export const TOP_EXAMPLES = [
  'svc emulator start                       # run the emulator here; other commands find it',
  'svc links create --title "Coffee" --amount 1200 --currency USD',
  'svc links simulate pl_3kF9xQ2mTz8LwR4vNb7Y --outcome completed',
  'svc payments list --status completed --all --json',
  'svc webhooks listen --forward http://localhost:3000/webhooks',
  'svc trigger payment.failed',
  'svc login --api-key svc_live_… --base-url https://pay.example.com',
];

export const TOP_HELP_AFTER = `
Examples:
${TOP_EXAMPLES.map((l) => `  $ ${l}`).join('\n')}

Configuration (first match wins): --api-key/--base-url flags > SVC_API_KEY/SVC_BASE_URL >
the profile in $XDG_CONFIG_HOME/svc/config.json > an emulator running from ./.svc.
Exit codes: 0 success · 1 API or network error · 2 usage error.`;

/** `writeErr`: where commander's usage errors go (main() holds them until it can redact them); the IO's stderr by default. */
export async function buildProgram(version: string, load: 'all' | string[] = 'all', io: CliIO = processIO(), writeErr = (text: string) => void io.stderr.write(text)): Promise<Command> {
  const program = new Command('svc')
    // Before any subcommand is added: each copies its parent's output configuration.
    .configureOutput(commanderOutput(io, writeErr))
    .version(version)
    .description('Emulator and CLI for the merchant payments service')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureHelp({ sortSubcommands: false })
    .addHelpText('after', TOP_HELP_AFTER);
  const wanted = load === 'all' ? COMMANDS : COMMANDS.filter((c) => load.includes(c.name));
  for (const entry of COMMANDS) program.command(entry.name).description(entry.description);
  await Promise.all(wanted.map((entry) => registerEntry(program, entry)));
  for (const entry of wanted) withDocs(program.commands.find((c) => c.name() === entry.name)!, [entry.name]);
  attachIO(program, io);
  return program;
}

/** Every command's --help ends with its docs page (commands.ts DOCS_PAGES), after its examples. */
function withDocs(cmd: Command, path: string[]): void {
  const page = docsPage(path);
  if (page) cmd.addHelpText('after', docsLine(page));
  for (const sub of cmd.commands) withDocs(sub, [...path, sub.name()]);
}

/** Help and --version go to the IO's stdout, usage errors to `writeErr`, sized (80 columns off a terminal, as commander does) and coloured for the IO's streams. */
function commanderOutput(io: CliIO, writeErr: (text: string) => void): OutputConfiguration {
  const width = (stream: CliIO['stdout']) => (stream.isTTY && stream.columns) || 80;
  return {
    writeOut: (text: string) => io.stdout.write(text),
    writeErr,
    getOutHelpWidth: () => width(io.stdout),
    getErrHelpWidth: () => width(io.stderr),
    getOutHasColors: () => hasColour(io, io.stdout),
    getErrHasColors: () => hasColour(io, io.stderr),
  };
}

async function registerEntry(program: Command, entry: CommandEntry): Promise<void> {
  const cmd = program.commands.find((c) => c.name() === entry.name)!;
  (await entry.load()).register(cmd, program);
}

/** The command names on this command line whose flags must be registered. */
function commandsOnLine(args: string[]): string[] {
  const words = args.filter((a) => !a.startsWith('-'));
  if (words[0] === 'help') return words.slice(1, 2);
  return words.slice(0, 1);
}

/** Runs one command line; resolves with its exit code (bin/svc.js hands it to the process). */
/** `version` may be a function: bin/svc.js reads package.json only for a command line that prints it. */
export async function main(argv: string[], version: string | (() => string), io: CliIO = processIO()): Promise<number> {
  // Only the real process's pipes can close under it (tests' collecting streams never do).
  if (io.stdout === process.stdout || io.stderr === process.stderr) quietOnClosedPipe();
  // Commander's usage errors quote the command line (`unknown option '--pin=1357'`): held here,
  // and written once it has thrown, through the redaction (loaded only then: redact-failure.ts).
  const usageText: string[] = [];
  try {
    await loadColour(io);
    const program = await buildProgram(typeof version === 'function' ? version() : version, commandsOnLine(argv.slice(2)), io, (text) => void usageText.push(text));
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    // --help and --version exit through here with code 0; commander already printed the rest.
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    // Loaded for a failure only: `svc --help` and every success never load the error reporting.
    return (await import('./exit.js')).exitCodeFor(err, argv.slice(2), io);
  } finally {
    if (usageText.length > 0) io.stderr.write((await import('./redact-failure.js')).redactorFor(argv.slice(2), io.env)(usageText.join('')));
  }
}
