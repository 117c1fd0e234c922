import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, request, type Server } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import { allRoutes } from '../../emulator/registry.js';
import { dispatcher, RouteTable } from '../../emulator/gateway/dispatch.js';
import type { RouteDef } from '../../emulator/gateway/route.js';

// The gateway finds a merchant route with its own table (gateway/dispatch.ts) instead of one
// express layer per route. This test holds it to express's matching: two servers on
// 127.0.0.1 with the same routes, one mounted the express way, one through the dispatcher,
// each answering with the route it chose and its params (or 404, or the error it was handed),
// are sent the same raw request targets, and must answer alike.

function answer(res: Response, route: RouteDef, params: unknown) {
  res.json({ route: route.name, params });
}
function tail(app: express.Express) {
  app.use((req: Request, res: Response) => void res.status(404).json({ route: null }));
  app.use((err: Error & { status?: number }, _req: Request, res: Response, _next: NextFunction) => void res.status(err.status ?? 500).json({ error: err.message }));
}

function expressWay(): express.Express {
  const app = express();
  for (const route of allRoutes()) app[route.method](route.path, (req, res) => answer(res, route, { ...req.params }));
  tail(app);
  return app;
}
function dispatched(): express.Express {
  const app = express();
  app.use(dispatcher(new RouteTable(allRoutes()), (route, req, res) => answer(res, route, { ...req.params })));
  tail(app);
  return app;
}

const servers: Server[] = [];
let ports: number[] = [];
before(async () => {
  for (const app of [expressWay(), dispatched()]) {
    const server = createServer(app);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    servers.push(server);
  }
  ports = servers.map((s) => (s.address() as AddressInfo).port);
});
after(() => servers.forEach((s) => s.close()));

/** Sends `target` as the raw request target (no normalisation by a URL class). */
function send(port: number, method: string, target: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path: target, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every route's path in many spellings: the ones express accepts and the ones it refuses. */
function targets(): string[] {
  const out = new Set<string>();
  for (const route of allRoutes()) {
    const p = route.path;
    const filled = p.replace(/:(\w+)/g, 'abc_123');
    out.add(filled);
    out.add(`${filled}/`);
    out.add(`${filled}//`);
    out.add(`${filled}?limit=2&x=%20`);
    out.add(`${filled}/?a=b`);
    out.add(filled.toUpperCase());
    out.add(filled.replace('/v1/', '/V1/'));
    out.add(`${filled}/extra`);
    out.add(filled.replace('/v1/', '/v1//'));
    out.add(filled.slice(0, -1));
    if (p.includes(':')) {
      out.add(p.replace(/:(\w+)/g, 'a%2Fb'));
      out.add(p.replace(/:(\w+)/g, '%41%42%43'));
      out.add(p.replace(/:(\w+)/g, 'bad%zz'));
      out.add(p.replace(/:(\w+)/g, 'caf%C3%A9'));
      out.add(p.replace(/:(\w+)/g, 'x y'.replace(' ', '%20')));
      out.add(p.replace(/:(\w+)/g, 'summary'));
      out.add(p.replace(/\/:(\w+)/g, '/'));
      out.add(p.replace(/\/:(\w+)/g, ''));
    }
  }
  for (const t of ['/', '/v1', '/v1/', '/v1/api', '/v1/api/', '/v1/api/payments/summary', '/v1/api/payments/summary/', '/v2/api/payments', '/v1/api/payments#frag', '/v1/api/payments/x#y', '/dashboard', '/_emulator/metrics']) out.add(t);
  return [...out];
}

test('the dispatcher chooses the same route, params and errors as express for every route spelled many ways', async () => {
  const list = targets();
  assert.ok(list.length > 250, `only ${list.length} targets`);
  const differences: string[] = [];
  let matched = 0;
  for (const method of ['GET', 'HEAD', 'POST', 'DELETE', 'PUT', 'OPTIONS']) {
    for (const target of list) {
      const [a, b] = await Promise.all(ports.map((port) => send(port, method, target)));
      if (a.status !== b.status || a.body !== b.body) differences.push(`${method} ${target}: express ${a.status} ${a.body} / dispatcher ${b.status} ${b.body}`);
      if (a.status === 200) matched++;
    }
  }
  assert.deepEqual(differences, []);
  // The comparison is only worth something if many of the targets reach a route.
  assert.ok(matched > 200, `only ${matched} targets matched a route`);
});

test('an absolute-form target reaches its route through the dispatcher as through express', async () => {
  for (const port of ports) {
    const r = await send(port, 'GET', `http://127.0.0.1:${port}/v1/api/payments/pay_1?x=1`);
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.body), { route: 'getPayment', params: { id: 'pay_1' } });
  }
});
