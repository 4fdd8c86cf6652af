// Errors Node's HTTP parser raises before Fastify sees a request (headers too large, a
// request that took too long, garbage on the socket): answered in the API's error shape
// instead of Fastify's default `{error, message, statusCode}`.
import type { Socket } from 'node:net';

export function clientErrorResponse(code: string | undefined): {
  status: number;
  body: { error: string };
} {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      body: { error: 'Request headers (or the URL) are too large' },
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return {
      status: 408,
      body: { error: 'The request took too long to arrive' },
    };
  }
  return { status: 400, body: { error: 'Malformed request' } };
}

export function writeClientError(
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, body } = clientErrorResponse(error.code);
    const text = JSON.stringify(body);
    const reason =
      status === 431
        ? 'Request Header Fields Too Large'
        : status === 408
          ? 'Request Timeout'
          : 'Bad Request';
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}
