import type { Express } from 'express';
import type { AddressInfo } from 'node:net';

// Starts a reference app on a free loopback port and prints the same ready line shape as
// `svc emulator start --json`, so the harness starts every server the same way.
export function listenAndAnnounce(app: Express): void {
  const server = app.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(`${JSON.stringify({ base_url: `http://127.0.0.1:${port}` })}\n`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
