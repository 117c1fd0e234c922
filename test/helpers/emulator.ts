import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../emulator/server.js';
import { checkContract, type ContractHit } from './contract.js';

// Starts a real emulator on a free loopback port with its own data dir. Tests talk to it
// over HTTP only; `services` is exposed for seeding and clock control, never for assertions
// that the HTTP surface could make.

export const KEYS = {
  acmeTest: 'svc_test_acme0all0scopes0000000000001',
  acmeLive: 'svc_live_acme0all0scopes0000000000001',
  acmeReadOnly: 'svc_test_acme0read0only00000000000001',
  acmeRevoked: 'svc_test_acme0revoked000000000000001',
  acmeStation: 'svc_test_acme0station0seven000000001',
  globexTest: 'svc_test_globex0all0scopes000000000001',
  globexLive: 'svc_live_globex0all0scopes000000000001',
} as const;

export const silentLogger = { info() {}, warn() {}, notice() {} };

export interface TestEmulator extends RunningEmulator {
  request(method: string, path: string, opts?: RequestOptions): Promise<ApiResponse>;
  /** Closes the emulator and removes its data dir (unless keepData). */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

export interface RequestOptions {
  key?: string | null;
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
  idempotencyKey?: string;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export function tempDir(prefix = 'svc-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export async function startTestEmulator(options: EmulatorOptions = {}): Promise<TestEmulator> {
  const dataDir = options.dataDir ?? tempDir();
  const emulator = await startEmulator({ port: 0, rateLimit: null, logger: silentLogger, clock: 'manual', ...options, dataDir });
  return {
    ...emulator,
    request: (method, path, opts = {}) => request(emulator.baseUrl, method, path, opts),
    async stop({ keepData = false } = {}) {
      await emulator.close();
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

// The suite's HTTP client is node:http (keep-alive through the global agent) rather than
// fetch: the same bytes on the wire, at a fraction of fetch's CPU per request (web streams,
// Request/Response objects), which adds up over the suite's thousands of requests.
function send(url: string, method: string, headers: Record<string, string>, body: string | undefined): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((ok, fail) => {
    const req = httpRequest(url, { method, headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('error', fail);
      res.once('end', () => {
        const h = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) h.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
        ok({ status: res.statusCode!, headers: h, text: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.once('error', fail);
    req.end(body);
  });
}

export async function request(baseUrl: string, method: string, path: string, opts: RequestOptions = {}): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...opts.headers };
  const key = opts.key === undefined ? KEYS.acmeTest : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (opts.idempotencyKey !== undefined) headers['x-idempotency-key'] = opts.idempotencyKey;
  let body: string | undefined = opts.rawBody;
  if (body === undefined && opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await send(baseUrl + path, method, headers, body);
  const text = res.text;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const seen = { status: res.status, headers: res.headers, text, json };
  // Every /v1 answer a test sees must be one /openapi.yaml documents (helpers/contract.ts).
  const hit = checkContract(method, baseUrl + path, seen);
  if (hit) for (const r of recorders) r({ ...hit, json });
  return seen;
}

/** Receives every response that passed the contract check (the generated-client type test records them). */
export type ResponseRecorder = (r: ContractHit & { json: unknown }) => void;
const recorders = new Set<ResponseRecorder>();
export function recordResponses(recorder: ResponseRecorder): () => void {
  recorders.add(recorder);
  return () => recorders.delete(recorder);
}

let counter = 0;
/** A fresh idempotency key. */
export const idem = (label = 'k') => `${label}-${process.pid}-${Date.now()}-${++counter}`;
