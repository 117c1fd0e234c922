import { DELIVERIES } from './records.js';
import { describeZodError } from '../../contract/zod-error.js';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Services } from '../services.js';
import type { Op } from '../store/memory-store.js';
import { ApiError, invalid } from '../errors.js';
import { EVENT_TYPES } from '../../contract/common.js';
import { sendError } from '../gateway/envelope.js';
import { withoutEmptyParams } from '../gateway/query.js';
import { authenticate } from '../gateway/mount.js';
import { EVENTS, type EventRecord } from '../resources/events/outbox.js';
import type { Environment } from '../resources/merchants/records.js';
import { type DeliveryRecord, type StoredAttempt } from './records.js';
import type { LoggedRequest } from '../request-log/log.js';
import { redactBody, redactValue, type HeldSecrets } from '../../contract/redact.js';

// GET /emulator/stream: the live feed of a merchant key's events and delivery attempts, as
// Server-Sent Events (the protocol is in docs/webhooks.md, "The live stream").
//
// Every message carries `id: <cursor>`. A cursor is a creation stamp (ids.ts): events use
// their `created_at`, attempts the stamp taken when they were recorded. Stamps come from one
// strictly increasing source that is raised past every stored one at start, so cursors are
// one order across both kinds and across restarts, and "everything after cursor C" can be
// rebuilt from the store alone (events, and the attempt logs of deliveries).
//
// Live messages come from the store's commit feed, so the stream needs no hook in the code
// that creates events or records attempts. Replay and subscription happen in one synchronous
// step, so nothing committed between them is lost or sent twice.

export const STREAM_PATH = '/emulator/stream';
export const PING_INTERVAL_MS = 15_000;
/** A client this far behind is disconnected; it reconnects with its last cursor. */
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const CURSOR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

interface Message {
  kind: 'event' | 'attempt';
  cursor: string;
  merchantId: string;
  environment: Environment;
  type: string;
  data: Record<string, unknown>;
}

interface Client {
  /** null: every merchant and environment (the dashboard's feed). */
  merchantId: string | null;
  environment: Environment | null;
  types: Set<string> | null;
  res: Response;
}

const Query = z.strictObject({
  types: z.string().optional(),
  cursor: z.string().optional(),
  from: z.literal('start').optional(),
});

export function eventMessage(e: EventRecord): Message {
  return {
    kind: 'event',
    cursor: e.created_at,
    merchantId: e.merchant_id,
    environment: e.environment,
    type: e.type,
    data: { id: e.id, type: e.type, created_at: e.created_at, environment: e.environment, body: e.body },
  };
}

export function attemptMessage(d: DeliveryRecord, a: StoredAttempt): Message {
  return {
    kind: 'attempt',
    cursor: a.cursor,
    merchantId: d.merchant_id,
    environment: d.environment,
    type: d.event_type,
    data: {
      delivery_id: d.id,
      endpoint_id: d.endpoint_id,
      event_id: d.event_id,
      event_type: d.event_type,
      attempt: a.attempt,
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      error: a.error,
      delivery_status: a.delivery_status,
      at: a.at,
    },
  };
}

