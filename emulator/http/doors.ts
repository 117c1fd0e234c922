import type { Router } from 'express';
import type { Services } from '../services.js';
import { localOnly, type LocalGuardOptions } from './local-guard.js';
import { STREAM_PATH } from '../webhooks/stream.js';

// The door of each surface that is not the merchant API (local-guard.ts says what each option
// checks), declared once: app.ts mounts them by path prefix before any body is parsed, so a
// foreign Host or Origin is refused with 403 without reading the body (a cross-site form post
// to the control API used to reach the JSON parser first and get 422). The routers mount the
// same door again themselves, so none of them is ever reachable without it.

export const DOORS = {
  /** The control API (/_emulator): never with an Authorization header; other hosts need the token (or the dashboard's session, from its own pages). */
  control: { controlToken: true, session: 'same-origin' },
  /** The dashboard: the control API's door, plus the ?token= login link and its session cookie. */
  dashboard: { controlToken: true, session: 'page' },
  /** The hosted pages: opened by top-level navigation from anywhere, so Origin is checked on form posts only. */
  pages: { allowAuthorization: true, origin: 'unsafe-methods' },
  /** The live stream: its merchant key is its own door. */
  stream: { allowAuthorization: true, controlToken: true },
  /** The OpenAPI documents and their lint configuration: they describe, they do not act. */
  documents: { allowAuthorization: true },
} as const satisfies Record<string, LocalGuardOptions>;

/**
 * Mounts every surface's door at its path prefix (express matches these prefixes exactly as it
 * matches the routers mounted there later). The documents are served by the caller before
 * this runs: they sit under /_emulator too but are not behind the control API's door.
 */
export function mountDoors(app: Router, services: Services): void {
  app.use('/_emulator', localOnly(services, DOORS.control));
  app.use('/dashboard', localOnly(services, DOORS.dashboard));
  app.use('/checkout', localOnly(services, DOORS.pages));
  app.use(STREAM_PATH, localOnly(services, DOORS.stream));
}
