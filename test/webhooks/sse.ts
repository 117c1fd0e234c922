// A minimal Server-Sent Events client for tests: fetch, read the body stream, split frames.
// Comments (": ping") are counted but not returned as messages.

export interface SseMessage {
  event: string;
  id: string;
  data: any;
}

export interface SseClient {
  status: number;
  headers: Headers;
  /** The JSON error envelope when the stream was refused. */
  error?: any;
  messages: SseMessage[];
  comments: string[];
  /** Resolves once `n` messages have arrived in total. */
  waitFor(n: number, timeoutMs?: number): Promise<SseMessage[]>;
  close(): void;
}

export async function openStream(url: string, headers: Record<string, string>): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers, signal: abort.signal });
  const messages: SseMessage[] = [];
  const comments: string[] = [];
  const waiters: Array<{ n: number; ok: () => void }> = [];
  let error: any;
  if (!res.ok) error = await res.json();
  else if (res.body) {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const m: Partial<SseMessage> & { rawData?: string } = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) comments.push(line.slice(1).trim());
              else if (line.startsWith('event: ')) m.event = line.slice(7);
              else if (line.startsWith('id: ')) m.id = line.slice(4);
              else if (line.startsWith('data: ')) m.rawData = line.slice(6);
            }
            if (m.rawData !== undefined) messages.push({ event: m.event ?? 'message', id: m.id ?? '', data: JSON.parse(m.rawData) });
            for (const w of [...waiters]) if (messages.length >= w.n) w.ok();
          }
        }
      } catch {
        // aborted by close()
      }
    })();
  }
  return {
    status: res.status,
    headers: res.headers,
    error,
    messages,
    comments,
    waitFor(n, timeoutMs = 20_000) {
      if (messages.length >= n) return Promise.resolve(messages);
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`stream: ${messages.length} of ${n} messages after ${timeoutMs} ms: ${JSON.stringify(messages.map((m) => m.event))}`)), timeoutMs);
        waiters.push({ n, ok: () => (clearTimeout(timer), ok(messages)) });
      });
    },
    close: () => abort.abort(),
  };
}
