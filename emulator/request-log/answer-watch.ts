import type { Op } from '../store/memory-store.js';

// What a /v1 response's request log watch (record.ts) offers the gateway (mount.ts), sendJson
// (envelope.ts) and the faults (faults/api.ts): they find it in res.locals.requestLog. (A slot on the response object
// itself cost more: adding a property to a response Express has just given a new prototype is a
// map transition, slower than one more key in res.locals' dictionary.)

export interface AnswerWatch {
  /** The request's body as it arrived (express.json's verify hook, once the body passed its checks). */
  received(body: Buffer, encoding: string): void;
  /** What the request's transaction wrote (the gateway, right after it committed: takeWrites). */
  wrote(writes: readonly Op[]): void;
  /** The answer is a replay of a stored one (the gateway, as it sets Idempotent-Replayed). */
  replayed(): void;
  /** The answer went out (sendJson). */
  answer(status: number, body: string | null): void;
  /** A fault fired (it may cut the answer: the entry is then made when the response closes). */
  faulted(): void;
}
