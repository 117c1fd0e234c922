// The bundles that start fast. Runs after tsc (`npm run build`, `prepack`) and bundles tsc's own
// ESM output with esbuild, so the bundles run the same JavaScript the tests import from dist/.
// `--cli-from-source` (scripts/start.mjs, `npm start`): dist/cli alone, bundled by esbuild
// straight from the TypeScript sources (types stripped, nothing checked), with no tsc output.
//
//   dist/cli/fast.cjs                   bin/svc.js's entry: the few read commands scripts call in
//                                       loops (src/cli/fast-path.ts), in one file without commander;
//                                       any other command line goes on to main.cjs
//   dist/cli/main.cjs                   the svc program (commander, src/cli/main.ts and what it
//                                       imports statically) in one CommonJS file: all `svc --help`
//                                       loads after fast.cjs
//   dist/cli/*.cjs                      each command's code and the emulator, in chunks required
//                                       only when that command runs; what they share with the
//                                       program they require from main.cjs
//   dist/testing/index.js               svc-toolkit/testing's `import` target: one ES module with
//                                       its dependencies (express, zod) inside; undici stays in
//                                       node_modules (the webhook sender imports it on first use)
//
// Why these shapes (numbers: bench/scenarios/cli.ts and testing.ts, issue 28):
// - A cold `svc` spends its time loading code, not running it. Node's ES module loader reads each
//   file asynchronously, resolves URLs, and builds a namespace for each built-in it imports (for
//   node:fs that means loading streams); the CommonJS loader does none of that. bin/svc.js is
//   CommonJS (bin/package.json) and so is every chunk it loads.
// - esbuild splits code into chunks only for ES modules, so the CLI is built as ES modules with
//   splitting first, then each chunk is converted to CommonJS, and an import() of a chunk or of a
//   built-in becomes a require() (an import() would start the ES module loader after all).
//   @inquirer/prompts keeps its import() (an ES module; loaded only for a prompt).
// - commander, the one package every command loads, is bundled into the CLI; it requires
//   node:child_process at load for a feature svc does not use (executable subcommands), so that
//   require is deferred to the first spawn. chalk is bundled too (see CLI_BUNDLED). The other
//   dependencies stay external: required from the merchant's node_modules (each must have a
//   CommonJS build), and only by the commands that need them.
// - V8 parses every byte of a file it loads, so code that a command does not run stays in other
//   chunks, and whitespace and syntax are minified (the testing import: 95 -> 89 ms). Names are
//   kept: shortening them saved nothing measurable, and stack traces stay readable.
// - The testing entry is imported by every test file that starts an emulator: loading express's
//   and zod's hundred-odd files one by one through the ES module loader cost more than all the
//   emulator's own code, so they are bundled with it. Two parts of them can never run in the
//   emulator and would only be parsed at every import, so they are left out (lib/trims.mjs):
//   zod's 40 translations of its messages (the emulator's are English: zod's default) and
//   iconv-lite's tables for Chinese, Japanese and Korean encodings (body-parser decodes only
//   the charsets its parsers accept first: utf-* for JSON, utf-8 and iso-8859-1 for forms).
//   The JSON files packages require (mime-db's 150 KB database above all) become
//   JSON.parse('…') of one string, which V8 parses faster than the same data as an object literal.
import { build, transform } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isCommonJs } from './lib/module-kind.mjs';
import { bundledLicenses } from './lib/licenses.mjs';
import { emulatorTrims } from './lib/trims.mjs';
import { bundleOptions } from './lib/bundle-options.mjs';
import { basename, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// fileURLToPath, not URL.pathname: a Windows runner builds the executable too (release.yml).
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const fromSource = process.argv.includes('--cli-from-source');
/** An entry of the CLI: tsc's output, or with --cli-from-source its TypeScript source. */
const cliEntry = (path) => (fromSource ? join(root, `${path}.ts`) : join(dist, `${path}.js`));

/**
 * Packages bundled into the CLI rather than required from node_modules: commander (every command
 * loads it) and chalk (an ES module only, which `emulator start` imports statically: Node 20.18
 * cannot require() it).
 */
const CLI_BUNDLED = ['commander', 'chalk'];
/** The only packages the CLI may still load with import(): ES modules only, loaded for a prompt. */
const CLI_ESM_ONLY = ['@inquirer/prompts'];

const common = bundleOptions(root);

/** commander's lib/command.js requires node:child_process at load; svc never spawns through it. */
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const eager = "const childProcess = require('node:child_process');";
      const uses = text.match(/childProcess\.\w+/g) ?? [];
      if (!text.includes(eager) || uses.some((u) => u !== 'childProcess.spawn')) {
        throw new Error(`${relative(root, args.path)}: commander changed how it loads node:child_process; update build-bundles.mjs`);
      }
      const lazy = "const childProcess = { get spawn() { return require('node:child_process').spawn; } };";
      return { contents: text.replace(eager, lazy), loader: 'js' };
    });
  },
};


