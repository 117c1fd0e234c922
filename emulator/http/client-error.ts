import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { STATUS_CODES } from 'node:http';
import type { Request, Response } from 'express';
import { errorBody, sendError } from '../gateway/envelope.js';
import { ApiError } from '../errors.js';
import { randomHex } from '../ids.js';

// Requests node:http refuses before express sees them — a request line plus headers over
// 16 KB (maxHeaderSize stays at its default), bytes that are not HTTP, a request that never
// finishes arriving — get node's bare status line and an empty body by default. Here they get
// the same envelope and X-Trace-ID as every other error. The status says what happened (400,
// 408, 413, 431) and the code is VALIDATION_ERROR: the request as sent cannot be accepted.

type ParserError = Error & { code?: string };

/** The status and message for a parser error, or null when the peer is gone (nothing to answer). */
function describeClientError(err: ParserError): { status: number; message: string } | null {
  switch (err.code) {
    case 'ECONNRESET':
    case 'EPIPE':
      return null;
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'request: the request line and headers are larger than 16 KB (a URL that long cannot be served; send data in a body)' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, message: 'request: it did not arrive in time' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, message: 'request: chunk extensions are too large' };
    default:
      return { status: 400, message: `request: not valid HTTP (${err.code ?? 'parse error'}: ${err.message})` };
  }
}

/** Answers parser errors on `server` in the envelope (attach once, right after listen). */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: ParserError, socket: Duplex) => {
    const answer = describeClientError(err);
    // A response already under way on this socket cannot be replaced by another.
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (!answer || !socket.writable || inFlight) return void socket.destroy();
    const body = errorBody('VALIDATION_ERROR', answer.message);
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Trace-ID: trc_${randomHex(12)}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  });
  // An HTTP/1.1 request without Host is refused below, in the envelope, instead of by node
  // with an empty 400.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
}

/** HTTP/1.1 requires a Host header (RFC 9112 §3.2): the envelope-speaking replacement for node's check; true when it answered. */
export function answeredNoHost(req: Request, res: Response): boolean {
  if (req.headers.host !== undefined || req.httpVersion !== '1.1') return false;
  sendError(res, new ApiError('VALIDATION_ERROR', 'request: an HTTP/1.1 request must carry a Host header', 400));
  return true;
}
