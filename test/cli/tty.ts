import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';

// A person at a terminal: commands run in tmux panes (real pseudo-terminals) on a tmux server of
// the test's own; the test types with send-keys and reads the screen with capture-pane.

export interface Pane {
  name: string;
  screen(): string;
  /** The screen with the lines tmux wrapped joined again (-J): what the program wrote, line by line. */
  joined(): string;
  type(keys: string): void;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export function tmuxPanes(socket = `svc-cli-test-${process.pid}`) {
  const tmux = (...args: string[]) => spawnSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  let session = 0;
  return {
    /** Runs `argv` in a fresh pane; the pane stays open after exit and shows EXIT=<code>. */
    open(argv: string[], width = 160): Pane {
      const name = `s${++session}`;
      const r = tmux('new-session', '-d', '-s', name, '-x', String(width), '-y', '50', `${argv.map(quote).join(' ')}; echo EXIT=$?; sleep 600`);
      assert.equal(r.status, 0, r.stderr);
      return {
        name,
        screen: () => tmux('capture-pane', '-p', '-t', name, '-S', '-50').stdout,
        joined: () => tmux('capture-pane', '-p', '-J', '-t', name, '-S', '-50').stdout,
        type: (keys: string) => {
          assert.equal(tmux('send-keys', '-t', name, '-l', keys).status, 0);
          assert.equal(tmux('send-keys', '-t', name, 'Enter').status, 0);
        },
      };
    },
    /** Ends every pane, and removes the socket file kill-server leaves behind. */
    close() {
      const socketPath = tmux('display-message', '-p', '#{socket_path}').stdout.trim();
      tmux('kill-server');
      if (socketPath) rmSync(socketPath, { force: true });
    },
  };
}
