// The parity suite's vocabulary. A scenario is data, in the shape of the Stripe CLI's trigger
// fixtures: an ordered list of API calls whose values may refer back to earlier answers
// (`${link:id}` is the `id` in the `data` of the step named `link`). One runner (runner.ts)
// plays every scenario against any host through /v1 alone. A step whose references cannot be
// resolved (the answer it needs failed) is recorded as not run; the others still run, so a
// clean-up step (deleting an endpoint) runs whenever what it deletes exists.

type HttpMethod = 'GET' | 'POST' | 'DELETE';

/**
 * Which key a step sends: the suite's own (--api-key), another merchant's (--other-api-key),
 * a key of the same merchant without payments:create (--restricted-api-key), none, or a
 * literal Authorization header value (to be refused).
 */
export type Auth = 'main' | 'other' | 'restricted' | 'none' | { header: string };

/**
 * A fact about the answers, checked when the step runs and kept in the recording as
 * true/false: the ordering and replay rules the spec states, which a shape cannot show.
 * Paths are relative to the step's `data` (`payments[*].created_at`, `payments[-1].id`).
 */
export type Rule =
  | { name: string; kind: 'sorted'; path: string; order: 'asc' | 'desc' }
  | { name: string; kind: 'equal'; a: string; b: string }
  | { name: string; kind: 'all-before'; path: string; than: string }
  | { name: string; kind: 'all-equal'; path: string; value: string }
  | { name: string; kind: 'max-length'; path: string; max: number }
  | { name: string; kind: 'contains'; path: string; value: string }
  | { name: string; kind: 'excludes'; path: string; value: string }
  | { name: string; kind: 'same-body'; as: string };

export interface CallStep {
  name: string;
  method: HttpMethod;
  /** May hold ${…} references. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  auth?: Auth;
  body?: unknown;
  /** Arrays (paths from the body root, `$.data.payments`) compared by their first item's shape alone: their length and other rows depend on the host's history. */
  lists?: string[];
  rules?: Rule[];
}

/** Waits for the webhook deliveries of the listed event types (one each) at the local receiver. */
export interface DeliveriesStep {
  name: string;
  kind: 'deliveries';
  events: string[];
  /** The endpoint's signing secret, e.g. ${endpoint:secret}. */
  secret: string;
}

type Step = CallStep | DeliveriesStep;

/** What a scenario cannot run without; when missing it is recorded as skipped, with why. */
type Need = 'other-key' | 'restricted-key' | 'webhook';

export interface Scenario {
  name: string;
  description: string;
  needs?: Need[];
  /** Host-specific inputs (`${var:payee_id}`): each must be given (--var) or known (the emulator's fixtures). */
  vars?: string[];
  steps: Step[];
}

export const isDeliveries = (step: Step): step is DeliveriesStep => 'kind' in step && step.kind === 'deliveries';
