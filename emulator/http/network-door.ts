import { randomBytes } from 'node:crypto';
import { networkInterfaces } from 'node:os';
import type { AddressInfo } from 'node:net';
import { parseAllowedHost, parseControlToken, parsePublicUrl } from '../../contract/network.js';
import { isLoopbackPeer } from './local-guard.js';
import { messageOf } from '../../contract/errors.js';

// How the emulator presents itself once other machines can reach it: which names it answers to,
// which base URL it hands out, and the token its control surfaces ask of other hosts. Options
// are checked with the CLI's own parsers (contract/network.ts) before anything starts.

interface NetworkDoorOptions {
  allowedHosts?: string[];
  publicUrl?: string;
  controlToken?: string;
}

interface ServerUrls {
  /** Where the server listens, as bound (http://0.0.0.0:4242 included). */
  listenUrl: string;
  /** What the emulator hands out: --public-url, else the bound address, never 0.0.0.0. */
  baseUrl: string;
  /** How a process on this machine reaches it. */
  localUrl: string;
  /** Bound to an address other machines can reach. */
  exposed: boolean;
}

export interface NetworkDoor {
  allowedHosts: string[];
  publicUrl: string | null;
  controlToken: string | null;
  urls(address: AddressInfo): ServerUrls;
  makeToken(): string;
}

/** Runs one option's parser; a refusal names the option (and its CLI flag). */
function checked<T>(option: string, flag: string, parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw Object.assign(new Error(`${option} (${flag}) ${messageOf(err)}`), { code: 'EMULATOR_OPTION_INVALID' });
  }
}

export function networkDoor(options: NetworkDoorOptions): NetworkDoor {
  const allowedHosts = (options.allowedHosts ?? []).map((h) => checked('allowedHosts', '--allow-host', () => parseAllowedHost(h)));
  const publicUrl = options.publicUrl === undefined ? null : checked('publicUrl', '--public-url', () => parsePublicUrl(options.publicUrl!));
  const controlToken = options.controlToken === undefined ? null : checked('controlToken', '--control-token', () => parseControlToken(options.controlToken!));
  return {
    allowedHosts: [...new Set(allowedHosts)],
    publicUrl,
    controlToken,
    urls(address) {
      const wildcard = address.address === '0.0.0.0' || address.address === '::';
      const bracket = (a: string) => (a.includes(':') ? `[${a}]` : a);
      const listenUrl = `http://${bracket(address.address)}:${address.port}`;
      const shown = wildcard ? `http://${bracket(machineAddress(address.address === '::'))}:${address.port}` : listenUrl;
      return {
        listenUrl,
        baseUrl: publicUrl ?? shown,
        localUrl: wildcard ? `http://127.0.0.1:${address.port}` : listenUrl,
        exposed: !isLoopbackPeer(address.address),
      };
    },
    // 24 random bytes: 32 base64url characters, what parseControlToken accepts.
    makeToken: () => `svc_ctl_${randomBytes(24).toString('base64url')}`,
  };
}

/**
 * A real address of this machine for a server bound to every interface: the first external
 * IPv4 address (IPv6 when bound to :: and there is no IPv4), else loopback. Never 0.0.0.0,
 * which no browser or client can open.
 */
function machineAddress(v6Allowed: boolean): string {
  const all = Object.values(networkInterfaces()).flatMap((list) => list ?? []).filter((a) => !a.internal);
  const v4 = all.find((a) => a.family === 'IPv4');
  if (v4) return v4.address;
  const v6 = v6Allowed ? all.find((a) => a.family === 'IPv6' && !a.address.startsWith('fe80')) : undefined;
  return v6?.address ?? '127.0.0.1';
}
