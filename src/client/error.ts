// The one error type of the client: every failure (an API error envelope, a network error, a
// timeout, a response that is not the service's envelope) becomes an SvcError, so commands
// and scripts handle one shape: { code, status, message, trace_id }.

export class SvcError extends Error {
  constructor(
    /** The API's error code, or NETWORK_ERROR / TIMEOUT / BAD_RESPONSE for client-side failures. */
    readonly code: string,
    /** HTTP status; 0 when no response arrived. */
    readonly status: number,
    message: string,
    /** X-Trace-ID of the (last) attempt: the id the service's logs know the request by. */
    readonly trace_id: string | null,
  ) {
    super(message);
    this.name = 'SvcError';
  }

  toJSON() {
    return { code: this.code, status: this.status, message: this.message, trace_id: this.trace_id };
  }
}
