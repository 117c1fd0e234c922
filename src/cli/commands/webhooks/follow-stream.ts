import type { ApiContext } from '../../context.js';
import { EventStream, type StreamHandlers } from '../../../client/stream.js';

// What listen and tail share: follow the emulator's live stream until Ctrl-C or SIGTERM,
// telling the developer on stderr when it connects, drops and resumes. Each command brings
// its own event (and attempt) handling.

export async function followStream(ctx: ApiContext, types: string[] | undefined, handlers: Pick<StreamHandlers, 'event' | 'attempt'>): Promise<void> {
  const out = ctx.out;
  const stream = new EventStream({ baseUrl: ctx.target.baseUrl, apiKey: ctx.target.apiKey, types, traceId: ctx.api.http.traceId });
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await stream.run(
      {
        ...handlers,
        connected: ({ reconnect, resumedFrom }) => {
          // Without a cursor the stream starts at "now": events from before this line are not sent.
          if (!reconnect) out.status(out.e.dim('connected; waiting for events'));
          else out.status(out.e.green(`reconnected${resumedFrom ? `, resuming after ${resumedFrom}` : ''}`));
        },
        disconnected: ({ reason, retryInMs }) => out.status(out.e.yellow(`stream lost (${reason}); reconnecting in ${(retryInMs / 1000).toFixed(1)} s`)),
      },
      stop.signal,
    );
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
