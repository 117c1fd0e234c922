// The CommonJS build of the package's three library entries (`.`, `./webhooks`, `./testing`),
// for `require` and for jest in its default mode. Runs after tsc (`npm run build`, `prepack`):
// it bundles tsc's own ESM output, so both builds are the same JavaScript, and copies tsc's
// declarations as .d.cts so TypeScript sees CommonJS types for the CommonJS files.
//
//   dist/cjs/index.cjs, webhooks.cjs, testing.cjs   one bundle per entry (the emulator included:
//                                                   ./testing starts one in the test's process)
//   dist/cjs/<entry>.d.cts                          `export *` from the entry's declarations below
//   dist/cjs/types/**.d.cts                         the declarations those reach, imports rewritten
//                                                   from .js to .cjs (TypeScript reads a .d.cts for a
//                                                   .cjs specifier, and takes a .d.cts as CommonJS)
//
// Dependencies stay external (the consumer's installed zod, express, undici), so each must have a
// CommonJS build: Node 20.18 cannot require() an ES module, and neither can jest's CommonJS mode.
// Each bundle is a second copy of the code (the dual-package hazard): nothing in it keeps state
// that the ESM copy would need to see — every emulator owns its store, clock and server.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isCommonJs } from './lib/module-kind.mjs';

// fileURLToPath, not URL.pathname: a Windows runner builds the executable too (release.yml).
const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const out = join(dist, 'cjs');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

/** Entry name → tsc's ESM output for it (package.json's exports point at both). */
const ENTRIES = { index: 'src/index', webhooks: 'src/webhooks/signature', testing: 'src/testing/index' };

rmSync(out, { recursive: true, force: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, join(dist, `${path}.js`)])),
  outdir: out,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  // import() becomes require(): jest's CommonJS mode runs modules in a vm without a dynamic
  // import hook, and the client loads node:http and undici that way.
  supported: { 'dynamic-import': false },
  // The one import.meta use (emulator/assets.ts packageFile: the package root, for the bundled
  // fixtures) gets this file's URL; dist/cjs/ is under the same root as dist/emulator/.
  define: { 'import.meta.url': '__svc_import_meta_url' },
  banner: { js: "const __svc_import_meta_url = require('node:url').pathToFileURL(__filename).href;" },
  metafile: true,
  logLevel: 'warning',
});

// Every package the bundles load must be a dependency with a CommonJS build.
const requireFromRoot = createRequire(join(root, 'package.json'));
const externals = new Set(Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => i.path)));
for (const name of externals) {
  const bare = name.startsWith('@') ? name.split('/').slice(0, 2).join('/') : name.split('/')[0];
  if (!pkg.dependencies?.[bare]) throw new Error(`dist/cjs loads ${name}, which is not in package.json's dependencies`);
  const file = requireFromRoot.resolve(name);
  if (!isCommonJs(file)) throw new Error(`dist/cjs loads ${name}, whose require() target ${relative(root, file)} is an ES module`);
}

// The declarations each entry reaches, as .d.cts: `from '…'`, `import('…')` and `import '…'`.
const RELATIVE_SPECIFIER = /(from\s+|import\s*\(\s*|import\s+)(['"])(\.\.?\/[^'"]+)\2/g;
const copied = new Set();
for (const [name, path] of Object.entries(ENTRIES)) {
  copyDeclaration(`${path}.d.ts`);
  writeFileSync(join(out, `${name}.d.cts`), `export * from './types/${path}.cjs';\n`);
}

function copyDeclaration(path) {
  if (copied.has(path)) return;
  copied.add(path);
  const text = readFileSync(join(dist, path), 'utf8');
  const rewritten = text.replace(RELATIVE_SPECIFIER, (_whole, lead, quote, spec) => {
    if (!spec.endsWith('.js')) throw new Error(`${path} imports ${spec}: tsc's output names .js files only`);
    const target = join(dirname(path), `${spec.slice(0, -3)}.d.ts`);
    if (!existsSync(join(dist, target))) throw new Error(`${path} imports ${spec}, which has no declaration in dist/`);
    copyDeclaration(target);
    return `${lead}${quote}${spec.slice(0, -3)}.cjs${quote}`;
  });
  const file = join(out, 'types', path.replace(/\.d\.ts$/, '.d.cts'));
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, rewritten);
}

