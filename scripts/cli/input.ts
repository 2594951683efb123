/**
 * What the commands read whole (a document, a recording): at most MAX_INPUT_BYTES, refused past it as soon as the
 * limit is passed, with a message naming the input.
 */
import type { Readable } from 'node:stream';
import { InputError } from './errors.js';

/**
 * The most bytes of input a command reads: the longest string Node can hold (2^29 − 24 UTF-16 code units; UTF-8
 * of as many bytes never decodes to more). Past it, reading stops and the command exits 2: reading all of it
 * first took 1 GiB of stdin to a 2.1 GB memory peak before the same refusal (issue 22, finding 11).
 */
export const MAX_INPUT_BYTES = 2 ** 29 - 24;

class InputTooLarge extends Error {}

/** All of `stream`, or an InputTooLarge error as soon as it passes `limit` bytes (the stream is then destroyed). */
export async function readLimited(stream: Readable, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // Leaving the loop (the throw) destroys the stream: nothing more is read.
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new InputTooLarge(`it holds more than ${limit} bytes, the most this command reads`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** `stream` as UTF-8 text, or an InputError saying why `what` (e.g. `stdin`, a quoted file name) could not be read. */
export async function readText(stream: Readable, what: string): Promise<string> {
  try {
    return (await readLimited(stream, MAX_INPUT_BYTES)).toString('utf8');
  } catch (error) {
    const said = error instanceof InputTooLarge ? `${error.message}; expected a smaller document` : (error as Error).message;
    throw new InputError(`cannot read ${what}: ${said}`);
  }
}
