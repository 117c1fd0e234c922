import { readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { parse } from 'yaml';

// The compose example's files, read by the libraries made for them: `yaml` for the compose file
// (repeated keys refused, as compose does), Node's own .env reader for .env.

export type Yaml = string | number | boolean | null | Yaml[] | { [key: string]: Yaml };

export const readComposeYaml = (path: string) => parse(readFileSync(path, 'utf8'), { uniqueKeys: true }) as { [key: string]: Yaml };

export const readDotEnv = (path: string): Record<string, string> => parseEnv(readFileSync(path, 'utf8')) as Record<string, string>;

/** ${NAME} replaced from `vars`, as compose interpolates; an unknown name is an error. */
export function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_all, name: string) => {
    const v = vars[name];
    if (v === undefined) throw new Error(`\${${name}} is not set (.env)`);
    return v;
  });
}
