import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';
import { COMMANDS, DOCS_PAGES, docsPage } from '../../src/cli/commands.js';
import { existsSync, readdirSync } from 'node:fs';
import { packageFile } from '../../emulator/assets.js';
import { tempDir } from '../helpers/emulator.js';
import { cliHome, familySmokeTest } from './cli.js';

// Every command has --help with examples; completion scripts complete. (That the client and the
// emulator share one route table is test/architecture.test.ts's.)

const cli = cliHome();

function leaves(cmd: Command, path: string[] = []): { path: string[]; cmd: Command }[] {
  if (cmd.commands.length === 0) return [{ path, cmd }];
  return cmd.commands.flatMap((c) => leaves(c, [...path, c.name()]));
}

function helpOf(cmd: Command): string {
  let text = '';
  cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
  cmd.outputHelp();
  return text;
}

test('every command has a description and --help with examples', async () => {
  const program = await buildProgram('0.0.0-test', 'all');
  const all = leaves(program);
  assert.ok(all.length >= 60, `${all.length} commands`);
  for (const { path, cmd } of all) {
    const help = helpOf(cmd);
    assert.ok(cmd.description(), `${path.join(' ')} has a description`);
    assert.match(help, /\nExamples:\n  \$ \S/, `svc ${path.join(' ')} --help shows examples`);
    assert.doesNotMatch(help, /\b[a-z]+_123\b/, `svc ${path.join(' ')}: example ids look like real ones`);
  }
  const helpOfPath = (...p: string[]) => helpOf(all.find(({ path }) => path.join(' ') === p.join(' '))!.cmd);
  // The id prefixes the service really uses (emulator/ids.ts): prun_, mdt_, pl_, dlv_.
  assert.match(helpOfPath('payroll', 'approve'), /svc payroll approve prun_[A-Za-z0-9]{20}/);
  assert.match(helpOfPath('mandates', 'get'), /svc mandates get mdt_[A-Za-z0-9]{20}/);
  assert.match(helpOfPath('links', 'simulate'), /svc links simulate pl_[A-Za-z0-9]{20}/);
  assert.match(helpOfPath('webhooks', 'replay'), /svc webhooks replay dlv_[A-Za-z0-9]{20}/);
  // API commands all take the shared connection flags.
  for (const { path, cmd } of all.filter(({ path }) => ['links', 'payments', 'mandates', 'charges', 'payouts', 'payroll', 'sub-merchants'].includes(path[0]))) {
    const longs = cmd.options.map((o) => o.long);
    for (const flag of ['--api-key', '--base-url', '--profile', '--json', '--no-input', '--timeout']) assert.ok(longs.includes(flag), `svc ${path.join(' ')} has ${flag}`);
  }
});

test('--help: exit 0 at every level, on stdout; no command is a usage error (exit 2)', async () => {
  for (const args of [['--help'], ['links', '--help'], ['webhooks', 'listen', '--help'], ['emulator', 'payees', 'approve', '--help'], ['help', 'payroll']]) {
    const r = await cli.run(args);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stdout, /Usage: svc/);
  }
  const top = await cli.run(['--help']);
  assert.match(top.stdout, /Exit codes: 0 success · 1 API or network error · 2 usage error/);
  // In-process, --version is answered by main (commander); the binary's own fast path is tested below.
  const version = await cli.run(['--version']);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const bare = await cli.run(['links']);
  assert.equal(bare.code, 2);
  assert.match(bare.stderr, /Usage: svc links/, 'the usage goes to stderr');
});

test('the built binary: --version from its own fast path, --help from main', async () => {
  // Binary: bin/svc.js answers a lone --version itself, before main.js is even imported.
  const version = await cli.run(['--version'], { binary: true });
  assert.equal(version.code, 0, version.stderr);
  assert.match(version.stdout, /^\d+\.\d+\.\d+\n$/);
  const top = await cli.run(['--help'], familySmokeTest);
  assert.equal(top.code, 0, top.stderr);
  assert.match(top.stdout, /^Usage: svc /);
});

test('svc completion bash completes commands, subcommands and flags', async () => {
  const r = await cli.run(['completion', 'bash']);
  assert.equal(r.code, 0, r.stderr);
  const script = join(tempDir('svc-cli-completion-'), 'svc.bash');
  writeFileSync(script, r.stdout);
  const complete = (words: string[]) => {
    const cword = words.length - 1;
    const out = spawnSync('bash', ['-c', `source ${script}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${cword}; _svc_complete; echo "\${COMPREPLY[*]}"`], { encoding: 'utf8' });
    assert.equal(out.status, 0, out.stderr);
    return out.stdout.trim().split(' ');
  };
  assert.deepEqual(complete(['svc', 'pay']), ['payments', 'payroll', 'payouts']);
  assert.deepEqual(complete(['svc', 'links', '']).slice(0, 3), ['create', 'get', 'simulate']);
  assert.ok(complete(['svc', 'links', 'create', '--ti']).includes('--title'));
  assert.deepEqual(complete(['svc', 'emulator', 'clock', 'adv']), ['advance']);
  const zsh = await cli.run(['completion', 'zsh'], familySmokeTest);
  assert.match(zsh.stdout, /^#compdef svc\nautoload -U \+X bashcompinit/);
});

/** Every command under `cmd`, groups included, with its path. */
function allCommands(cmd: Command, path: string[] = []): { path: string[]; cmd: Command }[] {
  return cmd.commands.flatMap((c) => [{ path: [...path, c.name()], cmd: c }, ...allCommands(c, [...path, c.name()])]);
}

test('every --help ends with the docs page of its command, and the table names pages that exist', async () => {
  const pages = readdirSync(packageFile('docs')).filter((f) => f.endsWith('.md'));
  for (const [command, page] of Object.entries(DOCS_PAGES)) assert.ok(pages.includes(page), `DOCS_PAGES['${command}'] = ${page}: no docs/${page}`);
  for (const entry of COMMANDS) assert.ok(DOCS_PAGES[entry.name], `svc ${entry.name} has a page in DOCS_PAGES`);
  const program = await buildProgram('0.0.0-test', 'all');
  const all = allCommands(program).filter(({ cmd }) => cmd.name() !== 'help');
  for (const { path, cmd } of all) {
    const page = docsPage(path)!;
    assert.ok(existsSync(packageFile(`docs/${page}`)));
    assert.equal(helpOf(cmd).trimEnd().split('\n').at(-1), `Docs: docs/${page} (installed: node_modules/svc-toolkit/docs/${page})`, `svc ${path.join(' ')} --help`);
  }
  // The longest path wins: a subcommand with a page of its own, and one that inherits its group's.
  assert.equal(docsPage(['emulator', 'faults', 'add']), 'faults.md');
  assert.equal(docsPage(['emulator', 'keys']), 'emulator.md');
  // Through the real command line, after the examples.
  const r = await cli.run(['webhooks', 'check', '--help']);
  assert.match(r.stdout, /\nExamples:\n[\s\S]*\n\nDocs: docs\/webhooks\.md \(installed: node_modules\/svc-toolkit\/docs\/webhooks\.md\)\n$/);
});
