import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// Requests node:http refuses before the app sees them, sent byte for byte on a raw socket:
// each must get the envelope and an X-Trace-ID, and the emulator must keep serving.

let emu: TestEmulator;
let port: number;
before(async () => {
  emu = await startTestEmulator();
  port = Number(new URL(emu.baseUrl).port);
});
after(() => emu.stop());

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends `bytes`, reads until the server closes the connection (each case here ends with Connection: close). */
function exchange(bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      const split = text.indexOf('\r\n\r\n');
      if (split < 0) return reject(new Error(`no complete response: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) });
    });
    socket.write(bytes);
  });
}

function assertEnvelope(res: RawAnswer, status: number, message: RegExp) {
  assert.equal(res.status, status, res.body);
  assert.match(res.headers['content-type'] ?? '', /^application\/json/);
  assert.match(res.headers['x-trace-id'] ?? '', /^trc_[0-9a-f]{24}$/);
  assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body));
  const json = JSON.parse(res.body);
  assert.equal(json.success, false);
  assert.equal(json.error.code, 'VALIDATION_ERROR');
  assert.match(json.error.message, message);
}

async function stillServing() {
  const res = await emu.request('GET', '/_emulator/health', { key: null });
  assert.equal(res.status, 200, res.text);
}

test('a URL over 16 KB gets 431 in the envelope', async () => {
  const res = await exchange(`GET /v1/api/payments?q=${'a'.repeat(17_000)} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  assertEnvelope(res, 431, /larger than 16 KB/);
  await stillServing();
});

test('headers over 16 KB in total get 431 in the envelope', async () => {
  const many = Array.from({ length: 40 }, (_, i) => `X-Pad-${i}: ${'b'.repeat(500)}\r\n`).join('');
  assertEnvelope(await exchange(`GET /_emulator/health HTTP/1.1\r\nHost: localhost\r\n${many}\r\n`), 431, /larger than 16 KB/);
  await stillServing();
});

test('invalid header bytes, a malformed request line and a bad header name get 400 in the envelope', async () => {
  const cases = [
    Buffer.concat([Buffer.from('GET /v1/api/payments HTTP/1.1\r\nHost: localhost\r\nX-Bad: a'), Buffer.from([0x01, 0x7f]), Buffer.from('b\r\n\r\n')]),
    'GET /v1/api/payments HTTP/1.1\r\nHost: localhost\r\nBad Header: x\r\n\r\n',
    'NOT A REQUEST\r\n\r\n',
    'POST /v1/api/payment-links HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello',
  ];
  for (const bytes of cases) assertEnvelope(await exchange(bytes), 400, /not valid HTTP/);
  await stillServing();
});

test('an HTTP/1.1 request without Host gets 400 in the envelope; HTTP/1.0 without Host is refused by the local surfaces', async () => {
  const res = await exchange('GET /_emulator/health HTTP/1.1\r\nConnection: close\r\n\r\n');
  assertEnvelope(res, 400, /Host header/);
  // HTTP/1.0 has no Host requirement: the merchant API still answers it (401: no key).
  const old = await exchange('GET /v1/api/payments HTTP/1.0\r\n\r\n');
  assert.equal(old.status, 401, old.body);
  // But no Host means no proof the caller meant this machine: the control API refuses it.
  const control = await exchange('GET /_emulator/keys HTTP/1.0\r\n\r\n');
  assert.equal(control.status, 403, control.body);
  assert.match(JSON.parse(control.body).error.message, /no Host header/);
  assert.doesNotMatch(control.body, /svc_(test|live)_/);
  await stillServing();
});
