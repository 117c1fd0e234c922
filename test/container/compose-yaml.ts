import { readFileSync } from 'node:fs';
import { messageOf } from '../../contract/errors.js';

// A reader for the subset of YAML examples/compose/docker-compose.yml is written in, so the
// suite checks the file without a YAML dependency: block mappings indented by two spaces,
// whole-line comments, and values that are plain scalars (kept as strings), "double-quoted"
// strings, or one-line flow collections in JSON syntax (["svc", "emulator", …]). Anything else
// (block lists, anchors, multi-line strings, tabs, trailing comments) is an error naming the
// line, so the file cannot drift into YAML this reader would misread.

export type Yaml = string | null | Yaml[] | { [key: string]: Yaml };

const KEY_LINE = /^( *)([A-Za-z0-9_.-]+):(?: (.*))?$/;

function scalar(raw: string, line: number): Yaml {
  const value = raw.trim();
  if (value.startsWith('[') || value.startsWith('{') || value.startsWith('"')) {
    try {
      return JSON.parse(value) as Yaml;
    } catch (err) {
      throw new Error(`line ${line}: not a one-line JSON-style value: ${value} (${messageOf(err)})`);
    }
  }
  if (/^['&*!|>%@`]|\s#/.test(value)) throw new Error(`line ${line}: outside the subset this reader knows: ${value}`);
  return value;
}

export function parseComposeYaml(text: string): { [key: string]: Yaml } {
  const root: { [key: string]: Yaml } = {};
  // The mapping open at each indentation level.
  const open: { indent: number; map: { [key: string]: Yaml } }[] = [{ indent: 0, map: root }];
  let pending: { indent: number; parent: { [key: string]: Yaml }; key: string } | undefined;
  text.split('\n').forEach((text, i) => {
    const line = i + 1;
    if (/^\s*(#.*)?$/.test(text)) return;
    if (text.includes('\t')) throw new Error(`line ${line}: tab`);
    const m = KEY_LINE.exec(text);
    if (!m) throw new Error(`line ${line}: not "key: value" or "key:": ${text}`);
    const indent = m[1]!.length;
    if (indent % 2 !== 0) throw new Error(`line ${line}: indentation is not a multiple of two`);
    if (pending && indent > pending.indent) {
      // The key above opens a mapping.
      if (indent !== pending.indent + 2) throw new Error(`line ${line}: indented more than one level`);
      const map: { [key: string]: Yaml } = {};
      pending.parent[pending.key] = map;
      open.push({ indent, map });
    } else if (pending && indent <= pending.indent) {
      pending.parent[pending.key] = null;
    }
    pending = undefined;
    while (open[open.length - 1]!.indent > indent) open.pop();
    const current = open[open.length - 1]!;
    if (current.indent !== indent) throw new Error(`line ${line}: indentation does not match any open mapping`);
    const key = m[2]!;
    if (key in current.map) throw new Error(`line ${line}: "${key}" repeated`);
    if (m[3] === undefined || m[3].trim() === '') {
      current.map[key] = null;
      pending = { indent, parent: current.map, key };
    } else {
      current.map[key] = scalar(m[3], line);
    }
  });
  return root;
}

export const readComposeYaml = (path: string) => parseComposeYaml(readFileSync(path, 'utf8'));

/** KEY=value lines of a compose .env file (comments and blank lines skipped). */
export function readDotEnv(path: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [i, raw] of readFileSync(path, 'utf8').split('\n').entries()) {
    const text = raw.trim();
    if (text === '' || text.startsWith('#')) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(text);
    if (!m) throw new Error(`${path}:${i + 1}: not KEY=value`);
    env[m[1]!] = m[2]!;
  }
  return env;
}

/** ${NAME} replaced from `vars`, as compose interpolates; an unknown name is an error. */
export function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`\${${name}} is not set (.env)`);
    return v;
  });
}
