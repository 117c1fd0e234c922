import type { ApiContext } from '../../context.js';
import { EventStream, type StreamHandlers } from '../../../client/stream.js';
import { discoverEmulator, emulatorUrl } from '../../config/discover.js';

// What listen and tail share: follow the emulator's live stream until Ctrl-C or SIGTERM (the
// process's signals: these commands run until stopped, so they stay process-level), telling
// the developer on stderr when it connects, drops and resumes. Each command brings
// its own event (and attempt) handling.
//
// An emulator found through its discovery file may come back on another port (`--port 0`):
// before each reconnect the file is read again and the stream follows it.
// SVC_STREAM_RECONNECT_MS=<n> fixes the reconnect wait (tests keep the emulator down for many
// retries without waiting real seconds); SVC_DEBUG=stream prints, on each drop, how many abort
// listeners the stream holds — a number that must stay flat.

/** `ready` runs once the first connection is open: nothing is promised before the service answered. */
export async function followStream(ctx: ApiContext, types: string[] | undefined, handlers: Pick<StreamHandlers, 'event' | 'attempt'>, ready?: () => void): Promise<void> {
  const { out, io } = ctx;
  const fixedWait = Number(io.env.SVC_STREAM_RECONNECT_MS);
  const debug = /\bstream\b/.test(io.env.SVC_DEBUG ?? '');
  const stream = new EventStream({
    baseUrl: ctx.target.baseUrl,
    apiKey: ctx.target.apiKey,
    controlToken: ctx.target.controlToken,
    types,
    traceId: ctx.api.http.traceId,
    failFast: true,
    reconnectMs: Number.isFinite(fixedWait) && fixedWait > 0 ? { base: fixedWait, max: fixedWait } : undefined,
    rediscover:
      ctx.target.baseUrlSource === 'emulator'
        ? () => {
            const found = discoverEmulator(io.cwd, io.env);
            return found && emulatorUrl(found);
          }
        : undefined,
  });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  let lastReason: string | undefined;
  try {
    await stream.run(
      {
        ...handlers,
        connected: ({ reconnect, resumedFrom }) => {
          lastReason = undefined;
          // Without a cursor the stream starts at "now": events from before this line are not sent.
          if (!reconnect) {
            ready?.();
            out.status(out.e.dim('connected; waiting for events'));
          }
          else out.status(out.e.green(`reconnected${resumedFrom ? `, resuming after ${resumedFrom}` : ''}`));
        },
        moved: ({ baseUrl }) => out.status(out.e.yellow(`the emulator moved to ${baseUrl}; following it`)),
        disconnected: ({ reason, retryInMs, abortListeners }) => {
          // The same reason again and again (the emulator is down) is said once, not every retry.
          if (reason !== lastReason) out.status(out.e.yellow(`stream lost (${reason}); reconnecting until it is back`));
          lastReason = reason;
          if (debug) out.status(`debug: reconnecting in ${retryInMs} ms; abort listeners ${abortListeners}`);
        },
      },
      stop.signal,
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
