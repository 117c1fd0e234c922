import { readdirSync, readFileSync } from 'node:fs';
import { packageFile } from '../../emulator/assets.js';

// The fenced blocks of README.md and of every page under docs/, as a reader sees them: the
// language after the fence (`sh`, `ts`, `js`, `json`, `yaml`, or none), the text, where it is
// (page, line, section) and, when the line right before the fence is `<!-- not run: <reason> -->`,
// why the blocks test does not run it.

/** The pages whose blocks the test runs: the README and every docs/*.md, as paths from the package root. */
export const PAGES = ['README.md', ...readdirSync(packageFile('docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

export interface Block {
  /** The page, from the package root: README.md, docs/webhooks.md. */
  file: string;
  /** The language after the opening fence; '' for a bare fence. */
  lang: string;
  text: string;
  /** 1-based line of the opening fence in its page. */
  line: number;
  /** The nearest heading above the block, without its #s. */
  section: string;
  /** The reason in `<!-- not run: … -->` on the line before the fence. */
  notRun?: string;
}

const NOT_RUN = /^<!-- not run: (.+?) -->$/;

export function readBlocks(file = 'README.md', text = readFileSync(packageFile(file), 'utf8')): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) section = heading[1]!;
    const fence = /^```(\S*)\s*$/.exec(line);
    if (!fence) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    if (end === -1) throw new Error(`${file}:${i + 1}: a fence that is never closed`);
    const reason = NOT_RUN.exec(lines[i - 1] ?? '')?.[1];
    blocks.push({ file, lang: fence[1]!, text: lines.slice(i + 1, end).join('\n'), line: i + 1, section, ...(reason !== undefined && { notRun: reason }) });
    i = end;
  }
  return blocks;
}

/** `<!-- not run` comments that do not stand right before a fence (a block moved away from its mark). */
export function strayMarks(file = 'README.md', text = readFileSync(packageFile(file), 'utf8')): number[] {
  const lines = text.split('\n');
  return lines.flatMap((l, i) => (l.startsWith('<!-- not run') && !(NOT_RUN.test(l) && lines[i + 1]?.startsWith('```')) ? [i + 1] : []));
}

export const where = (b: Block) => `${b.file}:${b.line} (${b.section}, \`\`\`${b.lang})`;
