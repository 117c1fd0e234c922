// The URL rules the emulator enforces on `redirect_url` (payment links) and a webhook endpoint's
// `url`, as patterns for the OpenAPI document. The checks themselves stay in the domain code
// (resources/payment-links/domain.ts checkRedirectUrl, resources/webhook-endpoints/domain.ts
// checkUrl), because they depend on the key's environment and on --allow-host; each pattern
// below describes the URLs those checks accept for a test key with no --allow-host names, and
// only such URLs: a value that matches is always accepted, while a few the server accepts too
// (IPv6 literals, internationalized host names, an empty port) are left out of the pattern and
// described in words instead.

/** A host name the WHATWG URL parser keeps as written: labels of letters, digits and single hyphens, the last starting with a letter (a numeric last label is read as IPv4). */
const HOST_NAME = '(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*';
const OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const PORT = '(?::(?:[1-5]?[0-9]{1,4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?';
/** Path, query and fragment: printable ASCII without spaces (the parser percent-encodes what needs it). */
const REST = '(?:[/?#][\\x21-\\x7e]*)?';

const https = `https://(?:${HOST_NAME}|${IPV4})${PORT}${REST}`;
const httpTo = (hosts: string[]) => `http://(?:${hosts.join('|')})${PORT}${REST}`;

const LOOPBACK_HOSTS = ['localhost', '127\\.0\\.0\\.1', '\\[::1\\]'];

/** redirect_url: https:// without credentials; plain http:// to a loopback name with a test key only. */
export const REDIRECT_URL_PATTERN = `^(?:${https}|${httpTo(LOOPBACK_HOSTS)})$`;

export const REDIRECT_URL_DESCRIPTION =
  'Where the payer returns after paying: an absolute `https://` URL without credentials. Plain `http://` to `localhost`, `127.0.0.1` or `[::1]` (those host names exactly, any port and path; not `localhost.example`) is accepted with a test key only; a live key gets 422 for it. ' +
  "An emulator started with `--allow-host NAME` also takes plain `http://` to those names with a test key (an app's container, `http://app:3000/thanks`). " +
  'The pattern lists the URLs a test key may send to every emulator; the server also accepts an IPv6 literal or an internationalized host name after https://.';

/** Webhook url: https:// without credentials; plain http:// to loopback (and, for test endpoints, to --allow-host names). */
export const WEBHOOK_URL_PATTERN = `^(?:${https}|${httpTo(LOOPBACK_HOSTS)})$`;

export const WEBHOOK_URL_DESCRIPTION =
  'Where deliveries are POSTed: an absolute `https://` URL without credentials, or plain `http://` to `localhost`, `127.0.0.1` or `[::1]` (test and live). ' +
  "An emulator started with `--allow-host NAME` also takes plain `http://` to those names for test endpoints (an app's container, `http://app:3000/webhooks`). " +
  'The pattern lists what every emulator accepts; the server also accepts an IPv6 literal or an internationalized host name after https://.';
