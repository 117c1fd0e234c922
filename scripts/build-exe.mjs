// `npm run build:exe` (runs after `npm run build`): dist/exe/svc-<platform>-<arch> (.exe on
// Windows), svc as one file that needs no Node installed, made with Node's single executable
// applications, inside Node.js 24 (SHIPPED_NODE_MAJOR), the LTS line we ship. Which node:
//
//   --node <path>, or SVC_EXE_NODE   that binary (release.yml gives setup-node's own 24);
//   neither                          npm's node-<platform>-<arch>@24 package, fetched and checked
//                                    into the user's cache folder (scripts/lib/node-runtime.mjs);
//                                    when that is impossible the build stops and says why.
//
// Never the node running this script (unless it is the one given): the machine's may be 20.
// Node's docs, step by step:
//
//   1. one CommonJS script: esbuild bundles bin/svc.js, the package's own entry, with everything
//      it reaches: the CLI and the emulator from tsc's output (dist/src, dist/emulator,
//      dist/contract) and every dependency, the prompts' ES modules included. The executable's
//      require() loads built-in modules only, and its code cache (step 2) rules out import(), so
//      the bundle has neither a require of a package nor an import() (checked below);
//   2. a blob, made by the node that will run it (a V8 code cache works only in the node that
//      made it): `<node> --experimental-sea-config` over dist/exe/build/sea-config.json, holding
//      the script, a V8 code cache of it (useCodeCache: `svc --help` costs 2.1× `node -e 0`
//      without one, 1.4× with it), the files the code reads (emulator/assets.ts SHIPPED_FILES:
//      the default fixtures), the licences, and the experimental warning turned off;
//   3. a copy of that node, its debug symbols stripped on Linux (`strip` from binutils, skipped
//      with a note where it is missing), its signature removed on macOS (`codesign
//      --remove-signature`) and on Windows (`signtool remove /s`, postject's documented step: a
//      signature over the file before injection no longer matches it after);
//   4. the blob injected into the copy with postject, and on macOS an ad-hoc signature
//      (`codesign --sign -`), without which Apple silicon refuses to run it (release.yml signs it
//      again with a Developer ID and notarizes it when its secrets are set).
//
// The blob carries a code cache that only the node that made it can use, so the executable is
// always that node with this blob: build on each platform and architecture you ship
// (.github/workflows/release.yml does, on one runner each). The dashboard, the checkout pages and
// both OpenAPI documents are made by the code itself (emulator/dashboard, emulator/pages,
// emulator/openapi), so they come with the bundle.
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire, isBuiltin } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { majorOf, nodeRuntime, RuntimeError } from './lib/node-runtime.mjs';
import { bundledLicenses, LICENSE_RULE } from './lib/licenses.mjs';
import { emulatorTrims } from './lib/trims.mjs';
import { bundleOptions } from './lib/bundle-options.mjs';

// fileURLToPath, not URL.pathname: a Windows runner builds the executable too (release.yml).
const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'exe');
const work = join(out, 'build');
const { SHIPPED_FILES } = await import('../dist/emulator/assets.js').catch(() => {
  throw new Error('dist/ is not built: run `npm run build` first (npm run build:exe does)');
});
const { inject } = createRequire(import.meta.url)('postject');

/** The Node.js line every executable we publish embeds (release.yml's setup-node gives the same). */
const SHIPPED_NODE_MAJOR = 24;

/** Node's names for its own downloads: linux, darwin, win. */
const PLATFORM = { linux: 'linux', darwin: 'darwin', win32: 'win' }[process.platform];
if (!PLATFORM) throw new Error(`no single executable for ${process.platform}`);
const EXE_NAME = `svc-${PLATFORM}-${process.arch}${process.platform === 'win32' ? '.exe' : ''}`;
/** The fuse Node's binary carries and postject flips (Node's docs give it as is). */
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

