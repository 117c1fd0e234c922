// How far a signature's `t` may be from now, either way, for `verifySignature`, `svc webhooks
// verify` (its --tolerance default) and `svc webhooks listen --port`. A file of its own, with
// no imports, so the CLI's command table can show the default without loading node:crypto.
export const DEFAULT_TOLERANCE_SECONDS = 300;
