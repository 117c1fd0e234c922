import { existsSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';

/** Node's own rule: .cjs, or .js under a package.json without "type": "module". */
export function isCommonJs(file) {
  if (extname(file) === '.cjs') return true;
  if (extname(file) !== '.js') return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}
