import { fastInvocation } from './fast-path.js';
import { processIO, type CliIO } from './io.js';

// bin/svc.js's entry (dist/cli/fast.cjs: scripts/build-bundles.mjs). A command line the fast
// path takes (fast-path.ts: `svc links get <id> --json` in a CI loop) runs from fast-run.ts;
// any other goes to the commander program (main.ts, dist/cli/main.cjs) before anything else is
// loaded or set up, so the two builds never share a process's state.

export async function main(argv: string[], version: string | (() => string), io: CliIO = processIO()): Promise<number> {
  const fast = fastInvocation(argv.slice(2), io.env);
  if (!fast) return (await import('./main.js')).main(argv, version, io);
  return (await import('./fast-run.js')).runFastLine(fast, io);
}
