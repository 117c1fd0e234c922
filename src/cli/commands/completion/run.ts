import type { Command } from 'commander';
import { buildProgram } from '../../main.js';
import type { CliIO } from '../../io.js';

// Completion from the real command tree (every command loaded), so it cannot drift: a table
// of "command path → words that may follow", and a small shell function that walks it.

export async function run([shell]: string[], _flags: unknown, io: CliIO, cmd: Command): Promise<void> {
  const program = await buildProgram(cmd.parent?.version() ?? '0.0.0', 'all', io);
  const table = new Map<string, string[]>();
  const walk = (c: Command, path: string) => {
    const words = [...c.commands.map((s) => s.name()), ...c.options.map((o) => o.long).filter((l): l is string => Boolean(l)), '--help'];
    table.set(path, words);
    for (const s of c.commands) walk(s, `${path} ${s.name()}`);
  };
  // Paths start with "svc": bash refuses an empty associative-array key.
  walk(program, 'svc');
  const entries = [...table].map(([path, words]) => `  [${JSON.stringify(path)}]=${JSON.stringify(words.join(' '))}`).join('\n');
  const bash = `# svc completion (bash 4+); load with: source <(svc completion bash)
_svc_complete() {
  local -A words=(
${entries}
  )
  local path="svc" i w
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    if [[ -n "\${words["$path $w"]+x}" ]]; then path="$path $w"; fi
  done
  COMPREPLY=($(compgen -W "\${words["$path"]}" -- "\${COMP_WORDS[COMP_CWORD]}"))
}
complete -o default -F _svc_complete svc
`;
  io.stdout.write(shell === 'zsh' ? `#compdef svc\nautoload -U +X bashcompinit && bashcompinit\n${bash}` : bash);
}
