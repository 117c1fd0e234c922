// The product's size, as issue 37 measures it: lines of every .ts file under contract/,
// emulator/ and src/ (as `wc -l` counts them), and `as` casts in them, found on the syntax tree
// (TypeScript's own parser, so a cast inside a string or a comment does not count; `as const`
// asserts nothing about a type and does not count either; `<T>x` assertions do).
// `node scripts/size.mjs` prints both; `--list` prints each cast's place too.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const root = new URL('..', import.meta.url).pathname;
const DIRS = ['contract', 'emulator', 'src'];

function sources(dir) {
  const out = [];
  for (const name of readdirSync(join(root, dir)).sort()) {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) out.push(...sources(path));
    else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

const isConst = (type) => ts.isTypeReferenceNode(type) && ts.isIdentifier(type.typeName) && type.typeName.text === 'const';

let lines = 0;
const casts = [];
for (const file of DIRS.flatMap(sources)) {
  const text = readFileSync(join(root, file), 'utf8');
  lines += text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if ((ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)) && !isConst(node.type)) {
      casts.push(`${file}:${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${node.getText().replace(/\s+/g, ' ').slice(0, 100)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
}

if (process.argv.includes('--list')) for (const c of casts) console.log(c);
console.log(`product lines: ${lines}`);
console.log(`as casts: ${casts.length}`);
