import { fastWords } from './fast-path.js';
import { processIO, type CliIO } from './io.js';

// bin/svc.js's entry (dist/cli/fast.cjs: scripts/build-bundles.mjs). A command line the fast
// path takes (fast-path.ts names it, fast-run.ts reads its flags and runs it: `svc links get
// <id> --json` in a CI loop) runs there; any other goes to the commander program (main.ts,
// dist/cli/main.cjs) before anything else is loaded or set up, so the two builds never share a
// process's state.

export async function main(argv: string[], version: string | (() => string), io: CliIO = processIO()): Promise<number> {
  const words = fastWords(argv.slice(2), io.env);
  const code = words && (await (await import('./fast-run.js')).runFastLine(words, argv.slice(2), io));
  return code ?? (await import('./main.js')).main(argv, version, io);
}
