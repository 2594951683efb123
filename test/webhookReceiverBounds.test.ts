/**
 * The webhook receiver's bounds on what it holds while deliveries arrive (issue 41, finding 6): the bytes of a
 * delivery are charged to its total as they arrive, before they are held, so deliveries that never end hold no
 * more than the total (one past it is answered 507 before its end, its connection closed); a delivery trickling in
 * is cut at the request timeout and gives back what it held; connections past `connections` are closed
 * unanswered. What it costs in memory, with the real limits, is the attack stage's (attack 41-6).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../scripts/contract/wire/webhookReceiver.js';

/** What a raw connection saw: the status of the answer, if one came, once the receiver closed it. */
interface Seen {
  readonly socket: Socket;
  /** Resolves when the connection has closed: the status line's code, or undefined when none came. */
  readonly closed: Promise<number | undefined>;
}

/** A connection to `url` that writes `head`, then `body`, and nothing more: the request is left unfinished. */
function unfinished(url: string, head: string, body: Buffer | string = ''): Seen {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  let answer = '';
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
  socket.on('error', () => {});
  socket.once('connect', () => socket.write(Buffer.concat([Buffer.from(head, 'latin1'), Buffer.from(body)])));
  const closed = new Promise<number | undefined>((resolve) =>
    socket.once('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1];
      resolve(status === undefined ? undefined : Number(status));
    }),
  );
  return { socket, closed };
}

/** A chunked POST to `path` whose one chunk is `size` bytes: no Content-Length says how long it will be. */
const chunkedHead = (path: string, size: number) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${size.toString(16)}\r\n`;

const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

let receiver: WebhookReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe('the webhook receiver while deliveries arrive', () => {
  it('charges bytes as they arrive: of two unfinished deliveries past the total, one is answered 507 before its end; the other is cut at the request timeout and gives back what it held', async () => {
    receiver = await startWebhookReceiver({ limits: { totalBytes: 10_000, deliveryBytes: 8_000, headersMs: 500, requestMs: 1_000 } });
    const inbox = `${receiver.url}/key/unfinished`;
    const path = new URL(inbox).pathname;
    // 6,000 bytes each, neither ended: together past the total of 10,000.
    const a = unfinished(receiver.url, chunkedHead(path, 6_000), 'a'.repeat(6_000));
    const b = unfinished(receiver.url, chunkedHead(path, 6_000), 'b'.repeat(6_000));
    const statuses = await Promise.all([a.closed, b.closed]);
    // One refused as its bytes came (507, closed by the receiver); the other held until the request timeout closed it.
    expect(statuses.sort()).toEqual([507, undefined]);

    // Both gave back what they held: 8,000 bytes fit the total again, and are kept.
    expect((await post(inbox, 'k'.repeat(8_000))).status).toBe(200);
    const read = (await (await fetch(inbox)).json()) as { deliveries: unknown[]; dropped: number };
    expect(read.deliveries).toHaveLength(1);
    expect(read.dropped).toBe(1);
    // The kept delivery is charged: 4,000 more would pass the total, given as a Content-Length: refused from it.
    expect((await post(inbox, 'x'.repeat(4_000))).status).toBe(507);
    expect((await post(inbox, 'x'.repeat(2_000))).status).toBe(200);
  });

  it('a delivery declaring more than the total has room for is answered 507 from its headers, its body unread', async () => {
    receiver = await startWebhookReceiver({ limits: { totalBytes: 10_000, deliveryBytes: 20_000 } });
    const path = '/key/declared';
    const declared = unfinished(
      receiver.url,
      `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 12000\r\n\r\n`,
    );
    expect(await declared.closed).toBe(507);
    const read = (await (await fetch(`${receiver.url}${path}`)).json()) as { dropped: number };
    expect(read.dropped).toBe(1);
  });

  it('holds at most `connections` connections: one more is closed unanswered', async () => {
    receiver = await startWebhookReceiver({ limits: { connections: 2 } });
    const path = '/key/connections';
    const head = `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n`;
    const held = [unfinished(receiver.url, head), unfinished(receiver.url, head)];
    await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once('connect', resolve))));
    // Accepted after the two (the system's queue of connections is first come, first served): closed, no answer.
    const third = unfinished(receiver.url, `${head}{"n":3456}`);
    expect(await third.closed).toBeUndefined();
    for (const { socket } of held) socket.destroy();
    const read = (await (await fetch(`${receiver.url}${path}`).catch(() => undefined))?.json()) as { deliveries: unknown[] } | undefined;
    expect(read?.deliveries ?? []).toHaveLength(0);
  });
});