const frame = (m: Message, data: unknown = m.data) => `event: ${m.kind}\nid: ${m.cursor}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * A message as the dashboard shows it: the event body through the rules its Events page uses
 * (contract/redact.ts), then every other field, so a card, key, PIN or OTP a merchant put in
 * metadata reaches no byte of the dashboard's feed. A merchant's own stream is the API's data
 * returned to its owner, as GET /v1 returns it: not redacted (docs/secrets.md).
 */
function shownFrame(m: Message, held: HeldSecrets): string {
  const data = typeof m.data.body === 'string' ? { ...m.data, body: redactBody(m.data.body, held) } : m.data;
  return frame(m, redactValue(data, held).value);
}

export class StreamHub {
  private readonly clients = new Set<Client>();
  private lastCursor = '';
  private unsubscribe: (() => void) | undefined;
  private unlog: (() => void) | undefined;
  private pinger: NodeJS.Timeout | undefined;

  constructor(private readonly services: Services) {}

  start(): void {
    // A stamp above everything stored: only what is committed from now on is "new".
    this.lastCursor = this.services.stamps.next();
    this.unsubscribe = this.services.store.onCommit((ops) => this.onCommit(ops));
    this.unlog = this.services.requestLog.onEntry((r) => this.onRequestLogged(r));
    this.pinger = setInterval(() => this.broadcast(': ping\n\n'), PING_INTERVAL_MS);
    this.pinger.unref();
  }

  /** Ends every open stream (so the HTTP server can close) and stops listening. */
  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.unlog?.();
    this.unlog = undefined;
    if (this.pinger) clearInterval(this.pinger);
    for (const c of this.clients) c.res.end();
    this.clients.clear();
  }

  /** The route handler. */
  handle(req: Request, res: Response): void {
    try {
      if (!this.unsubscribe) throw new ApiError('SERVICE_UNAVAILABLE', 'The stream is not running (the emulator is starting or stopping).');
      const { key, merchant } = authenticate(this.services, req.headers.authorization);
      res.locals.keyRecord = key;
      if (!key.scopes.includes('payments:read')) throw new ApiError('FORBIDDEN', 'This API key lacks the payments:read scope.');
      const parsed = Query.safeParse(withoutEmptyParams(req.query, Query)); // ?types=&cursor= is no filter, no cursor
      if (!parsed.success) throw new ApiError('VALIDATION_ERROR', describeZodError(parsed.error, 'query'));
      const types = parseTypes(parsed.data.types);
      const after = resumePoint(req.get('last-event-id'), parsed.data);
      const client: Client = { merchantId: merchant.id, environment: key.environment, types, res };
      this.open(req, client, after);
    } catch (err) {
      sendError(res, err);
    }
  }

  /**
   * The dashboard's feed: every merchant and environment, live only, no key. It is mounted
   * behind the control API's door (dashboard/router.ts), never on the merchant surface.
   */
  handleAll(req: Request, res: Response): void {
    if (!this.unsubscribe) {
      sendError(res, new ApiError('SERVICE_UNAVAILABLE', 'The stream is not running (the emulator is starting or stopping).'));
      return;
    }
    this.open(req, { merchantId: null, environment: null, types: null, res }, null);
  }

  private open(req: Request, client: Client, after: string | null): void {
    const { res } = client;
    req.socket.setTimeout(0);
    req.socket.setNoDelay(true);
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    let head = ': svc emulator stream\n\n';
    if (after !== null) for (const m of this.replay(client, after)) head += frame(m);
    res.write(head);
    this.clients.add(client);
    const drop = () => this.clients.delete(client);
    req.on('close', drop);
    res.on('error', drop);
  }

  /** Everything after `after` that the store still has, for this client, in cursor order. */
  private replay(client: Client, after: string): Message[] {
    const { store } = this.services;
    const scope = `${client.merchantId}:${client.environment}`;
    const out: Message[] = [];
    for (const e of store.byIndex(EVENTS, 'by_scope', scope)) {
      if (e.created_at > after && wants(client, e.type)) out.push(eventMessage(e));
    }
    for (const d of store.byIndex(DELIVERIES, 'by_scope', scope)) {
      if (!wants(client, d.event_type)) continue;
      for (let i = d.attempts.length - 1; i >= 0 && d.attempts[i].cursor > after; i--) out.push(attemptMessage(d, d.attempts[i]));
    }
    return out.sort((a, b) => (a.cursor < b.cursor ? -1 : a.cursor > b.cursor ? 1 : 0));
  }

  /**
   * A request was logged: the dashboard's Logs page re-renders on it. Dashboard feed only, with
   * no id: line, so it never moves a merchant stream's Last-Event-ID cursor.
   */
  private onRequestLogged(e: LoggedRequest): void {
    let text: string | undefined;
    for (const client of this.clients) if (client.merchantId === null) this.write(client, (text ??= `event: request\ndata: ${JSON.stringify({ id: e.id, status: e.status })}\n\n`));
  }

  private onCommit(ops: readonly Op[]): void {
    const fresh: Message[] = [];
    for (const op of ops) {
      if (!op.v) continue;
      if (op.c === EVENTS.name) {
        const e = op.v as EventRecord;
        if (e.created_at > this.lastCursor) fresh.push(eventMessage(e));
      } else if (op.c === DELIVERIES.name) {
        const d = op.v as DeliveryRecord;
        for (let i = d.attempts.length - 1; i >= 0 && (d.attempts[i].cursor ?? '') > this.lastCursor; i--) fresh.push(attemptMessage(d, d.attempts[i]));
      }
    }
    if (fresh.length === 0) return;
    fresh.sort((a, b) => (a.cursor < b.cursor ? -1 : 1));
    this.lastCursor = fresh[fresh.length - 1].cursor;
    if (this.clients.size === 0) return;
    let shown: string | undefined; // the dashboard's feed: every message, redacted once for all its clients
    for (const client of this.clients) {
      if (client.merchantId === null) {
        this.write(client, (shown ??= fresh.map((m) => shownFrame(m, this.services.secrets)).join('')));
        continue;
      }
      let text = '';
      for (const m of fresh) if (inScope(client, m) && wants(client, m.type)) text += frame(m);
      if (text) this.write(client, text);
    }
  }

  private broadcast(text: string): void {
    for (const client of this.clients) this.write(client, text);
  }

  private write(client: Client, text: string): void {
    client.res.write(text);
    if (client.res.writableLength > MAX_BUFFERED_BYTES) {
      // Too slow to keep up: end it rather than buffer without bound; it resumes by cursor.
      this.clients.delete(client);
      client.res.end();
    }
  }
}

const inScope = (client: Client, m: Message) => client.merchantId === null || (m.merchantId === client.merchantId && m.environment === client.environment);
const wants = (client: Client, type: string) => client.types === null || client.types.has(type);

function parseTypes(raw: string | undefined): Set<string> | null {
  if (raw === undefined) return null;
  const names = raw.split(',').map((t) => t.trim()).filter(Boolean);
  if (names.length === 0) throw invalid('types', 'give one or more event types separated by commas');
  const unknown = names.filter((n) => !(EVENT_TYPES as readonly string[]).includes(n));
  if (unknown.length > 0) throw invalid('types', `unknown event type ${unknown.map((u) => `"${u}"`).join(', ')} (known: ${EVENT_TYPES.join(', ')})`);
  return new Set(names);
}

/** Replay everything after this cursor ('' = from the start), or null: live only. The header wins. */
function resumePoint(lastEventId: string | undefined, query: z.infer<typeof Query>): string | null {
  if (lastEventId !== undefined && lastEventId !== '') return checkCursor('Last-Event-ID', lastEventId);
  if (query.cursor !== undefined) return checkCursor('cursor', query.cursor);
  return query.from === 'start' ? '' : null;
}

function checkCursor(field: string, value: string): string {
  if (!CURSOR.test(value)) throw invalid(field, 'not a stream cursor (use the id: of a message this stream sent)');
  return value;
}
