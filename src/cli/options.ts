import { InvalidArgumentError, Option, type Command } from 'commander';
import { ioOf, type CliIO } from './io.js';
import { flagName, switchValue, type FlagSpec, type FlagTable, type FlagsOf } from './flags.js';
import { UsageError } from './errors.js';
import { messageOf } from '../../contract/errors.js';

// Commander's side of the flag tables (flags.ts): each command is described, given its table's
// flags and examples, and runs a function of a module imported only when it runs (so command
// code stays out of `svc --help`), with the flags typed by the same table.

export type Run<F> = (positional: string[], flags: F, io: CliIO, cmd: Command) => Promise<void>;

/** A table parser as commander wants it: its Error becomes commander's usage error naming the flag. */
export function commanderParser<T, P>(parse: (raw: string, previous: P) => T) {
  return (raw: string, previous: P): T => {
    try {
      return parse(raw, previous);
    } catch (err) {
      throw new InvalidArgumentError(messageOf(err));
    }
  };
}

function option(prop: string, spec: FlagSpec): Option {
  const o = new Option(`${spec.short ? `${spec.short}, ` : ''}${flagName(prop, spec)}${spec.value ? ` ${spec.value}` : ''}`, spec.env ? `${spec.help} [env: ${spec.env}]` : spec.help);
  const parse = spec.parse;
  if (parse) o.argParser(commanderParser((raw: string, previous: unknown) => parse.call(spec, raw, previous)));
  if (spec.default !== undefined) o.default(spec.default, spec.shows);
  if (spec.required) o.makeOptionMandatory();
  return o;
}

/**
 * A flag left out takes its variable's value when it is set: the flag, then the environment,
 * then the default. A bad value is a usage error (exit 2) naming the variable and the rule.
 */
function fromEnv(cmd: Command, table: FlagTable, env: CliIO['env']): void {
  for (const [prop, spec] of Object.entries(table)) {
    const raw = spec.env === undefined ? undefined : env[spec.env];
    if (raw === undefined || cmd.getOptionValueSource(prop) === 'cli') continue;
    let value: unknown;
    try {
      value = spec.value === undefined ? switchValue(raw) : spec.parse ? spec.parse(raw, undefined) : raw;
    } catch (err) {
      throw new UsageError(`${spec.env}: ${messageOf(err)}`);
    }
    cmd.setOptionValueWithSource(prop, value, 'env');
  }
}

export type Source = 'flag' | 'env' | 'default';

/** Where each of the table's flags took its value from, and how a message names it: by its variable when it came from there. */
export function originOf(cmd: Command, table: FlagTable) {
  const from = (prop: string): Source => ({ cli: 'flag', env: 'env' } as const)[cmd.getOptionValueSource(prop) as 'cli' | 'env'] ?? 'default';
  return { from, name: (prop: string): string => (from(prop) === 'env' && table[prop].env) || flagName(prop, table[prop]) };
}

/** What define() takes after the command: description, flag table, the module and its function, examples, notes. */
type Definition<T extends FlagTable, K extends string> = [
  about: string,
  table: T,
  load: () => Promise<{ [k in K]: Run<FlagsOf<NoInfer<T>>> }>,
  fn: K,
  lines: string[],
  notes?: string,
];

/**
 * `cmd` with its description, the table's flags and its examples (after any `notes`), running
 * `fn` of the module `load` imports, with the positional arguments, the flags, the IO and the
 * command. The module's function must take the flags as the table types them.
 */
export function define<T extends FlagTable, K extends string>(cmd: Command, ...[about, table, load, fn, lines, notes]: Definition<T, K>): Command {
  cmd.description(about);
  for (const [prop, spec] of Object.entries(table)) cmd.addOption(option(prop, spec));
  if (notes) cmd.addHelpText('after', notes);
  return cmd.addHelpText('after', `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}`).action(async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const io = ioOf(command);
    fromEnv(command, table, io.env);
    const positional = args.slice(0, -2).flatMap((a) => (Array.isArray(a) ? a : [a])) as string[];
    await (await load())[fn](positional, command.opts() as FlagsOf<T>, io, command);
  });
}

/** A subcommand of `parent`, as define() makes it. */
export function verb<T extends FlagTable, K extends string>(parent: Command, name: string, ...definition: Definition<T, K>): Command {
  return define(parent.command(name), ...definition);
}
