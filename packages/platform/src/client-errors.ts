import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { PROBLEM_CONTENT_TYPE, problemFor } from './problem-details';

// Fastify types `rawPacket` as serialized JSON; Node passes the Buffer it read.
type ClientError = Error & { code?: string; rawPacket?: unknown };

/** What Node's HTTP parser refused, as status and detail (no route ever saw the request). */
function refusal(error: ClientError): [number, string] {
  switch (error.code) {
    case 'HPE_INVALID_METHOD':
      return [400, 'The request method is not an HTTP method.'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'The request took too long to arrive.'];
    case 'HPE_HEADER_OVERFLOW':
      // The parser read that much without the end of the request line: the URI is what is too long.
      return Buffer.isBuffer(error.rawPacket) && !error.rawPacket.includes('\r\n')
        ? [414, 'The request URI is too long.']
        : [431, 'The request headers are too large.'];
    default:
      return [400, 'The request is not valid HTTP.'];
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (unknown method, request line or headers too
 * long, malformed) is answered problem+json on the socket, as every other failure, then the connection closed.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  endWithProblem(socket, ...refusal(error));
}

/** Node hands CONNECT to a `connect` listener, not to Fastify, and closes the socket unanswered without one. */
export function answerConnect(_request: IncomingMessage, socket: Duplex): void {
  endWithProblem(socket, 400, 'CONNECT is not served: this is not a proxy.');
}

function endWithProblem(socket: Duplex, status: number, detail: string): void {
  const body = JSON.stringify(problemFor(status, detail));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
