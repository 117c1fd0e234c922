import { messageOf } from '../../contract/errors.js';

// A reader for the YAML of the README's GitHub Actions snippet, so the test checks it without a
// YAML dependency. test/container/compose-yaml.ts reads the compose file and refuses on purpose
// what this snippet needs (a list of steps, a folded `>-` string, trailing comments), so this is
// a second small reader rather than a looser first one: block mappings indented by two spaces,
// block lists of mappings (`- run: …`), `>-` folded strings, comments (whole-line and after
// a value), and scalars: plain (kept as strings), "double-quoted", or one-line JSON-style
// collections (["4242:4242"]). Anything else is an error naming the line.

export type Yaml = string | null | Yaml[] | { [key: string]: Yaml };
type Map = { [key: string]: Yaml };

const LINE = /^( *)(- )?([A-Za-z0-9_.-]+):(?: (.*))?$/;

function stripComment(value: string): string {
  if (value.startsWith('"') || value.startsWith('[') || value.startsWith('{')) return value.trim();
  const at = value.search(/\s#/);
  return (at === -1 ? value : value.slice(0, at)).trim();
}

function scalar(raw: string, line: number): Yaml {
  const value = stripComment(raw);
  if (/^["[{]/.test(value)) {
    try {
      return JSON.parse(value) as Yaml;
    } catch (err) {
      throw new Error(`line ${line}: not a one-line JSON-style value: ${value} (${messageOf(err)})`);
    }
  }
  if (/^['&*!|%@`]/.test(value)) throw new Error(`line ${line}: outside the subset this reader knows: ${value}`);
  return value;
}

interface Open {
  /** Column of this mapping's keys. */
  indent: number;
  map: Map;
}

export function parseActionsYaml(text: string): Map {
  const root: Map = {};
  const open: Open[] = [{ indent: 0, map: root }];
  const lines = text.split('\n');
  // The key whose value (a mapping, a list, or a folded string) starts on the next lines.
  let pending: { indent: number; parent: Map; key: string } | undefined;
  for (let i = 0; i < lines.length; i++) {
    const n = i + 1;
    const text = lines[i]!;
    if (/^\s*(#.*)?$/.test(text)) continue;
    if (text.includes('\t')) throw new Error(`line ${n}: tab`);
    const m = LINE.exec(text);
    if (!m) throw new Error(`line ${n}: not "key: value", "key:" or "- key: value": ${text}`);
    const [, spaces, dash, key, value] = m;
    const indent = spaces!.length;
    const keyIndent = dash ? indent + 2 : indent;
    if (pending) {
      const parent = pending;
      pending = undefined;
      if (dash && indent >= parent.indent) {
        parent.parent[parent.key] = [];
      } else if (!dash && indent === parent.indent + 2) {
        const map: Map = {};
        parent.parent[parent.key] = map;
        open.push({ indent, map });
      } else if (indent <= parent.indent) {
        parent.parent[parent.key] = null;
      } else {
        throw new Error(`line ${n}: indented more than one level`);
      }
    }
    while (open.length > 1 && open[open.length - 1]!.indent > (dash ? indent : keyIndent)) open.pop();
    let target: Map;
    if (dash) {
      // A new list item: a mapping in the list held by the innermost key at or above this column.
      const holder = open[open.length - 1]!;
      const list = Object.values(holder.map).at(-1);
      if (!Array.isArray(list)) throw new Error(`line ${n}: a list item where no list is open`);
      target = {};
      list.push(target);
      open.push({ indent: keyIndent, map: target });
    } else {
      const current = open[open.length - 1]!;
      if (current.indent !== indent) throw new Error(`line ${n}: indentation does not match any open mapping`);
      target = current.map;
    }
    if (key! in target) throw new Error(`line ${n}: "${key}" repeated`);
    const raw = value?.trim() ?? '';
    if (raw === '>-') {
      // Folded: the more-indented lines that follow, joined by spaces.
      const parts: string[] = [];
      while (i + 1 < lines.length && (lines[i + 1]!.trim() === '' || lines[i + 1]!.search(/\S/) > keyIndent)) parts.push(lines[++i]!.trim());
      target[key!] = parts.filter((p) => p !== '').join(' ');
    } else if (raw === '' || raw.startsWith('#')) {
      target[key!] = null;
      pending = { indent: keyIndent, parent: target, key: key! };
    } else {
      target[key!] = scalar(raw, n);
    }
  }
  return root;
}
