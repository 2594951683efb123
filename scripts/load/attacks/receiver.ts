/**
 * The attack of issue 41, finding 6, on the contract kit's webhook receiver (`crawlspec webhook-receiver`): 300
 * deliveries of 4 MiB (the most a delivery may be) that never end, half declaring their length, half chunked, all
 * at once; then one that trickles in a byte at a time. The receiver runs in a child process of its own, the
 * command as a user starts it (serverProcess.ts), so its RSS is its own; the harness's `crawlspec serve` only
 * idles beside it. The finding: the receiver read each delivery whole before charging it to its 256 MiB total, and
 * took any number of connections: 300 unfinished deliveries took it to 1270 MiB.
 */
import { connect, type Socket } from 'node:net';
import { RECEIVER_LIMITS } from '../../contract/wire/webhookReceiver.js';
import {
  CLEANUP_TIMEOUT_MS,
  RECEIVER_CUT_SLACK_MS,
  RSS_CEILING_MIB,
  RSS_RECEIVER_MIB,
  RSS_SAMPLE_MS,
  RSS_SMALL_MIB,
  SERVER_START_TIMEOUT_MS,
  UNRELATED_LATENCY_MS,
} from './bounds.js';
import type { Attack, AttackContext } from './harness.js';
import { call, HOST, outcome } from './net.js';
import { RssWatch, ServerProcess } from './serverProcess.js';

const MiB = 1024 * 1024;
const DELIVERIES = 300;
/** One byte short of what each says it is: none ends. */
const SENT = RECEIVER_LIMITS.deliveryBytes - 1;
/** How long the unfinished deliveries are given to be sent (or refused) before they are let go. */
const SEND_MS = 30_000;
/** How long they are held once sent, the receiver's RSS sampled meanwhile. */
const HOLD_MS = 2_000;
/** The trickling delivery's pace: a byte every this many ms. */
const TRICKLE_MS = 500;
/**
 * Deliveries begun together: the next ones begin once these are sent (or refused), so that all are open at once
 * but writing 1.2 GB does not stall this process (and the probe of the idle `crawlspec serve` with it).
 */
const WAVE = 25;
/** Each body is written in pieces of this, the next once the socket has drained. */
const PIECE = 1 * MiB;

const round = (n: number): number => Math.round(n);

/** One raw delivery: its socket, the status it got (if any), whether all its bytes were written, whether it closed. */
class Delivery {
  readonly socket: Socket;
  status: number | undefined;
  sent = false;
  closed = false;
  #answer = '';
  readonly settled: Promise<void>;

