import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';

/**
 * What a bundle of the emulator (dist/testing, the single executable) leaves out of its
 * dependencies, and why it may (scripts/build-bundles.mjs's header has the numbers): zod's 40
 * translations of its messages (svc's are English, zod's default), and iconv-lite's tables for
 * Chinese, Japanese and Korean encodings (body-parser decodes only the charsets its parsers accept
 * first: utf-* for JSON, utf-8 and iso-8859-1 for forms; svc runs no other user of iconv-lite).
 * The JSON files packages require (mime-db's 150 KB database above all) become JSON.parse('…') of
 * one string, which V8 parses faster than the same data as an object literal.
 */
export function emulatorTrims(root, bundle) {
  return {
    name: 'emulator-trims',
    setup(b) {
      b.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => {
        if (!readFileSync(args.path, 'utf8').includes('export { default as en } from "./en.js";')) throw new Error(`${relative(root, args.path)}: zod's English locale moved; update scripts/lib/trims.mjs`);
        return { contents: 'export { default as en } from "./en.js";', loader: 'js' };
      });
      b.onLoad({ filter: /[\\/]iconv-lite[\\/]encodings[\\/]tables[\\/][\w-]+\.json$/ }, (args) => ({
        contents: `throw new Error(${JSON.stringify(`${bundle} does not bundle iconv-lite's ${basename(args.path)}: body-parser refuses that charset before decoding`)});`,
        loader: 'js',
      }));
      b.onLoad({ filter: /[\\/]node_modules[\\/].*\.json$/ }, (args) => {
        const data = JSON.stringify(JSON.parse(readFileSync(args.path, 'utf8')));
        return { contents: `module.exports = JSON.parse(${JSON.stringify(data)});`, loader: 'js' };
      });
      // No code of ours may reach for another language.
      b.onLoad({ filter: /[\\/]dist[\\/](src|emulator|contract)[\\/].*\.js$/ }, (args) => {
        if (/\blocales\b/.test(readFileSync(args.path, 'utf8'))) throw new Error(`${relative(root, args.path)} uses zod's locales, which ${bundle} leaves out`);
        return undefined;
      });
    },
  };
}
