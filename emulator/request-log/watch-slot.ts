import type { Response } from 'express';

// Where a /v1 response carries its request log watch (record.ts) for sendJson (envelope.ts) and
// the faults (faults/api.ts) to call: a slot on the response itself. res.locals is a dictionary
// (Object.create(null)), where every property read and written is a lookup, and the slot is
// read on every answer, logged or not.

export interface AnswerWatch {
  /** The answer went out (sendJson). */
  answer(status: number, body: string | null): void;
  /** A fault fired (it may cut the answer: the entry is then made when the response closes). */
  faulted(): void;
}

export const WATCH: unique symbol = Symbol('svc request log watch');

export type WatchedResponse = Response & { [WATCH]?: AnswerWatch };
