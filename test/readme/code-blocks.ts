import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import type { Block } from './readme-blocks.js';

// The ```ts and ```js blocks of the README and docs/, run as a merchant's project would run them: files in a
// fresh folder whose node_modules/svc-toolkit is this repository (a symlink: the exports map
// resolves `svc-toolkit`, `/testing` and `/webhooks` to this build, `import` to the ES module
// build, `require` to the CommonJS one), next to the packages a snippet imports itself
// (express) and the type packages tsc needs.

export const repo = packageFile('');
const modules = (name: string) => join(repo, 'node_modules', name);

export interface Output {
  code: number | null;
  stdout: string;
  stderr: string;
}

function link(dir: string, name: string, target: string): void {
  mkdirSync(dirname(join(dir, 'node_modules', name)), { recursive: true });
  symlinkSync(target, join(dir, 'node_modules', name), 'dir');
}

/** A TypeScript project (ES modules, tsc --strict, node16-style resolution) holding each ts block as <page>-<line>.ts. */
export function writeTypeScriptProject(dir: string, blocks: Block[]): Map<Block, string> {
  mkdirSync(dir, { recursive: true });
  link(dir, 'svc-toolkit', repo);
  link(dir, 'express', modules('express'));
  link(dir, '@types', modules('@types'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-snippets', private: true, type: 'module' }, null, 2));
  const files = new Map(blocks.map((b) => [b, `${b.file.replace(/\.md$/, '').replace(/\W+/g, '-')}-${b.line}.ts`]));
  const compilerOptions = { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', types: ['node'], skipLibCheck: true, outDir: 'out', rootDir: '.' };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: [...files.values()] }, null, 2));
  for (const [b, file] of files) writeFileSync(join(dir, file), `${b.text}\n`);
  // What node runs: tsc's output for each block.
  return new Map([...files].map(([b, file]) => [b, join(dir, 'out', file.replace(/\.ts$/, '.js'))]));
}

/** A CommonJS project (no "type") for a jest block: the test file at the path its first comment names. */
export function writeJestProject(dir: string, block: Block): string {
  const path = /^\/\/ jest.*?:\s*(\S+\.test\.js)\s*$/m.exec(block.text)?.[1];
  if (!path) throw new Error('a jest block names its file in its first comment: "// jest …: __tests__/x.test.js"');
  mkdirSync(join(dir, dirname(path)), { recursive: true });
  link(dir, 'svc-toolkit', repo);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'readme-jest', private: true, scripts: { test: 'jest' } }, null, 2));
  writeFileSync(join(dir, path), `${block.text}\n`);
  return path;
}

/** Runs node with `args` to its exit, collecting its output; past `timeoutMs` it is killed (a hang, not a measurement). */
export async function node(args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<Output> {
  const child = spawn(process.execPath, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c) => (stdout += c));
  child.stderr!.on('data', (c) => (stderr += c));
  const guard = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs);
  try {
    const [code] = (await once(child, 'close')) as [number | null];
    return { code, stdout, stderr };
  } finally {
    clearTimeout(guard);
  }
}

/** A block that starts a server (`.listen(` on process.env.PORT): it runs while the blocks after it do. */
export const isServer = (b: Block) => /\.listen\(/.test(b.text) && /process\.env\.PORT/.test(b.text);
export const isNodeTest = (b: Block) => /from 'node:test'/.test(b.text);
export const isJest = (b: Block) => b.lang === 'js' && /^\/\/ jest\b/m.test(b.text);
