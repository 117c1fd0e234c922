import type { NextFunction, Request, Response } from 'express';

// Runs the handlers of parsed requests one per event-loop turn, in arrival order.
//
// Under load every connection has a request ready at once, and Node runs all of them in the
// same poll phase: ten connections made one turn of ~16 ms of handlers, during which no timer
// (webhook retries, compaction's chunks, the event-loop monitor) could run. When the process
// shares its CPU with V8's GC helper threads (a 2-CPU machine, a container with one CPU), the
// kernel gives the main thread a fifth of it while they mark, and that turn became an 80 ms
// stall. Queued here, each handler runs in its own check phase, so timers get a turn between
// any two requests. Work and order are unchanged; a request waits in this queue instead of in
// its socket.
export function oneHandlerPerTurn() {
  const queue: NextFunction[] = [];
  let pumping = false;
  const pump = () => {
    const next = queue.shift()!;
    if (queue.length > 0) setImmediate(pump);
    else pumping = false;
    next();
  };
  return (_req: Request, _res: Response, next: NextFunction) => {
    queue.push(next);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  };
}
