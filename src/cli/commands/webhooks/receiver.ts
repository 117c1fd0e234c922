import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../../../contract/signature.js';
import { UsageError } from '../../errors.js';
import { Output } from '../../output.js';
import { maskSecret } from '../../mask.js';
import { forward, printForward } from './forward.js';
import { appendLog } from './listen-log.js';
import type { ListenFlags } from './listen.js';
import type { CliIO } from '../../io.js';
import { messageOf } from '../../../../contract/errors.js';

// `svc webhooks listen --port`: a live host has no stream, so the developer points a tunnel
// at this local receiver. It verifies Svc-Signature with the endpoint's secret over the raw
// bytes, answers 400 to anything that fails, and forwards what passes — headers unchanged, so
// the app verifies the same signature — answering with the app's own status.

const MAX_BODY = 1024 * 1024;

export async function runReceiver(flags: ListenFlags & { forward: string }, io: CliIO): Promise<void> {
  if (!flags.secret) throw new UsageError("missing --secret: the endpoint's signing secret (shown once by `svc webhooks endpoints create`).");
  const out = new Output(io, Boolean(flags.json));
  const secret = flags.secret;
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method !== 'POST') {
        res.writeHead(405, { allow: 'POST' }).end();
        return;
      }
      const body = await readBody(req);
      if (body === undefined) {
        res.writeHead(413).end();
        return;
      }
      const header = req.headers['svc-signature'] as string | undefined;
      const type = (req.headers['svc-event'] as string | undefined) ?? 'unknown';
      const deliveryId = (req.headers['svc-delivery'] as string | undefined) ?? 'unknown';
      const verdict = verifySignature({ secret, header, body, now: Math.floor((io.now?.() ?? Date.now()) / 1000) });
      if (!verdict.ok) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: verdict.reason, message: verdict.message }));
        printForward(out, { type, event_id: '', delivery_id: deliveryId }, { status_code: null, latency_ms: 0, error: `rejected: ${verdict.reason}` });
        return;
      }
      const passOn: Record<string, string> = { 'svc-signature': header!, 'svc-event': type, 'svc-delivery': deliveryId };
      // The raw bytes go on unchanged: the app verifies the same signature over them.
      const result = await forward(flags.forward, body, passOn);
      const text = body.toString('utf8');
      res.writeHead(result.status_code ?? 502).end();
      let eventType = type;
      try {
        eventType = (JSON.parse(text) as { type?: string }).type ?? type;
      } catch {
        /* forwarded as is */
      }
      appendLog({ delivery_id: deliveryId, event_id: deliveryId, type: eventType, environment: 'live', body: text, headers: passOn, forward_url: flags.forward, received_at: new Date().toISOString(), ...result }, io.env);
      printForward(out, { type: eventType, event_id: '', delivery_id: deliveryId }, result);
    })().catch((err) => {
      if (!res.headersSent) res.writeHead(500).end();
      out.status(`receiver error: ${messageOf(err)}`);
    });
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', (err) => fail(new UsageError(`--port ${flags.port}: ${err.message}`)));
    server.listen(flags.port, flags.host, () => ok());
  });
  const { port } = server.address() as AddressInfo;
  out.status(
    [
      `${out.e.bold('Ready.')} Receiving on http://${flags.host}:${port}/ (point your tunnel here), verifying with secret ${maskSecret(secret)}`,
      `Forwarding verified deliveries to ${out.e.cyan(flags.forward)} · Ctrl-C to stop`,
    ].join('\n'),
  );
  // Runs until the process is signalled (or the IO's interrupt fires: a test running it in-process).
  await new Promise<void>((ok) => {
    const stop = () => server.close(() => ok());
    if (io.interrupt) {
      if (io.interrupt.aborted) stop();
      else io.interrupt.addEventListener('abort', stop, { once: true });
      return;
    }
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  out.status('stopped.');
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
