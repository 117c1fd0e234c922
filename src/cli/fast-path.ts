import type { CliIO } from './io.js';

// The commands CI scripts call in loops (`svc links get <id> --json` in a poll) run without
// commander. Loading commander and building the program costs more than the rest of the command
// together (issue 28: 1.45× `node -e 0` against a target of 1.25×, where a bare node:http GET
// alone is 1.20×), so bin/svc.js's entry (fast-main.ts) first asks here whether a command line
// names one of them, and only then loads fast-run.ts, which parses its flags with the command's
// own table and runs it, or declines. Everything else goes straight to commander (main.ts).
// This file imports nothing: it is all of the fast path that `svc --help` loads.

/** The commands the fast path runs (fast-run.ts has each one's flag table and run()). */
export const FAST_WORDS = ['links get', 'payments get'] as const;
export type FastWords = (typeof FAST_WORDS)[number];

/** The command when `args` (argv after the script) may be one the fast path runs; undefined sends it to commander. */
export function fastWords(args: string[], env: CliIO['env']): FastWords | undefined {
  if (env.SVC_FAST_PATH === '0') return undefined;
  // Help is commander's, and asking for it should not load what the command runs.
  if (args.includes('--help') || args.includes('-h')) return undefined;
  return FAST_WORDS.find((w) => w === `${args[0]} ${args[1]}`);
}
