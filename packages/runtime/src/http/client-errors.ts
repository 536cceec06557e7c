import type { Duplex } from 'node:stream';

/** Node's limit on a request's head (request line and headers), the same for every Eligo HTTP server. */
export const MAX_REQUEST_HEAD_BYTES = 16 * 1024;

const answer = (status: number, reason: string, message: string) => {
  const body = JSON.stringify({ systemErrorMessage: message });
  return (
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
};

const tooLarge = answer(
  431,
  'Request Header Fields Too Large',
  `Request line and headers larger than ${MAX_REQUEST_HEAD_BYTES} bytes`,
);
const timedOut = answer(408, 'Request Timeout', 'The request was not received in time');
const malformed = answer(400, 'Bad Request', 'Malformed HTTP request');

/**
 * The answer to a request Node's HTTP parser refused, before any route sees it. Node's own answers carry no
 * body; these carry the SEM body ({systemErrorMessage}) that every other error of the API has, so that a
 * client reads one shape. Above all a URL longer than the head's limit (a query of many ids) is 431, which
 * the OpenAPI document states on every operation. As in Node, nothing is written once a response on the
 * connection has begun (a later pipelined request broke), and the socket is closed.
 */
export function onClientError(err: Error & { code?: string }, socket: Duplex): void {
  const message = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code !== 'ECONNRESET' && socket.writable && !message?.headersSent) {
    socket.write(
      err.code === 'HPE_HEADER_OVERFLOW'
        ? tooLarge
        : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? timedOut
          : malformed,
    );
  }
  socket.destroy(err);
}
