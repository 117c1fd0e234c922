import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';
import { fastWords } from '../../src/cli/fast-path.js';
import { FAST_COMMANDS, fastInvocation } from '../../src/cli/fast-run.js';
import { API_FLAGS, flagName } from '../../src/cli/flags.js';
import { KEYS, startTestEmulator } from '../helpers/emulator.js';
import { runCli, type CliResult } from './cli.js';

// The fast path (src/cli/fast-path.ts) parses a few read commands without commander. It may
// decline any command line, but what it accepts it must read exactly as commander does, and the
// command must then behave byte for byte as it does through commander (SVC_FAST_PATH=0).

/** What commander hands the command's action for `args`: its positional arguments and flags. */
async function commanderParse(args: string[]): Promise<{ positional: string[]; flags: Record<string, unknown> }> {
  const program = await buildProgram('0.0.0', [args[0]]);
  const sub = program.commands.find((c) => c.name() === args[0])!.commands.find((c) => c.name() === args[1])!;
  let seen: { positional: string[]; flags: Record<string, unknown> } | undefined;
  sub.action((...all: unknown[]) => {
    const cmd = all[all.length - 1] as Command;
    seen = { positional: all.slice(0, -2) as string[], flags: { ...cmd.opts() } };
  });
  await program.parseAsync(['node', 'svc', ...args]);
  assert.ok(seen, `commander did not run ${args.join(' ')}`);
  return seen;
}

/** Every way of writing the flags the fast path takes, each alone and several together, the id before, after and between them. */
function acceptedLines(words: readonly string[], booleans: string[]): string[][] {
  // Each flag with its value, as one group: the id goes between groups, never inside one.
  const flagSets: string[][][] = [
    [],
    [['--json']],
    [['--verbose']],
    [['--no-input']],
    [['--base-url', 'http://127.0.0.1:9']],
    [['--base-url=http://127.0.0.1:9/']],
    [['--api-key', KEYS.acmeTest]],
    [['--api-key=' + KEYS.acmeTest]],
    [['--profile', 'ci']],
    [['--trace-id', 'trc_mine']],
    [['--trace-id=a=b']],
    [['--timeout', '1']],
    [['--timeout=600000']],
    [['--timeout', '030']],
    [['--control-token', 'svc_ctl_fast-path-token-0123456789abcdef']],
    [['--timeout', '45000'], ['--json'], ['--no-input'], ['--verbose']],
    ...booleans.map((b) => [[b]]),
    [['--json'], ...booleans.map((b) => [b]), ['--api-key', KEYS.acmeTest], ['--base-url', 'http://127.0.0.1:9'], ['--profile', 'p'], ['--trace-id', 't']],
  ];
  return flagSets.flatMap((groups) => [
    [...words, 'pl_1', ...groups.flat()],
    [...words, ...groups.flat(), 'PL-7K2M9QXA'],
    [...words, ...groups.slice(0, 1).flat(), 'pay_1', ...groups.slice(1).flat()],
  ]);
}

test('every command line the fast path takes gives the command what commander gives it', async () => {
  let compared = 0;
  for (const [words, command] of Object.entries(FAST_COMMANDS)) {
    const booleans = Object.entries(command.flags).filter(([prop, spec]) => spec.value === undefined && !(prop in API_FLAGS)).map(([prop, spec]) => flagName(prop, spec));
    assert.equal(booleans.length, words === 'payments get' ? 1 : 0, `${words}: its own switches`);
    for (const args of acceptedLines(words.split(' '), booleans)) {
      assert.equal(fastWords(args, {}), words);
      const fast = fastInvocation(command.flags, args);
      assert.ok(fast, `the fast path declined ${args.join(' ')}`);
      const slow = await commanderParse(args);
      assert.deepEqual({ positional: fast.positional, flags: { ...fast.flags } }, slow, args.join(' '));
      compared++;
    }
  }
  assert.ok(compared >= 90, `${compared} command lines compared`);
});

