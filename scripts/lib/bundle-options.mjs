/**
 * The esbuild options every bundle of the CLI and the emulator shares (dist/cli, dist/testing,
 * the single executable): whitespace and syntax minified, names kept (scripts/build-bundles.mjs
 * says why), licences written apart (scripts/lib/licenses.mjs), a metafile to check and report.
 */
export const bundleOptions = (root) => ({
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
});
