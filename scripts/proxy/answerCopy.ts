/**
 * The copy of an answer the validating proxy checks, beside the answer streamed to the client untouched: decoded
 * (gzip, deflate, br) and held whole, or given up with the reason. Bounded (issue 41, finding 2): the copy as it
 * came (while a decoder has not read it yet) and what is decoded of it are each at most `maxBytes`, and both are
 * charged to the proxy's held bytes (`budget`) until the check is done. The moment it gives up (too large, the
 * budget spent, a broken coding, the answer broken off), it stops copying and destroys the decoder: nothing is
 * inflated that will not be checked, and the held bytes are given back at once.
 */
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { decodedStream } from '../server/contentEncoding.js';
import type { HeldBytes } from './heldBytes.js';

/** The answer's body decoded and whole, or why it is not checked. */
export type Copy = { readonly text: string } | { readonly why: string };

const MiB = 1024 * 1024;
const bytes = (n: number) => (n % MiB === 0 ? `${n / MiB} MiB` : `${n} bytes`);

export function answerCopy(incoming: IncomingMessage, maxBytes: number, budget: HeldBytes): Promise<Copy> {
  const coding = incoming.headers['content-encoding'];
  const copy = new PassThrough();
  const decoded = decodedStream(coding, copy);
  if (decoded === undefined)
    return Promise.resolve({ why: `its Content-Encoding ${JSON.stringify(String(coding))} is not one the proxy decodes` });
  // A copy that is its own decoded stream (no coding) is read as fast as it is written: only the decoded bytes are held.
  const coded = decoded !== copy;
  return new Promise((resolve) => {
    let sent = 0;
    let copied = 0;
    let held = 0;
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (result: Copy): void => {
      if (done) return;
      done = true;
      incoming.off('data', onCopy);
      copy.destroy();
      decoded.destroy();
      chunks.length = 0;
      budget.give(copied + held);
      resolve(result);
    };
    const busy = () => finish({ why: 'the proxy held too much at once for checking (its held-bytes bound)' });
    function onCopy(chunk: Buffer): void {
      sent += chunk.length;
      if (sent > maxBytes) return finish({ why: `it is larger than ${bytes(maxBytes)}${coded ? ' as sent' : ''}` });
      if (coded) {
        if (!budget.take(chunk.length)) return busy();
        copied += chunk.length;
      }
      copy.write(chunk);
    }
    incoming.on('data', onCopy);
    incoming.once('end', () => copy.end());
    const brokenOff = () => finish({ why: 'the answer broke off' });
    incoming.on('error', brokenOff);
    incoming.once('close', () => {
      if (!incoming.complete) brokenOff();
    });
    decoded.on('data', (chunk: Buffer) => {
      if (held + chunk.length > maxBytes) return finish({ why: `it is larger than ${bytes(maxBytes)} decoded` });
      if (!budget.take(chunk.length)) return busy();
      held += chunk.length;
      chunks.push(chunk);
    });
    decoded.on('error', (error) => finish({ why: `it could not be decoded (${error.message})` }));
    decoded.once('end', () => finish({ text: Buffer.concat(chunks).toString('utf8') }));
  });
}
