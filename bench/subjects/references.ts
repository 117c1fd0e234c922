import { join } from 'node:path';
import { LINK_FIELDS } from '../lib/bodies.js';
import { startChild, type ChildServer } from '../lib/child.js';
import { processCpu } from '../lib/proc-cpu.js';
import type { LoadResult } from '../lib/load.js';
import type { BenchContext, Subject } from '../lib/types.js';

// The two references, run on the same machine in the same run as the emulator: a bare
// express 5 route returning a constant JSON, and an express 5 route that parses and
// zod-validates a 10-field JSON body (bench/servers/).

export const REF_GET = 'reference.express.get';
export const REF_POST = 'reference.express-zod.post';

const referenceBody = JSON.stringify({ ...LINK_FIELDS, customer_email: 'ada@example.com', reference: 'INV-2026-1042' });

export async function startReferences(ctx: BenchContext): Promise<Subject> {
  const servers = join(ctx.root, 'dist', 'bench', 'servers');
  const started: ChildServer<{ base_url: string }>[] = [];
  try {
    ctx.log('starting the reference servers');
    const bare = await startChild<{ base_url: string }>(process.execPath, [join(servers, 'express-bare.js')], ctx.root);
    started.push(bare);
    const zod = await startChild<{ base_url: string }>(process.execPath, [join(servers, 'express-zod.js')], ctx.root);
    started.push(zod);
    const getCpu = processCpu(bare.child.pid!);
    const postCpu = processCpu(zod.child.pid!);
    const note = (cpu: typeof getCpu) => (r: LoadResult) => `express CPU ${cpu.perRequestMs(r).toFixed(3)} ms/req`;
    return {
      rows: [],
      loads: [
        {
          id: REF_GET,
          label: 'reference: express 5 GET, constant JSON',
          spec: { baseUrl: bare.info.base_url, request: () => ({ method: 'GET', path: '/ping' }), expectStatus: 200, beforeSlice: getCpu.before, afterSlice: getCpu.after },
          describe: note(getCpu),
          cpuPerRequestMs: getCpu.perRequestMs,
        },
        {
          id: REF_POST,
          label: 'reference: express 5 POST, zod 10 fields',
          spec: {
            baseUrl: zod.info.base_url,
            request: () => ({ method: 'POST', path: '/items', headers: { 'content-type': 'application/json' }, body: referenceBody }),
            expectStatus: 201,
            beforeSlice: postCpu.before,
            afterSlice: postCpu.after,
          },
          describe: note(postCpu),
          cpuPerRequestMs: postCpu.perRequestMs,
        },
      ],
      finish: async () => {
        await Promise.all(started.map((s) => s.stop()));
        return [];
      },
    };
  } catch (err) {
    await Promise.all(started.map((s) => s.stop()));
    throw err;
  }
}
