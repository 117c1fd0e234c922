// Development entry: runs the CLI from TypeScript sources through tsx (`npm run dev -- <args>`),
// so a change to src/ or emulator/ needs no build. The published bin/svc.js runs compiled code.
// .mts: bin/package.json makes this folder CommonJS (for bin/svc.js); this file is an ES module.
import { readFileSync } from 'node:fs';
import { main } from '../src/cli/main.js';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
await main(process.argv, version);
