// A deadline on a request's headers that starts when the connection opens (or when the
// previous response on it ended), not when the first byte arrives. Node's own
// `headersTimeout` counts from the first byte of a request and is checked once a second
// (`connectionsCheckingInterval`), so a client dripping its headers one byte every 2 s was
// cut off 17–20 s after it connected; this timer answers 408 at the deadline itself. A
// connection that sent nothing at all is closed without an answer, as browsers expect of
// an idle pre-opened connection.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { writeClientError } from '../errors/client-error.js';

const watched = new WeakMap<Socket, Watched>();

interface Watched {
  /** One timer per connection, re-armed (refreshed) rather than created per request. */
  timer: NodeJS.Timeout | undefined;
  /** Requests whose headers arrived, minus responses that ended. */
  open: number;
  /** Bytes the socket had read when the header deadline was armed. */
  readBefore: number;
  /** The latest request, while its body is due. */
  request: IncomingMessage | undefined;
}

/**
 * Set on a request whose body keeps its own deadline (an upload: cut when it stops
 * arriving, not at a fixed time; see the multipart parser), so the body deadline skips it.
 */
export const OWN_BODY_DEADLINE = Symbol('ownBodyDeadline');

function timeout(message: string): Error {
  return Object.assign(new Error(message), {
    code: 'ERR_HTTP_REQUEST_TIMEOUT',
  });
}

function hasBody(request: IncomingMessage): boolean {
  const headers = request.headers;
  return (
    headers['content-length'] !== undefined ||
    headers['transfer-encoding'] !== undefined
  );
}

/**
 * The connection's deadline has passed. With no request open it was the next request's
 * headers': a connection that sent nothing is closed, one that sent part of its headers
 * gets 408. With one open, it was that request's body's (as Node's own `requestTimeout`
 * would have it, which cannot spare a single request): 408 unless the body is complete.
 */
function expire(socket: Socket, state: Watched): void {
  if (socket.destroyed) return;
  if (state.open > 0) {
    const request = state.request;
    if (
      request === undefined ||
      request.complete ||
      (request as IncomingMessage & { [OWN_BODY_DEADLINE]?: boolean })[
        OWN_BODY_DEADLINE
      ] === true
    ) {
      return;
    }
    writeClientError(timeout('The request took too long to arrive'), socket);
    return;
  }
  if (socket.bytesRead === state.readBefore) {
    socket.destroy();
    return;
  }
  writeClientError(timeout('Request headers took too long to arrive'), socket);
}

/**
 * Cuts off a connection whose next request's headers are not all in within `ms`, and a
 * request whose body is not (unless it keeps its own deadline: OWN_BODY_DEADLINE).
 */
export function cutSlowHeaders(server: Server, ms: number): void {
  server.on('connection', (socket: Socket) => {
    const state: Watched = {
      timer: undefined,
      open: 0,
      // Counted by the socket itself: a 'data' listener would take the socket away from
      // the HTTP parser's native reading, and slow every request down.
      readBefore: socket.bytesRead,
      request: undefined,
    };
    state.timer = setTimeout(() => expire(socket, state), ms);
    state.timer.unref();
    watched.set(socket, state);
    socket.once('close', () => clearTimeout(state.timer));
  });
  server.on('request', (request: IncomingMessage, response) => {
    const state = watched.get(request.socket);
    if (state === undefined) return;
    state.open += 1;
    state.request = request;
    // Its body is due `ms` from now; one without a body has nothing to wait for (the
    // timer, if it fires meanwhile, finds the request complete).
    if (hasBody(request)) state.timer?.refresh();
    response.once('close', () => {
      state.open -= 1;
      if (state.open > 0 || request.socket.destroyed) return;
      state.request = undefined;
      // The next request on this keep-alive connection gets the same time from now.
      state.readBefore = request.socket.bytesRead;
      state.timer?.refresh();
    });
  });
}