async function buildCli() {
  const out = join(dist, 'cli');
  rmSync(out, { recursive: true, force: true });
  const external = Object.keys(pkg.dependencies).filter((name) => !CLI_BUNDLED.includes(name));
  const program = await programModules(external);
  const options = { ...common, entryPoints: { main: PROGRAM }, outdir: out, outExtension: { '.js': '.cjs' }, external, write: false };
  const esm = await build({ ...options, format: 'esm', splitting: true, chunkNames: '[name]-[hash]', plugins: [lazyChildProcess, programInMain(program)] });
  // esbuild's splitting keeps its runtime helpers (commander's CommonJS wrapper) in a chunk of
  // their own, one more file at every start: main.cjs is bundled again alone, as CommonJS, each of
  // its import()s naming the chunk made above for that module.
  const chunks = new Map(Object.entries(esm.metafile.outputs).flatMap(([file, o]) => (o.entryPoint ? [[join(root, o.entryPoint), `./${basename(file)}`]] : [])));
  const main = await build({ ...options, format: 'cjs', plugins: [lazyChildProcess, programInMain(program, chunks)] });
  mkdirSync(out, { recursive: true });
  for (const file of [...esm.outputFiles.filter((f) => basename(f.path) !== 'main.cjs'), ...main.outputFiles]) writeFileSync(file.path, await toCommonJs(file.text, basename(file.path), external));
  await buildFast(out, external);
  noSplitCommonJs('dist/cli', esm.metafile);
  writeFileSync(join(out, 'THIRD-PARTY-LICENSES.txt'), bundledLicenses(root, esm.metafile));
  // Every package the chunks require() must be a dependency with a CommonJS build.
  const requireFromRoot = createRequire(join(root, 'package.json'));
  const required = new Set(Object.values(esm.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && !CLI_ESM_ONLY.includes(i.path) && !/^(node:|\.\/)/.test(i.path)).map((i) => i.path)));
  for (const name of required) {
    const file = requireFromRoot.resolve(name);
    if (!isCommonJs(file)) throw new Error(`dist/cli requires ${name}, whose require() target ${relative(root, file)} is an ES module: add it to CLI_BUNDLED`);
  }
  report('dist/cli', { outputs: { ...esm.metafile.outputs, ...main.metafile.outputs } });
}

/** main.cjs's entry: every ES module of the program, re-exported (programInMain). */
const PROGRAM = 'svc-program';

/**
 * The program: src/cli/main.ts and every module it imports statically (commander, io, errors,
 * output, the command table), which is all `svc --help` runs. Its ES modules, each with the names
 * it exports; two exporting one name would leave one unreachable from main.cjs, so the build stops.
 */
async function programModules(external) {
  const staticOnly = { name: 'static-only', setup: (b) => b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'dynamic-import' ? { path: a.path, external: true } : undefined)) };
  const reached = await build({ ...common, entryPoints: [cliEntry('src/cli/main')], outdir: dist, format: 'esm', external, plugins: [staticOnly], write: false });
  const modules = Object.keys(reached.metafile.inputs).map((i) => join(root, i));
  const exported = await build({ ...common, bundle: false, entryPoints: modules.filter((m) => !isCommonJs(m)), outdir: dist, format: 'esm', write: false });
  const owner = new Map();
  for (const o of Object.values(exported.metafile.outputs)) {
    for (const name of o.exports) {
      // `export *` passes neither a default export nor a name two modules export.
      if (name === 'default') throw new Error(`dist/cli/main.cjs: ${o.entryPoint} has a default export, which main.cjs cannot pass on: name it`);
      if (owner.has(name)) throw new Error(`dist/cli/main.cjs: ${owner.get(name)} and ${o.entryPoint} both export ${name}, which main.cjs can pass on for one only: rename one`);
      owner.set(name, o.entryPoint);
    }
  }
  return { all: new Set(modules), esm: Object.values(exported.metafile.outputs).map((o) => join(root, o.entryPoint)) };
}

