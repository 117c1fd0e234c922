import { codeOf, messageOf } from '../../contract/errors.js';

// The one error type of the client: every failure (an API error envelope, a network error, a
// timeout, a response that is not the service's envelope) becomes an SvcError, so commands
// and scripts handle one shape: { code, status, message, trace_id }.

/** The code of the SvcError ControlApi throws (exit 2) when the host is not an svc emulator: nothing else was sent to it. */
export const NOT_AN_EMULATOR = 'NOT_AN_EMULATOR';

export class SvcError extends Error {
  constructor(
    /** The API's error code, or NETWORK_ERROR / TIMEOUT / BAD_RESPONSE for client-side failures. */
    readonly code: string,
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    message: string,
    /** X-Trace-ID of the (last) attempt: the id the service's logs know the request by. */
    readonly trace_id: string | null,
    /** Set when the emulator's door guard refused the request (Svc-Guard: host, origin, authorization, token). */
    readonly guard?: string,
  ) {
    super(message);
    this.name = 'SvcError';
  }

  toJSON() {
    return { code: this.code, status: this.status, message: this.message, trace_id: this.trace_id, ...(this.guard && { guard: this.guard }) };
  }
}

/**
 * A network failure in words, without the HTTP library's codes (UND_ERR_…): what happened, to
 * which host, and what to try.
 */
export function networkMessage(baseUrl: string, err: unknown): string {
  const code = codeOf(err) ?? (err instanceof Error ? codeOf(err.cause) : undefined);
  switch (code) {
    case 'ECONNREFUSED':
      return `nothing is listening at ${baseUrl} (connection refused). Is the emulator running (svc emulator start), or is --base-url right?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot find the host of ${baseUrl} (DNS lookup failed); check --base-url.`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
      return `${baseUrl} closed the connection before answering.`;
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return `no answer from ${baseUrl} in time.`;
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the TLS certificate of ${baseUrl} is not trusted (${messageOf(err)}).`;
    default:
      return `cannot reach ${baseUrl}: ${messageOf(err)}`;
  }
}