/** bin/svc.js requires the CLI's CommonJS chunk; the executable bundles tsc's ES module output instead, whole. */
const cliFromSource = {
  name: 'cli-from-source',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/dist\/cli\/fast\.cjs$/ }, () => ({ path: join(root, 'dist', 'src', 'cli', 'fast-main.js') }));
  },
};

async function bundle() {
  const result = await build({
    ...bundleOptions(root),
    entryPoints: [join(root, 'bin', 'svc.js')],
    outfile: join(work, 'svc.cjs'),
    format: 'cjs',
    // import() of a bundled module or a built-in becomes a require() (the code cache forbids import()).
    supported: { 'dynamic-import': false },
    // emulator/assets.ts packageFile, never called in the executable (assets.ts asks node:sea first).
    define: { 'import.meta.url': '__svc_import_meta_url' },
    banner: { js: "const __svc_import_meta_url=require('node:url').pathToFileURL(__filename).href;" },
    // The parts of zod and iconv-lite the emulator never runs, as in dist/testing: 0.7 MB of the 3.2 MB.
    plugins: [cliFromSource, emulatorTrims(root, 'the single executable')],
  });
  const external = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && !i.path.startsWith('node:') && !isBuiltin(i.path)).map((i) => i.path));
  if (external.length > 0) throw new Error(`the executable's bundle requires ${external.join(', ')}: its require() loads built-in modules only`);
  const script = readFileSync(join(work, 'svc.cjs'), 'utf8');
  if (/\bimport\(/.test(script)) throw new Error('the executable\'s bundle keeps an import(), which its code cache does not allow');
  // ASCII only: node decodes the SEA's script from UTF-8 on every start, a plain copy when it is
  // ASCII, and one character past Latin-1 makes all 2.7 MB a two-byte string (callgrind,
  // `--version`: 172M instructions, 147M in ASCII; its node alone 88M). esbuild escapes every other literal but leaves the tagged templates
  // (a `\u` escape changes their .raw; emulator/pages/html.ts reads the cooked strings). Each
  // UTF-16 unit becomes `\uXXXX`, which means the same in a string, a template, a regular
  // expression or an identifier, unless a backslash stands before it.
  if (/\\[^\0-\x7f]/.test(script)) throw new Error('the executable\'s bundle escapes a non-ASCII character, which \\uXXXX would change');
  writeFileSync(join(work, 'svc.cjs'), script.replace(/[^\0-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  return result.metafile;
}

/** Node's own LICENSE (the executable is a copy of node): beside the binary, one folder up, or Debian's doc folder. */
function nodeLicense(node, version) {
  const bin = dirname(node);
  const candidates = [join(bin, 'LICENSE'), join(bin, '..', 'LICENSE'), '/usr/share/doc/nodejs/LICENSE'];
  const found = candidates.find((f) => existsSync(f));
  if (!found) throw new Error(`node's LICENSE must travel with the executable, and none was found: ${candidates.join(', ')}`);
  return `Node.js v${version} (MIT; the licences of what it includes follow its own)\n\n${readFileSync(found, 'utf8').trim()}\n`;
}

function run(command, args) {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.error || r.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.error?.message ?? r.stderr}`);
}

/** The node to embed: --node, SVC_EXE_NODE, or Node 24 from npm (fetched); it must be the shipped line and carry the fuse. */
function runtime() {
  const { values } = parseArgs({ options: { node: { type: 'string' } } });
  const given = values.node ?? process.env.SVC_EXE_NODE;
  const found = given ? { path: given, source: values.node ? '--node' : 'SVC_EXE_NODE' } : nodeRuntime(SHIPPED_NODE_MAJOR);
  const { version, major } = majorOf(found.path);
  if (major !== SHIPPED_NODE_MAJOR) throw new RuntimeError(`${found.path} (${found.source}) is Node.js ${version}: the executable ships Node.js ${SHIPPED_NODE_MAJOR}`);
  if (!readFileSync(found.path).includes(SEA_FUSE)) throw new RuntimeError(`${found.path} was built without single executable application support (no ${SEA_FUSE})`);
  return { path: found.path, version, source: found.source };
}

/** Windows: signtool from the PATH, else from the newest Windows SDK (GitHub's Windows runners have one, off the PATH). */
function signtool() {
  if (spawnSync('signtool', ['/?'], { stdio: 'ignore' }).status === 0) return 'signtool';
  const kits = join(process.env['ProgramFiles(x86)'] ?? 'C:\\Program Files (x86)', 'Windows Kits', '10', 'bin');
  const versions = existsSync(kits) ? readdirSync(kits).filter((v) => /^10\./.test(v)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true })) : [];
  const found = versions.map((v) => join(kits, v, process.arch === 'arm64' ? 'arm64' : 'x64', 'signtool.exe')).filter((f) => existsSync(f)).at(-1);
  if (!found) throw new RuntimeError(`no signtool (Windows SDK) on the PATH or under ${kits}: node's signature must be removed before the blob is injected`);
  return found;
}

let node;
let windowsSigntool;
try {
  node = runtime();
  if (process.platform === 'win32') windowsSigntool = signtool();
} catch (err) {
  if (!(err instanceof RuntimeError)) throw err;
  console.error(`build:exe: ${err.message}`);
  process.exit(2);
}
console.log(`build:exe: Node.js ${node.version} (${node.source}): ${node.path}`);
const started = performance.now();
rmSync(out, { recursive: true, force: true });
mkdirSync(work, { recursive: true });
const metafile = await bundle();
const licenses = join(out, 'THIRD-PARTY-LICENSES.txt');
writeFileSync(licenses, `${nodeLicense(node.path, node.version)}${LICENSE_RULE}${bundledLicenses(root, metafile, `Packages bundled into ${EXE_NAME}:`)}`);

const config = join(work, 'sea-config.json');
const blob = join(work, 'sea.blob');
const assets = Object.fromEntries([...SHIPPED_FILES.map((f) => [f, join(root, f)]), ['THIRD-PARTY-LICENSES.txt', licenses]]);
writeFileSync(config, JSON.stringify({ main: join(work, 'svc.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2));
run(node.path, ['--experimental-sea-config', config]);

const exe = join(out, EXE_NAME);
copyFileSync(node.path, exe);
chmodSync(exe, 0o755);
if (process.platform === 'linux') {
  if (spawnSync('strip', ['--version']).status === 0) run('strip', ['--strip-all', exe]);
  else console.log('build:exe: no `strip` (binutils) here: the executable keeps node\'s debug symbols (~13 MB more)');
}
if (process.platform === 'darwin') run('codesign', ['--remove-signature', exe]);
if (process.platform === 'win32') run(windowsSigntool, ['remove', '/s', exe]);
// postject's ELF reader (LIEF) says on console.warn, a dozen times, that it cannot name node's note
// sections; harmless (only a thrown error matters), so those lines are dropped and any other shown.
const warn = console.warn;
console.warn = (...args) => /^warning: Can't find string offset for section name/.test(String(args[0])) || warn(...args);
await inject(exe, 'NODE_SEA_BLOB', readFileSync(blob), { sentinelFuse: SEA_FUSE, machoSegmentName: process.platform === 'darwin' ? 'NODE_SEA' : undefined }).finally(() => (console.warn = warn));
if (process.platform === 'darwin') run('codesign', ['--sign', '-', exe]);

// The file must answer like the package does before anyone gets it.
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const said = execFileSync(exe, ['--version'], { encoding: 'utf8' }).trim();
if (said !== version) throw new Error(`${relative(root, exe)} --version said ${JSON.stringify(said)}, not ${version}`);
rmSync(work, { recursive: true, force: true });
const mb = (statSync(exe).size / 1e6).toFixed(1);
console.log(`${relative(root, exe)}: ${mb} MB (Node.js ${node.version}), built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
