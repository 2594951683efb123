/**
 * Slow clients (slowloris) for tests of a server's timeouts: raw TCP connections to 127.0.0.1 that send
 * nothing, trickle their request a byte at a time, stop halfway, or go idle after a request. The server is
 * expected to drop them; `closed` says after how long it did.
 */
import { connect, type Socket } from 'node:net';

export type SlowBehaviour =
  /** Connects and sends nothing. */
  | { readonly kind: 'silent' }
  /** Sends `text` one byte every `everyMs`, for as long as the connection is open. */
  | { readonly kind: 'trickle'; readonly text: string; readonly everyMs: number }
  /** Sends `head` at once, then `tail` one byte every `everyMs`. */
  | { readonly kind: 'trickleAfter'; readonly head: string; readonly tail: string; readonly everyMs: number }
  /** Sends `text` at once, then nothing more (a request cut short, or a whole one followed by idling). */
  | { readonly kind: 'stall'; readonly text: string };

export interface SlowClient {
  /** Resolves with how long the connection stayed open, in ms, once the server has closed it. */
  readonly closed: Promise<number>;
  /** Whether the server has closed it yet. */
  isOpen(): boolean;
  /** Closes it from this side (for cleaning up after a failed test). */
  destroy(): void;
}

function trickle(socket: Socket, text: string, everyMs: number): void {
  let next = 0;
  const timer = setInterval(() => {
    if (socket.destroyed || next >= text.length) return clearInterval(timer);
    socket.write(text[next++]!);
  }, everyMs);
  socket.once('close', () => clearInterval(timer));
}

export function openSlowClient(port: number, behaviour: SlowBehaviour): SlowClient {
  const opened = performance.now();
  let open = true;
  const socket = connect(port, '127.0.0.1', () => {
    switch (behaviour.kind) {
      case 'silent':
        return;
      case 'trickle':
        return trickle(socket, behaviour.text, behaviour.everyMs);
      case 'trickleAfter':
        socket.write(behaviour.head);
        return trickle(socket, behaviour.tail, behaviour.everyMs);
      case 'stall':
        socket.write(behaviour.text);
        return;
    }
  });
  socket.on('data', () => {}); // read what comes, as a real client would
  socket.on('error', () => {}); // a reset is one way of being dropped
  const closed = new Promise<number>((resolve) =>
    socket.once('close', () => {
      open = false;
      resolve(performance.now() - opened);
    }),
  );
  return { closed, isOpen: () => open, destroy: () => socket.destroy() };
}