/**
 * The program in one file, main.cjs, which exports every name of its ES modules; a command's
 * chunk that imports one of those modules requires main.cjs instead, already loaded by then.
 * esbuild's splitting alone gives each set of importers its own chunk: `svc --help` loaded six
 * files, each a read and a compile at every start. With `chunks` (module → its chunk), main.cjs's
 * own import()s are pointed at the chunks of the split build.
 */
function programInMain(program, chunks) {
  return {
    name: 'program-in-main',
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${PROGRAM}$`) }, () => ({ path: PROGRAM, namespace: PROGRAM }));
      b.onLoad({ filter: /.*/, namespace: PROGRAM }, () => ({ contents: program.esm.map((m) => `export * from ${JSON.stringify(m)};`).join('\n'), resolveDir: root, loader: 'js' }));
      b.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === PROGRAM || args.namespace === PROGRAM || args.kind === 'entry-point') return undefined;
        const outside = !program.all.has(args.importer);
        if (!outside && !(chunks && args.kind === 'dynamic-import')) return undefined;
        const { path, external } = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: PROGRAM });
        if (external) return undefined;
        if (!outside) return chunks.has(path) ? { path: chunks.get(path), external: true } : { errors: [{ text: `main.cjs: no chunk for ${relative(root, path)}` }] };
        if (!program.all.has(path)) return undefined;
        return program.esm.includes(path) ? { path: './main.cjs', external: true } : { errors: [{ text: `${relative(root, path)} is CommonJS inside main.cjs: import its package instead` }] };
      });
    },
  };
}

/** One esbuild ES module output as CommonJS whose import() of a chunk or a built-in is a require(). */
async function toCommonJs(text, name, external) {
  const usesMeta = text.includes('import.meta.url');
  const cjs = await transform(text, {
    loader: 'js',
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    minifyWhitespace: true,
    minifySyntax: true,
    // emulator/assets.ts finds the package root from its own file: dist/cli/ is under it too.
    define: usesMeta ? { 'import.meta.url': '__svc_import_meta_url' } : undefined,
    banner: usesMeta ? "const __svc_import_meta_url=require('node:url').pathToFileURL(__filename).href;" : undefined,
  });
  // A CommonJS package (undici) is required too: only an ES module stays an import() (@inquirer/prompts, loaded for a prompt only).
  const code = cjs.code.replace(/\bimport\((["'])(\.\/[\w.-]+\.cjs|node:[\w/]+|[\w@][\w@/.-]*)\1\)/g, (all, q, spec) =>
    CLI_ESM_ONLY.includes(spec) ? all : `Promise.resolve().then(()=>require(${q}${spec}${q}))`,
  );
  const left = [...code.matchAll(/\bimport\((["'])([^"']+)\1\)/g)].map((m) => m[2]).filter((spec) => !CLI_ESM_ONLY.includes(spec) && !external.includes(spec));
  if (left.length > 0 || /\bimport\((?!["'])/.test(code)) throw new Error(`dist/cli/${name}: an import() the CLI cannot turn into require(): ${left.join(', ') || 'not a string'}`);
  return code;
}

/**
 * dist/cli/fast.cjs, bin/svc.js's entry: src/cli/fast-main.ts and the fast path's parser
 * (fast-path.ts), and dist/cli/fast-run-….cjs, everything its commands run (fast-run.ts), built
 * apart from the program: its import of main.js is the split build's main.cjs. Two files and no
 * more, because each further chunk costs a read and a compile at every start, and `svc --help`
 * loads only the first.
 */
async function buildFast(out, external) {
  const programIsMainCjs = {
    name: 'program-is-main-cjs',
    setup(b) {
      b.onResolve({ filter: /^\.\/main\.js$/ }, (args) => (/[\\/]src[\\/]cli[\\/]fast-main\.[jt]s$/.test(args.importer) ? { path: './main.cjs', external: true } : undefined));
    },
  };
  const fast = await build({
    ...common,
    entryPoints: { fast: cliEntry('src/cli/fast-main') },
    outdir: out,
    outExtension: { '.js': '.cjs' },
    format: 'esm',
    splitting: true,
    chunkNames: 'fast-[name]-[hash]',
    external,
    plugins: [programIsMainCjs],
    write: false,
  });
  const inputs = Object.keys(fast.metafile.inputs);
  const strays = inputs.filter((i) => /node_modules[\\/](commander|zod|express)[\\/]|^(dist[\\/])?emulator[\\/]/.test(i));
  if (strays.length > 0) throw new Error(`dist/cli/fast.cjs must not carry commander, zod, express or the emulator: ${strays.slice(0, 3).join(', ')}`);
  // chalk is a chunk of its own, loaded only when colour is wanted (output.ts loadColour), and so
  // are the redaction rules, loaded only when a command failed (exit.ts).
  const onDemand = (o) => Object.keys(o.inputs).every((i) => i.includes('node_modules/chalk/')) || /(^|[\\/])src[\\/]cli[\\/]redact-failure\.[jt]s$/.test(o.entryPoint ?? '');
  const code = Object.entries(fast.metafile.outputs).filter(([, o]) => !onDemand(o));
  if (code.length !== 2) throw new Error(`the fast path is ${code.length} files, not 2: fast-run.ts must import statically what it runs, and nothing it shares with fast-main.ts but io.js's processIO`);
  for (const file of fast.outputFiles) writeFileSync(file.path, await toCommonJs(file.text, basename(file.path), external));
  report('dist/cli/fast', fast.metafile);
}

async function buildTesting() {
  const out = join(dist, 'testing');
  rmSync(out, { recursive: true, force: true });
  const result = await build({
    ...common,
    entryPoints: { index: join(dist, 'src/testing/index.js') },
    outdir: out,
    format: 'esm',
    splitting: true,
    chunkNames: '[name]-[hash]',
    // undici is imported on the first webhook attempt only; bundled, it would be a chunk whose
    // namespace holds only `default` (esbuild's split CommonJS module), not Agent.
    external: ['undici'],
    plugins: [emulatorTrims(root, 'svc-toolkit/testing')],
    // Bundled CommonJS packages (express and its dependencies) require built-ins.
    banner: { js: "import{createRequire as __svcCreateRequire}from'node:module';const require=__svcCreateRequire(import.meta.url);" },
  });
  noSplitCommonJs('dist/testing', result.metafile);
  writeFileSync(join(out, 'THIRD-PARTY-LICENSES.txt'), bundledLicenses(root, result.metafile));
  report('dist/testing', result.metafile);
}

/**
 * A chunk made for a CommonJS module that code import()s exports only `default` (esbuild cannot
 * name a CommonJS module's exports), so `(await import('x')).name` would be undefined in it.
 */
function noSplitCommonJs(name, metafile) {
  for (const [file, o] of Object.entries(metafile.outputs)) {
    if (o.entryPoint && isCommonJs(join(root, o.entryPoint))) {
      throw new Error(`${name}: ${relative(root, file)} is a chunk for ${o.entryPoint}, a CommonJS module loaded with import(): make it external`);
    }
  }
}

function report(name, metafile) {
  const outputs = Object.entries(metafile.outputs);
  const bytes = outputs.reduce((sum, [, o]) => sum + o.bytes, 0);
  if (process.env.SVC_BUILD_VERBOSE) for (const [file, o] of outputs) console.log(`  ${relative(root, file)} ${o.bytes}: ${Object.keys(o.inputs).map((i) => relative(root, i)).join(' ')}`);
  console.log(`${name}: ${outputs.length} files, ${(bytes / 1024).toFixed(0)} KB`);
}

await buildCli();
if (!fromSource) await buildTesting();
