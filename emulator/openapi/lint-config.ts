// The Redocly lint configuration that goes with /openapi.yaml, served at GET /redocly.yaml and
// kept byte for byte as redocly.yaml at the repository root (a test compares them), so
// `npx @redocly/cli lint openapi.yaml` beside it gives no warnings — in this repository and for a
// user who downloaded both.

export const REDOCLY_CONFIG = `# Lint configuration for the svc emulator's /openapi.yaml (Redocly CLI reads redocly.yaml
# from the current directory: npx @redocly/cli lint openapi.yaml).
extends:
  - recommended
rules:
  # Off on purpose, and only this one: the spec defines GET /v1/api/payment-links/by-code/{code}
  # beside POST /v1/api/payment-links/{id}/simulate, and the rule flags the pair because
  # "by-code" could be read as an {id}. The paths are the spec's, so they stay; the methods
  # differ, and the server matches the literal by-code segment first, so no request is ambiguous.
  no-ambiguous-paths: off
`;
