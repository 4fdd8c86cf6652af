// A deadline on a request's headers that starts when the connection opens (or when the
// previous response on it ended), not when the first byte arrives. Node's own
// `headersTimeout` counts from the first byte of a request and is checked once a second
// (`connectionsCheckingInterval`), so a client dripping its headers one byte every 2 s was
// cut off 17–20 s after it connected; this timer answers 408 at the deadline itself. A
// connection that sent nothing at all is closed without an answer, as browsers expect of
// an idle pre-opened connection.
import type { Server } from 'node:http';
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

function expire(socket: Socket, state: Watched): void {
  state.timer = undefined;
  if (state.open > 0 || socket.destroyed) return;
  if (socket.bytesRead === state.readBefore) {
    socket.destroy();
    return;
  }
  writeClientError(
    Object.assign(new Error('Request headers took too long to arrive'), {
      code: 'ERR_HTTP_REQUEST_TIMEOUT',
    }),
    socket,
  );
}

function arm(socket: Socket, state: Watched, ms: number): void {
  clearTimeout(state.timer);
  // Counted by the socket itself: a 'data' listener would take the socket away from the
  // HTTP parser's native reading, and slow every request down.
  state.readBefore = socket.bytesRead;
  state.timer = setTimeout(() => expire(socket, state), ms);
  state.timer.unref();
}

/** Cuts off a connection whose next request's headers are not all in within `ms`. */
export function cutSlowHeaders(server: Server, ms: number): void {
  server.on('connection', (socket: Socket) => {
    const state: Watched = { timer: undefined, open: 0, readBefore: 0 };
    watched.set(socket, state);
    arm(socket, state, ms);
    socket.once('close', () => clearTimeout(state.timer));
  });
  server.on('request', (request, response) => {
    const socket = request.socket;
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
