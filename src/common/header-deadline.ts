// A deadline on a request's headers that starts when the connection opens (or when the
// previous response on it ended), not when the first byte arrives. Node's own
// `headersTimeout` counts from the first byte of a request and is checked once a second
// (`connectionsCheckingInterval`), so a client dripping its headers one byte every 2 s was
// cut off 17–20 s after it connected; this timer answers 408 at the deadline itself. A
// connection that sent nothing at all is closed without an answer, as browsers expect of
// an idle pre-opened connection.
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { writeClientError } from './client-error.js';

interface Watched {
  timer: NodeJS.Timeout | undefined;
  /** Requests whose headers arrived, minus responses that ended. */
  open: number;
  /** Bytes the socket had read when the timer was armed. */
  readBefore: number;
}

const watched = new WeakMap<Socket, Watched>();

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

/**
 * A request's body is due `ms` after its headers, as Node's own `requestTimeout` would
 * have it (which cannot spare a single request): 408, the connection closed. A request
 * without a body has nothing to wait for.
 */
function bodyDeadline(request: IncomingMessage, socket: Socket, ms: number) {
  const headers = request.headers;
  if (
    headers['content-length'] === undefined &&
    headers['transfer-encoding'] === undefined
  ) {
    return;
  }
  const timer = setTimeout(() => {
    const own = (
      request as IncomingMessage & { [OWN_BODY_DEADLINE]?: boolean }
    )[OWN_BODY_DEADLINE];
    if (request.complete || own === true || socket.destroyed) return;
    writeClientError(timeout('The request took too long to arrive'), socket);
  }, ms);
  timer.unref();
  const clear = () => clearTimeout(timer);
  request.once('end', clear);
  request.once('close', clear);
}

function expire(socket: Socket, state: Watched): void {
  state.timer = undefined;
  if (state.open > 0 || socket.destroyed) return;
  if (socket.bytesRead === state.readBefore) {
    socket.destroy();
    return;
  }
  writeClientError(timeout('Request headers took too long to arrive'), socket);
}

function arm(socket: Socket, state: Watched, ms: number): void {
  clearTimeout(state.timer);
  // Counted by the socket itself: a 'data' listener would take the socket away from the
  // HTTP parser's native reading, and slow every request down.
  state.readBefore = socket.bytesRead;
  state.timer = setTimeout(() => expire(socket, state), ms);
  state.timer.unref();
}

/**
 * Cuts off a connection whose next request's headers are not all in within `ms`, and a
 * request whose body is not (unless it keeps its own deadline: OWN_BODY_DEADLINE).
 */
export function cutSlowHeaders(server: Server, ms: number): void {
  server.on('connection', (socket: Socket) => {
    const state: Watched = { timer: undefined, open: 0, readBefore: 0 };
    watched.set(socket, state);
    arm(socket, state, ms);
    socket.once('close', () => clearTimeout(state.timer));
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
    bodyDeadline(request, socket, ms);
    const state = watched.get(socket);
    if (state === undefined) return;
    state.open += 1;
    clearTimeout(state.timer);
    state.timer = undefined;
    response.once('close', () => {
      state.open -= 1;
      // The next request on this keep-alive connection gets the same time from now.
      if (state.open === 0 && !socket.destroyed) arm(socket, state, ms);
    });
  });
}
