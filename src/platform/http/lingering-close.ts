import type { IncomingMessage } from "node:http";

/** How long a refused upload's connection is read (and discarded) after the answer, at most. */
export const LINGER_MS = 2000;

/**
 * Makes the `Connection: close` of an answer sent before its request body was read a lingering close
 * (RFC 9112, 9.6). Node closes such a connection as soon as the answer is written; the client's bytes
 * still in flight then meet a closed socket, the kernel answers them with a reset, and a reset makes
 * the client's kernel drop what it had received but not yet read: the answer itself. So the write
 * side is closed first (the answer is complete), what the client still sends is read and discarded
 * (nothing is kept), and the socket is destroyed when the client closes its side or after `lingerMs`.
 */
export function lingerOnClose(incoming: IncomingMessage, lingerMs = LINGER_MS): void {
  const socket = incoming.socket;
  if (!socket || socket.destroyed) return;
  let closing = false;
  // Node's http server calls destroySoon once a `Connection: close` answer is written.
  socket.destroySoon = () => {
    if (closing) return;
    closing = true;
    socket.end();
    incoming.on("error", () => {});
    incoming.resume();
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once("close", () => clearTimeout(timer));
  };
}