test('the fast path declines what it does not read as commander does, and SVC_FAST_PATH=0 turns it off', () => {
  const declined: string[][] = [
    ['links', 'get'],
    ['links', 'get', 'a', 'b'],
    ['links', 'get', '--help'],
    ['links', 'get', 'pl_1', '-h'],
    ['links', 'get', 'pl_1', '--json', '--json'],
    ['links', 'get', 'pl_1', '--api-key', 'a', '--api-key=b'],
    ['links', 'get', 'pl_1', '--api-key'],
    ['links', 'get', 'pl_1', '--api-key='],
    ['links', 'get', 'pl_1', '--api-key', '--json'],
    ['links', 'get', 'pl_1', '--json=yes'],
    ['links', 'get', 'pl_1', '--timeout', '0'],
    ['links', 'get', 'pl_1', '--timeout', '600001'],
    ['links', 'get', 'pl_1', '--timeout', '1e3'],
    ['links', 'get', 'pl_1', '--control-token', 'svc_ctl_x'],
    ['links', 'get', 'pl_1', '--fail-on-failed'],
    ['links', 'get', '--', 'pl_1'],
    ['links', 'get', '-', 'pl_1'],
    ['links', 'create', '--title', 't'],
    ['payments', 'list'],
    ['get', 'links', 'pl_1'],
    ['--json', 'links', 'get', 'pl_1'],
  ];
  const read = (args: string[], env: Record<string, string> = {}) => {
    const words = fastWords(args, env);
    return words && fastInvocation(FAST_COMMANDS[words].flags, args);
  };
  for (const args of declined) assert.equal(read(args), undefined, args.join(' '));
  assert.ok(read(['links', 'get', 'pl_1']));
  assert.equal(read(['links', 'get', 'pl_1'], { SVC_FAST_PATH: '0' }), undefined);
});

test('the built svc answers the same with and without the fast path: data, errors, exit codes', async () => {
  const emu = await startTestEmulator();
  try {
    const link = await emu.request('POST', '/v1/api/payment-links', { body: { title: 'fast', amount: 1500 }, idempotencyKey: `fast-${process.pid}` });
    const { id, link_code: code } = link.json.data;
    const paid = await emu.request('POST', `/v1/api/payment-links/${id}/simulate`, { body: { outcome: 'failed', method: 'card' }, idempotencyKey: `fast-pay-${process.pid}` });
    assert.equal(paid.status, 201, JSON.stringify(paid.json));
    const paymentId = paid.json.data.id as string;
    const target = ['--base-url', emu.baseUrl, '--api-key', KEYS.acmeTest];
    const lines: string[][] = [
      ['links', 'get', id, '--json', ...target],
      ['links', 'get', code, ...target],
      ['links', 'get', id, ...target, '--verbose', '--trace-id', 'trc_fast_same'],
      ['links', 'get', 'pl_doesnotexist0000000', '--json', ...target],
      ['links', 'get', 'pl_doesnotexist0000000', ...target, '--trace-id', 'trc_fast_404'],
      ['payments', 'get', paymentId, '--json', '--fail-on-failed', ...target],
      ['payments', 'get', paymentId, ...target],
      ['links', 'get', id, '--json', '--base-url', emu.baseUrl, '--api-key', 'svc_test_nosuchkey0000000000000000000'],
      ['links', 'get', id, '--json', '--base-url', 'http://127.0.0.1:1', '--api-key', KEYS.acmeTest, '--timeout', '2000'],
      ['links', 'get', id, '--json', '--base-url', 'ftp://x', '--api-key', KEYS.acmeTest],
      ['links', 'get', id, '--json', '--base-url', emu.baseUrl, '--api-key', 'nope'],
    ];
    // Generated trace ids differ from run to run; nothing else may.
    const same = (r: CliResult) => ({ code: r.code, stdout: r.stdout, stderr: r.stderr.replace(/trc_cli_[0-9a-f]{20}/g, 'trc_cli_…') });
    const codes = new Set<number | null>();
    for (const args of lines) {
      const fast = await runCli(args, { binary: true });
      const slow = await runCli(args, { binary: true, env: { SVC_FAST_PATH: '0' } });
      assert.deepEqual(same(fast), same(slow), args.join(' '));
      codes.add(fast.code);
    }
    assert.deepEqual([...codes].sort(), [0, 1, 2], 'successes, API and network errors, and usage errors all compared');
  } finally {
    await emu.stop();
  }
});
