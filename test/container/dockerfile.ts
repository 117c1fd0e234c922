import { readFileSync } from 'node:fs';

// Reads a Dockerfile into its instructions, as far as the container tests need: stages (FROM …
// AS …), and of the last stage (the image) its ENV, USER, WORKDIR, VOLUME, EXPOSE, HEALTHCHECK
// and CMD. Exec-form (JSON array) CMD and HEALTHCHECK only: a shell-form line would run under
// /bin/sh -c in the image, which is not what these tests reproduce, so it is refused here.

export interface Instruction {
  keyword: string;
  args: string;
  line: number;
}

export interface Stage {
  from: string;
  name?: string;
  instructions: Instruction[];
}

export interface ImageFacts {
  stages: Stage[];
  /** ENV of the image (the last stage), in order; later lines win. */
  env: Record<string, string>;
  user?: string;
  workdir?: string;
  volumes: string[];
  exposed: string[];
  healthcheck?: { options: Record<string, string>; cmd: string[] };
  cmd?: string[];
}

/** Instructions with continuation lines joined and comments dropped. */
export function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!;
    if (/^\s*(#|$)/.test(line)) continue;
    while (/\\\s*$/.test(line) && i + 1 < lines.length) {
      line = line.replace(/\\\s*$/, ' ');
      i++;
      // A comment line inside a continuation is skipped, as Docker does.
      if (!/^\s*#/.test(lines[i]!)) line += lines[i]!;
    }
    const m = /^\s*([A-Za-z]+)\s+([\s\S]*?)\s*$/.exec(line);
    if (!m) throw new Error(`Dockerfile line ${start + 1}: cannot read "${line}"`);
    out.push({ keyword: m[1]!.toUpperCase(), args: m[2]!.replace(/\s+/g, ' '), line: start + 1 });
  }
  return out;
}

/** A JSON array of strings (exec form), or an error naming the line. */
function execForm(args: string, where: Instruction): string[] {
  let value: unknown;
  try {
    value = JSON.parse(args);
  } catch {
    throw new Error(`Dockerfile line ${where.line}: ${where.keyword} is not in exec form (a JSON array): ${args}`);
  }
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) {
    throw new Error(`Dockerfile line ${where.line}: ${where.keyword} must be a non-empty JSON array of strings`);
  }
  return value as string[];
}

/** KEY=value pairs of one ENV line (values may be "quoted"); the legacy `ENV KEY value` too. */
function envPairs(args: string, where: Instruction): [string, string][] {
  if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(args)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s+(.*)$/.exec(args);
    if (!m) throw new Error(`Dockerfile line ${where.line}: cannot read ENV ${args}`);
    return [[m[1]!, m[2]!]];
  }
  const pairs: [string, string][] = [];
  const re = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S*)\s*/gy;
  let m: RegExpExecArray | null;
  let end = 0;
  while ((m = re.exec(args)) !== null && m[0] !== '') {
    pairs.push([m[1]!, m[2]!.startsWith('"') ? (JSON.parse(m[2]!) as string) : m[2]!]);
    end = re.lastIndex;
  }
  if (end !== args.length) throw new Error(`Dockerfile line ${where.line}: cannot read ENV ${args}`);
  return pairs;
}

export function readDockerfile(path: string): ImageFacts {
  const stages: Stage[] = [];
  for (const ins of instructions(readFileSync(path, 'utf8'))) {
    if (ins.keyword === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(ins.args);
      if (!m) throw new Error(`Dockerfile line ${ins.line}: cannot read FROM ${ins.args}`);
      stages.push({ from: m[1]!, name: m[2], instructions: [] });
      continue;
    }
    if (stages.length === 0) throw new Error(`Dockerfile line ${ins.line}: ${ins.keyword} before any FROM`);
    stages[stages.length - 1]!.instructions.push(ins);
  }
  const image = stages[stages.length - 1];
  const facts: ImageFacts = { stages, env: {}, volumes: [], exposed: [] };
  for (const ins of image?.instructions ?? []) {
    switch (ins.keyword) {
      case 'ENV':
        for (const [k, v] of envPairs(ins.args, ins)) facts.env[k] = v;
        break;
      case 'USER':
        facts.user = ins.args;
        break;
      case 'WORKDIR':
        facts.workdir = ins.args;
        break;
      case 'VOLUME':
        facts.volumes.push(...(ins.args.startsWith('[') ? execForm(ins.args, ins) : ins.args.split(' ')));
        break;
      case 'EXPOSE':
        facts.exposed.push(...ins.args.split(' '));
        break;
      case 'CMD':
        facts.cmd = execForm(ins.args, ins);
        break;
      case 'HEALTHCHECK': {
        const m = /^((?:--[a-z-]+=\S+\s+)*)CMD\s+(.*)$/.exec(ins.args);
        if (!m) throw new Error(`Dockerfile line ${ins.line}: HEALTHCHECK must be [--option=value …] CMD [ … ]`);
        const options: Record<string, string> = {};
        for (const opt of m[1]!.trim().split(/\s+/).filter(Boolean)) {
          const [k, v] = opt.slice(2).split('=') as [string, string];
          options[k] = v;
        }
        facts.healthcheck = { options, cmd: execForm(m[2]!, ins) };
        break;
      }
    }
  }
  return facts;
}
