// What an API key looks like, and how one is shown without giving it away (logs, CLI output,
// the dashboard never print a whole key).

export const KEY_PATTERN = /^svc_(test|live)_[A-Za-z0-9]{16,128}$/;

/** `svc_test_…a1b2`: the prefix of an API key or a control token (svc_ctl_), and the last 4. */
export function maskSecret(secret: string): string {
  const prefix = /^svc_(test|live|ctl)_/.exec(secret)?.[0] ?? '';
  return `${prefix}…${secret.slice(-4)}`;
}