  constructor(port: number, head: string, body?: Buffer) {
    this.socket = connect(port, HOST);
    this.socket.on('error', () => {});
    this.socket.on('data', (chunk: Buffer) => {
      this.#answer += chunk.toString('latin1');
      this.status ??= Number(/^HTTP\/1\.1 (\d{3})/.exec(this.#answer)?.[1] ?? NaN) || undefined;
    });
    this.settled = new Promise((resolve) => {
      this.socket.once('close', () => {
        this.closed = true;
        resolve();
      });
      this.socket.once('connect', () => {
        this.socket.write(head);
        if (body === undefined) return;
        let offset = 0;
        const writeMore = (): void => {
          while (offset < body.length && !this.closed) {
            const piece = body.subarray(offset, offset + PIECE);
            offset += piece.length;
            if (!this.socket.write(piece)) return void this.socket.once('drain', writeMore);
          }
          this.sent = offset >= body.length;
          resolve();
        };
        writeMore();
      });
    });
  }
}

/** A POST of `size` bytes to `path`: declared by Content-Length, or as one chunk of a chunked body. */
const head = (path: string, size: number, chunked: boolean): string =>
  `POST ${path} HTTP/1.1\r\nHost: ${HOST}\r\nContent-Type: application/json\r\n` +
  (chunked ? `Transfer-Encoding: chunked\r\n\r\n${size.toString(16)}\r\n` : `Content-Length: ${size + 1}\r\n\r\n`);

/** What the deliveries came to, counted: by status, closed unanswered, or still open when let go. */
function tally(deliveries: readonly Delivery[]): string {
  const counts: Record<string, number> = {};
  for (const d of deliveries) {
    const key = d.status !== undefined ? String(d.status) : d.closed ? 'closed unanswered' : 'open, unanswered';
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.entries(counts)
    .map(([k, n]) => `${k} × ${n}`)
    .join(', ');
}

/** Resolves after `ms`, or at once when the attack's deadline passes. */
const within = (ctx: AttackContext, ms: number, what: Promise<unknown>): Promise<unknown> => Promise.race([what, ctx.sleep(ms)]);

const attack41x6: Attack = {
  id: '41-6',
  title: `the kit's webhook receiver: ${DELIVERIES} deliveries of 4 MiB that never end (half chunked) at once, then one trickling in`,
  // The harness's `crawlspec serve` only idles here: the receiver's own bound is checked below.
  rssMiB: RSS_SMALL_MIB,
  unrelatedMs: UNRELATED_LATENCY_MS,
  deadlineMs: 120_000,
  prepare() {
    const body = Buffer.alloc(SENT, 'x');
    return {
      notes: {
        receiver: `crawlspec webhook-receiver in a child process; limits: ${RECEIVER_LIMITS.totalBytes / MiB} MiB held in all, ${RECEIVER_LIMITS.connections} connections, a request within ${RECEIVER_LIMITS.requestMs / 1000} s`,
      },
      async run(ctx) {
        const receiver = await ServerProcess.start(SERVER_START_TIMEOUT_MS, [], 'webhook-receiver');
        ctx.defer({ close: () => receiver.stop(CLEANUP_TIMEOUT_MS) });
        const port = Number(new URL(receiver.url).port);
        const idle = receiver.memory();
        const watch = new RssWatch(receiver, RSS_CEILING_MIB, RSS_SAMPLE_MS);
        ctx.defer({ close: async () => void watch.stop() });

        const deliveries: Delivery[] = [];
        ctx.defer({ close: async () => deliveries.forEach((d) => d.socket.destroy()) });
        const started = performance.now();
        const waves = (async () => {
          while (deliveries.length < DELIVERIES && !ctx.signal.aborted) {
            const wave = Array.from({ length: WAVE }, (_, i) => {
              const n = deliveries.length + i;
              return new Delivery(port, head(`/attack/${n % 8}`, SENT, n % 2 === 1), body);
            });
            deliveries.push(...wave);
            await Promise.all(wave.map((d) => d.settled));
          }
        })();
        await within(ctx, SEND_MS, waves);
        const sendMs = performance.now() - started;
        await ctx.sleep(HOLD_MS);
        const peak = watch.stop();
        ctx.note(
          'the unfinished deliveries',
          `${deliveries.length} begun, ${WAVE} at a time: ${tally(deliveries)}; ${deliveries.filter((d) => d.sent).length} written whole, in ${round(sendMs)} ms`,
        );
        for (const d of deliveries) d.socket.destroy();
        ctx.check(
          `the receiver's peak RSS ≤ ${RSS_RECEIVER_MIB} MiB`,
          peak > 0 && peak <= RSS_RECEIVER_MIB,
          `peak ${round(peak)} MiB, idle ${idle === undefined ? '?' : round(idle.rssMiB)} MiB${receiver.killedFor === undefined ? '' : `; ${receiver.killedFor}`}`,
        );
        if (!receiver.alive) return ctx.check('the receiver alive after the deliveries', false, receiver.exitReason() ?? 'gone');

        // One delivery trickling in, a byte at a time: cut by the receiver's request timeout.
        const cutWithin = RECEIVER_LIMITS.requestMs + RECEIVER_CUT_SLACK_MS;
        const trickle = new Delivery(port, head('/attack/trickle', 1000, false));
        ctx.defer({ close: async () => void trickle.socket.destroy() });
        const began = performance.now();
        const pace = setInterval(() => trickle.socket.write('x'), TRICKLE_MS);
        await within(ctx, cutWithin + 5_000, trickle.settled);
        clearInterval(pace);
        const cutMs = performance.now() - began;
        ctx.check(
          `a delivery trickling in (a byte every ${TRICKLE_MS} ms) is cut within ${cutWithin / 1000} s`,
          trickle.closed && cutMs <= cutWithin,
          trickle.closed
            ? `closed after ${round(cutMs)} ms${trickle.status === undefined ? ', unanswered' : `, answered ${trickle.status}`}`
            : `still open after ${round(cutMs)} ms`,
        );

        // What the receiver is for still works: a delivery kept, and read back.
        const inbox = `${receiver.url}/attack/after`;
        const delivered = await call(inbox, 'POST', '', { body: '{"after":true}', auth: false, timeoutMs: 10_000 });
        const read = await call(inbox, 'GET', '', { auth: false, timeoutMs: 10_000 });
        ctx.answered(delivered);
        ctx.check(
          'a delivery afterwards is kept (200) and read back',
          delivered.status === 200 && read.status === 200 && read.text.includes('"seq":1'),
          `${outcome(delivered)}, then the read ${outcome(read)} ${read.text.slice(0, 80)}`,
        );
      },
    };
  },
};

export const RECEIVER_ATTACKS: readonly Attack[] = [attack41x6];
