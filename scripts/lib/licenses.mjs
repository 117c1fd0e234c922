import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LICENSE_RULE = `\n${'-'.repeat(72)}\n\n`;

/**
 * The packages an esbuild bundle carries (its metafile's inputs under node_modules), each with
 * its licence text: MIT and ISC ask that their notice travels with every copy.
 */
export function bundledLicenses(root, metafile, heading = 'Packages bundled into the files of this folder:') {
  const packages = new Map();
  for (const input of Object.keys(metafile.inputs)) {
    const m = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (m) packages.set(m[1], join(root, input.slice(0, m.index + m[0].length)));
  }
  const sections = [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, dir]) => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const file = readdirSync(dir).find((f) => /^licen[cs]e([-.][\w.-]+)?$/i.test(f));
    if (!file) throw new Error(`${name} has no LICENSE file to ship with the bundle`);
    return `${name}@${manifest.version} (${manifest.license})\n\n${readFileSync(join(dir, file), 'utf8').trim()}\n`;
  });
  return `${heading}\n\n${sections.join(LICENSE_RULE)}`;
}
