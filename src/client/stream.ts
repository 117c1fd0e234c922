import { getEventListeners } from 'node:events';
import { request } from 'undici';
import { networkMessage, SvcError } from './error.js';
import { CONTROL_TOKEN_HEADER } from '../../contract/network.js';
import { messageOf } from '../../contract/errors.js';

// A client for the emulator's live stream (GET /emulator/stream, Server-Sent Events). It
// reconnects on its own with the last cursor it handled (Last-Event-ID), so a restart of the
// emulator loses nothing; handlers run one message at a time, in stream order.

interface StreamEvent {
  id: string;
  type: string;
  created_at: string;
  environment: 'test' | 'live';
  /** The exact JSON body every delivery of this event sends (sign these bytes). */
  body: string;
}

interface StreamAttempt {
  delivery_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  delivery_status: string;
  at: string;
}

export interface StreamHandlers {
  event(e: StreamEvent, cursor: string): void | Promise<void>;
  attempt?(a: StreamAttempt, cursor: string): void | Promise<void>;
  connected?(info: { reconnect: boolean; resumedFrom: string | null }): void;
  /** `abortListeners`: listeners on the run's signal now — flat across retries, or something leaks. */
  /** The stream follows the emulator to a new base URL (see `rediscover`). */
  moved?(info: { baseUrl: string }): void;
  disconnected?(info: { reason: string; retryInMs: number; abortListeners: number }): void;
}

interface StreamOptions {
  baseUrl: string;
  apiKey: string;
  /** An emulator on another host asks callers of its stream for its control token (Svc-Control-Token). */
  controlToken?: string;
  types?: string[];
  /** Resume after this cursor; absent: start at now. */
  lastEventId?: string;
  traceId?: string;
  /** Asked before each reconnect: a new base URL (an emulator restarted on another port), or undefined to keep it. */
  rediscover?(): string | undefined;
  /** The first connection must succeed: a failure to reach the service rejects at once instead of retrying. */
  failFast?: boolean;
  /** Reconnect backoff: first wait and cap in ms (default 250 → 5000). */
  reconnectMs?: { base: number; max: number };
}

const STREAM_PATH = '/emulator/stream';
/** Pings come every 15 s: three missed means the connection is dead. */
const IDLE_TIMEOUT_MS = 45_000;
const RECONNECT_BASE_MS = 250;
const RECONNECT_MAX_MS = 5_000;

export class EventStream {
  lastEventId: string | undefined;
  baseUrl: string;
  constructor(private readonly options: StreamOptions) {
    this.lastEventId = options.lastEventId;
    this.baseUrl = options.baseUrl;
  }

  /** Runs until `signal` aborts (resolves) or the service refuses the stream (rejects with SvcError). */
  async run(handlers: StreamHandlers, signal: AbortSignal): Promise<void> {
    let connects = 0;
    let failures = 0;
    let opened = false;
    while (!signal.aborted) {
      let reason: string;
      try {
        await this.connectOnce(handlers, signal, connects++ > 0, () => ((failures = 0), (opened = true)));
        reason = 'the stream ended';
      } catch (err) {
        if (signal.aborted) return;
        if (this.options.failFast && !opened) throw err;
        if (err instanceof SvcError && err.status !== 0 && ![429, 500, 502, 503].includes(err.status)) throw err;
        reason = messageOf(err);
      }
      if (signal.aborted) return;
      const { base, max } = this.options.reconnectMs ?? { base: RECONNECT_BASE_MS, max: RECONNECT_MAX_MS };
      const wait = Math.min(max, base * 2 ** Math.min(failures++, 30));
      handlers.disconnected?.({ reason, retryInMs: wait, abortListeners: getEventListeners(signal, 'abort').length });
      await pause(wait, signal);
      const moved = this.options.rediscover?.();
      if (moved && moved !== this.baseUrl) {
        this.baseUrl = moved;
        handlers.moved?.({ baseUrl: moved });
      }
    }
  }

  private async connectOnce(handlers: StreamHandlers, signal: AbortSignal, reconnect: boolean, onOpen: () => void): Promise<void> {
    const url = new URL(this.baseUrl.replace(/\/+$/, '') + STREAM_PATH);
    if (this.options.types?.length) url.searchParams.set('types', this.options.types.join(','));
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'text/event-stream' };
    if (this.options.traceId) headers['x-trace-id'] = this.options.traceId;
    if (this.options.controlToken) headers[CONTROL_TOKEN_HEADER.toLowerCase()] = this.options.controlToken;
    if (this.lastEventId) headers['last-event-id'] = this.lastEventId;
    let res;
    try {
      res = await request(url, { method: 'GET', headers, signal, headersTimeout: 10_000, bodyTimeout: IDLE_TIMEOUT_MS });
    } catch (err) {
      throw new SvcError('NETWORK_ERROR', 0, networkMessage(this.baseUrl, err), null);
    }
    if (res.statusCode !== 200) {
      const text = await res.body.text().catch(() => '');
      const trace = (res.headers['x-trace-id'] as string | undefined) ?? null;
      let code = `HTTP_${res.statusCode}`;
      let message = text.slice(0, 200);
      try {
        const parsed = JSON.parse(text) as { error?: { code: string; message: string } };
        if (parsed.error) ({ code, message } = parsed.error);
      } catch {
        /* not the envelope */
      }
      if (res.statusCode === 404) message = `${message} (no live stream at ${this.baseUrl}: it is not an svc emulator; against a live host use --port)`;
      throw new SvcError(code, res.statusCode, message, trace);
    }
    onOpen();
    handlers.connected?.({ reconnect, resumedFrom: this.lastEventId ?? null });
    let buffer = '';
    // A multi-byte character can be split across chunks: decode as a stream, or the body bytes
    // (and so their signature) would change.
    const decoder = new TextDecoder('utf-8');
    try {
      for await (const chunk of res.body) {
        buffer += decoder.decode(chunk as Buffer, { stream: true });
        let end: number;
        while ((end = frameEnd(buffer)) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end).replace(/^\r?\n\r?\n/, '');
          await this.dispatch(frame, handlers);
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      throw new SvcError('NETWORK_ERROR', 0, 'the stream was interrupted', null);
    }
  }

  private async dispatch(frame: string, handlers: StreamHandlers): Promise<void> {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (const line of frame.split(/\r?\n/)) {
      if (line === '' || line.startsWith(':')) continue; // comments: the greeting and pings
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length === 0) return;
    const payload = JSON.parse(data.join('\n')) as unknown;
    if (event === 'event') await handlers.event(payload as StreamEvent, id ?? '');
    else if (event === 'attempt') await handlers.attempt?.(payload as StreamAttempt, id ?? '');
    // Only a handled message moves the cursor, so a reconnect resends what was not handled.
    if (id) this.lastEventId = id;
  }
}

/** Waits `ms` or until `signal` aborts; the abort listener leaves with the wait (one per retry would pile up). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((ok) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      ok();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function frameEnd(buffer: string): number {
  const m = /\r?\n\r?\n/.exec(buffer);
  return m ? m.index : -1;
}
