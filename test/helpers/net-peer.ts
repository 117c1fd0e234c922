import { createServer, request } from 'node:http';
import { createInterface } from 'node:readline';

// The `app` host of the network tests, run as its own process inside the app namespace
// (`ip netns exec <ns> node dist/test/helpers/net-peer.js [--listen <port>]`, started by
// test/helpers/netns.ts). It is the merchant's side of the link, so everything it does
// crosses the veth pair:
// - a client: each JSON line on stdin ({id, method, host, port, path, hostHeader?, headers?,
//   body?}) is sent as one HTTP request to host:port (resolved through this namespace's
//   /etc/hosts), with the Host header it names; the answer is printed as one JSON line
//   ({id, status, headers, body} or {id, error}).
// - with --listen: the webhook receiver `app:<port>`, a real listening server on every address
//   of the namespace; each request is printed as one JSON line ({received: {path, method,
//   headers, body, peer}}) and answered 200.
// The first line it prints is {ready: true} once the receiver (if any) listens.

interface Ask {
  id: number;
  method: string;
  host: string;
  port: number;
  path: string;
  hostHeader?: string;
  headers?: Record<string, string>;
  body?: string;
}

const print = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

function send(ask: Ask): void {
  const headers: Record<string, string> = { ...ask.headers };
  if (ask.hostHeader !== undefined) headers.host = ask.hostHeader;
  if (ask.body !== undefined) headers['content-length'] = String(Buffer.byteLength(ask.body));
  // agent: false: one connection per request, so no request rides on another's socket.
  const req = request({ host: ask.host, port: ask.port, method: ask.method, path: ask.path, headers, agent: false }, (res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => print({ id: ask.id, status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
  });
  req.on('error', (err) => print({ id: ask.id, error: err.message }));
  req.end(ask.body);
}

const listenAt = process.argv.indexOf('--listen');
if (listenAt >= 0) {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      print({ received: { path: req.url, method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), peer: req.socket.remoteAddress } });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  server.listen(Number(process.argv[listenAt + 1]), '0.0.0.0', () => print({ ready: true }));
} else {
  print({ ready: true });
}

createInterface({ input: process.stdin }).on('line', (line) => send(JSON.parse(line) as Ask));
// The test closes stdin to stop it.
process.stdin.on('end', () => process.exit(0));
