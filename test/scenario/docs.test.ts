import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageFile } from '../../emulator/assets.js';
import { tempDir } from '../helpers/emulator.js';
import { cliSession } from '../cli/cli.js';
import { readBlocks } from '../readme/readme-blocks.js';

// docs/scenarios.md as a reader uses it: its scenario file runs (and fails as its sample output
// says with --env AMOUNT=1200), and every svc command of its sh blocks exits 0.

const cli = cliSession({ clock: 'system' });
const blocks = readBlocks('docs/scenarios.md');
const dir = tempDir('svc-scenario-docs-');

/** A command line as the shell splits it: words, '…' and "…" quoting; a trailing comment and `> file` dropped. */
function words(line: string): string[] {
  const out: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const c of line.replace(/\s+#.*$/, '').replace(/\s+>\s*\S+$/, '')) {
    if (quote) {
      if (c === quote) quote = undefined;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= '';
    } else if (/\s/.test(c)) {
      if (word !== undefined) out.push(word);
      word = undefined;
    } else word = (word ?? '') + c;
  }
  if (word !== undefined) out.push(word);
  return out;
}

test('the scenario file of docs/scenarios.md runs against the emulator, and fails as its sample output shows', async () => {
  const [file] = blocks.filter((b) => b.lang === 'yaml');
  assert.match(file.text, /^name: checkout$/m);
  writeFileSync(join(dir, 'checkout.yaml'), file.text);
  const ok = await cli.svc(['scenario', 'run', 'checkout.yaml'], undefined, { cwd: dir, timeoutMs: 120_000 });
  assert.equal(ok.code, 0, ok.stdout + ok.stderr);
  const sample = blocks.find((b) => b.text.startsWith('$ svc scenario run checkout.yaml'))!;
  const failing = await cli.svc(words(sample.text.split('\n')[0].slice(2)).slice(1), undefined, { cwd: dir, timeoutMs: 120_000 });
  assert.equal(failing.code, 1);
  const expected = sample.text.split('\n').slice(1).map((l) => l.replace(/pl_\w+|pay_\w+/g, 'ID').replace(/\d+(\.\d+)? (ms|s)$/, 'T'));
  const got = failing.stdout.trimEnd().split('\n').map((l) => l.replace(/pl_\w+|pay_\w+/g, 'ID').replace(/\d+(\.\d+)? (ms|s)$/, 'T'));
  assert.deepEqual(got.map((l) => l.replace(/ +/g, ' ')), expected.map((l) => l.replace(/ +/g, ' ')));
});

test('every svc command of the sh blocks of docs/scenarios.md exits 0', async () => {
  const lines = blocks.filter((b) => b.lang === 'sh').flatMap((b) => b.text.split('\n')).filter((l) => l.startsWith('svc '));
  assert.ok(lines.length >= 8);
  for (const line of lines) {
    const args = words(line).slice(1);
    const noTarget = args[0] === 'scenario' && (args[1] === 'list' || args[1] === 'check');
    const r = noTarget ? await cli.run(args, { cwd: dir }) : await cli.svc(args, undefined, { cwd: dir, timeoutMs: 120_000 });
    assert.equal(r.code, 0, `${line}\n${r.stdout}${r.stderr}`);
  }
});
