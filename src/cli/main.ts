import { Command, CommanderError } from 'commander';
import { EXIT, SilentExit, UsageError } from './errors.js';
import { register as registerEmulatorStart } from './commands/emulator/start.js';

// The svc program. Commands register their flags here; each command's work lives in a module
// loaded only when it runs, so `svc --help` stays fast.

export function buildProgram(version: string): Command {
  const program = new Command('svc')
    .version(version)
    .description('Emulator and CLI for the merchant payments service')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .addHelpText('after', `\nExamples:\n  $ svc emulator start\n  $ svc emulator start --json --port 0`);
  const emulator = program.command('emulator').description('Run and control the local emulator');
  registerEmulatorStart(emulator);
  return program;
}

export async function main(argv: string[], version: string): Promise<void> {
  const program = buildProgram(version);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeFor(err);
  }
}

function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    // --help and --version exit through here with code 0.
    return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
  }
  if (err instanceof UsageError) {
    process.stderr.write(`error: ${err.message}\n`);
    return EXIT.usage;
  }
  if (err instanceof SilentExit) return err.exitCode;
  process.stderr.write(`error: ${(err as Error).message ?? String(err)}\n`);
  return EXIT.api;
}
