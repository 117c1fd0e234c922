import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { messageOf } from '../../contract/errors.js';

// Two network hosts on one machine: two network namespaces joined by a veth pair, each with
// its own /etc/netns/<ns>/hosts naming both sides (`svc`: the emulator's host, `app`: the
// merchant's app and its client). A process started with `ip netns exec <ns> …` sees only its
// namespace's interfaces and that hosts file (ip bind-mounts it over /etc/hosts), so a request
// from `app` to http://svc:<port> crosses a real non-loopback link, and the emulator sees a
// peer address that is not loopback — what a LAN, a container network or a CI service sees.
// Shared by the network tests (test/helpers/netns.ts) and the bench's remote scenario.
//
// The addresses (10.231.0.1/30 and .2) exist only inside the two namespaces: nothing is added
// to the machine's own interfaces, routes or /etc/hosts, and each pair is a separate link, so
// two runs at once (each with its own namespace names) do not see each other.

export interface NetHost {
  /** The namespace's name (unique per process and pair). */
  ns: string;
  /** The hostname both hosts files give it. */
  name: 'svc' | 'app';
  /** Its address on the veth link. */
  address: string;
}

export interface NetnsPair {
  svc: NetHost;
  app: NetHost;
  /** The command line that runs `command args` inside `host`'s namespace, with its hosts file. */
  argv(host: NetHost, command: string, args: string[]): [string, string[]];
  /** Deletes both namespaces (their veth ends go with them) and their /etc/netns dirs; idempotent. */
  destroy(): void;
}

const SUBNET = '10.231.0';
let pairs = 0;

function ip(args: string[]): void {
  const r = spawnSync('ip', args, { encoding: 'utf8' });
  if (r.error) throw new Error(`ip ${args.join(' ')}: ${r.error.message}`);
  if (r.status !== 0) throw new Error(`ip ${args.join(' ')} exited ${r.status}: ${r.stderr.trim()}`);
}

/**
 * Why two namespaces cannot be made here, or undefined when they can: needs Linux, root and
 * iproute2's `ip`, and a kernel/container that lets root create a namespace (probed once by
 * creating and deleting one).
 */
let unavailable: string | undefined | null = null;
export function netnsUnavailable(): string | undefined {
  if (unavailable !== null) return unavailable;
  unavailable = probe();
  return unavailable;
}

function probe(): string | undefined {
  if (process.platform !== 'linux') return `network namespaces are Linux only (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'creating network namespaces needs root (run as root, e.g. in the CI container)';
  const version = spawnSync('ip', ['-V'], { encoding: 'utf8' });
  if (version.error || version.status !== 0) return 'needs the `ip` command (iproute2: apt-get install iproute2)';
  const name = `svc-probe-${process.pid}`;
  try {
    ip(['netns', 'add', name]);
  } catch (err) {
    return `root cannot create a network namespace here (${messageOf(err)}); the container needs CAP_SYS_ADMIN and CAP_NET_ADMIN`;
  }
  ip(['netns', 'del', name]);
  return undefined;
}

/** Creates the two hosts and the link between them; throws (after undoing what it made) on failure. */
export function createNetnsPair(): NetnsPair {
  const tag = `${process.pid}-${++pairs}`;
  const svc: NetHost = { ns: `svc-${tag}-svc`, name: 'svc', address: `${SUBNET}.1` };
  const app: NetHost = { ns: `svc-${tag}-app`, name: 'app', address: `${SUBNET}.2` };
  const made: string[] = [];
  const destroy = () => {
    for (const ns of made.splice(0)) {
      spawnSync('ip', ['netns', 'del', ns], { stdio: 'ignore' });
      rmSync(`/etc/netns/${ns}`, { recursive: true, force: true });
    }
  };
  try {
    for (const host of [svc, app]) {
      ip(['netns', 'add', host.ns]);
      made.push(host.ns);
    }
    // Both ends are created straight inside their namespaces: the machine's own namespace never
    // holds an interface of ours, even for a moment, so interface names cannot collide.
    ip(['link', 'add', 'veth0', 'netns', svc.ns, 'type', 'veth', 'peer', 'name', 'veth0', 'netns', app.ns]);
    const hosts = `127.0.0.1 localhost\n::1 localhost ip6-localhost ip6-loopback\n${svc.address} ${svc.name}\n${app.address} ${app.name}\n`;
    for (const host of [svc, app]) {
      ip(['-n', host.ns, 'link', 'set', 'lo', 'up']);
      ip(['-n', host.ns, 'addr', 'add', `${host.address}/30`, 'dev', 'veth0']);
      ip(['-n', host.ns, 'link', 'set', 'veth0', 'up']);
      mkdirSync(`/etc/netns/${host.ns}`, { recursive: true });
      writeFileSync(`/etc/netns/${host.ns}/hosts`, hosts);
    }
  } catch (err) {
    destroy();
    throw err;
  }
  return {
    svc,
    app,
    argv: (host, command, args) => ['ip', ['netns', 'exec', host.ns, command, ...args]],
    destroy,
  };
}
