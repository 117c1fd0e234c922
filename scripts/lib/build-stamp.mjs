// What dist/ was built from, so that nothing rebuilds what is already built (`npm start`) and
// nothing tests what was not built from these sources (scripts/run-tests.mjs). A digest of the
// sources is the path, size and modification time of every file they hold (a stat each: a few
// milliseconds for the whole tree; an edit, a checkout or an `npm install` changes it).
//
// dist/.build-stamp.json holds two digests:
//   full   `npm run build` (tsc, then the bundles) finished over sources with this digest: the
//          build the package ships, which the tests run; null when anything else built last;
//   cli    dist/cli (what bin/svc.js runs) was bundled from sources with this digest, by the full
//          build or by `npm start` (scripts/start.mjs: esbuild straight from the TypeScript,
//          not type-checked, so it sets `full` to null: the tests then refuse to run on it).
// `begin` removes the stamp and remembers the digests taken before the build reads anything (a
// file edited meanwhile makes the next check fail, as it should); `end` writes them once the
// whole build succeeded, so a failed build leaves no stamp.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const STAMP = join(root, 'dist', '.build-stamp.json');
const PENDING = join(root, 'dist', '.build-stamp.pending.json');

/** What dist/cli is made from: the code it bundles, the installed packages it bundles, and how it is bundled. */
const CLI_INPUTS = ['src', 'emulator', 'contract', 'bin', 'package.json', 'node_modules/.package-lock.json', 'tsconfig.json', 'scripts/build-bundles.mjs', 'scripts/lib'];
/** What `npm run build` reads besides: the tests and the bench (tsc compiles them), the CommonJS build. */
const FULL_INPUTS = [...CLI_INPUTS, 'test', 'bench', 'scripts/build-cjs.mjs'];

/**
 * Folders inside the inputs that tools write while they run, not sources: a node_modules (vitest's
 * cache under test/vitest; the installed packages count through node_modules/.package-lock.json),
 * a dot-folder (a cache), and the bench's results.
 */
const NOT_SOURCES = /^(node_modules|\..+|results)$/;

function digest(inputs) {
  const lines = [];
  const visit = (path) => {
    let st;
    try {
      st = statSync(path);
    } catch {
      return lines.push(`${relative(root, path)} missing`);
    }
    if (!st.isDirectory()) return lines.push(`${relative(root, path)} ${st.size} ${st.mtimeMs}`);
    for (const name of readdirSync(path).sort()) if (!NOT_SOURCES.test(name)) visit(join(path, name));
  };
  for (const input of inputs) visit(join(root, input));
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

export const cliDigest = () => digest(CLI_INPUTS);
export const fullDigest = () => digest(FULL_INPUTS);

export function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return { full: null, cli: null };
  }
}

export function writeStamp(stamp) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(`${STAMP}.tmp`, `${JSON.stringify(stamp)}\n`);
  renameSync(`${STAMP}.tmp`, STAMP);
}

export const clearStamp = () => rmSync(STAMP, { force: true });

/** Why the tests must not run on dist/ as it is, or undefined when it is the full build of these sources. */
export function staleBuild() {
  const { full } = readStamp();
  if (full === fullDigest()) return undefined;
  if (!existsSync(join(root, 'dist'))) return 'nothing is built';
  return full === null ? 'dist/ was not made by a whole `npm run build` (npm start bundles the CLI alone, type-checking nothing)' : 'files changed since the last `npm run build`';
}

// `node scripts/lib/build-stamp.mjs begin|end`, around `npm run build`.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const step = process.argv[2];
  if (step === 'begin') {
    clearStamp();
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(PENDING, JSON.stringify({ full: fullDigest(), cli: cliDigest() }));
  } else if (step === 'end') {
    writeStamp(JSON.parse(readFileSync(PENDING, 'utf8')));
    rmSync(PENDING);
  } else {
    console.error('usage: node scripts/lib/build-stamp.mjs begin|end');
    process.exit(2);
  }
}
