import { startEmulator } from '../../emulator/index.js';

// The emulator with coverage counting on or off (`--coverage on|off`), which no svc option
// turns off: both sides of the coverage row start here, alike in everything else, as
// `svc emulator start --rate-limit off --quiet --data-dir <dir>` starts it (it owns this
// process). Prints a ready line with base_url, as the harness expects.
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
};
const emulator = await startEmulator({
  port: 0,
  dataDir: arg('--data-dir'),
  rateLimit: null,
  logRequests: false,
  ownsProcess: true,
  logger: { info() {}, notice() {}, warn: (m) => process.stderr.write(`warning: ${m}\n`) },
  config: { coverage: arg('--coverage') !== 'off' },
});
process.stdout.write(`${JSON.stringify(emulator.readyInfo())}\n`);
const stop = () => void emulator.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
