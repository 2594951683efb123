/**
 * A body's `Content-Encoding`, undone: what the reference server's fetcher (fetcher.ts), the contract kit's client
 * (../contract/wire/wire.ts) and the validating proxy (../proxy/proxy.ts) do with an answer, since node:http leaves it
 * to the caller.
 */
import type { IncomingMessage } from 'node:http';
import { pipeline, type Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';

/**
 * The body of `answer`, decoded when it came gzip, deflate or br; as it came when it names no coding or
 * `identity`. `undefined` for a coding none of these: the caller says what that means.
 */
export function decodedBody(answer: IncomingMessage): Readable | undefined {
  return decodedStream(answer.headers['content-encoding'], answer);
}

/** `body`, sent with the `Content-Encoding` header `coding`, decoded as decodedBody says. */
export function decodedStream(coding: string | string[] | undefined, body: Readable): Readable | undefined {
  const encoding = String(coding ?? 'identity')
    .trim()
    .toLowerCase();
  if (encoding === 'identity' || encoding === '') return body;
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  // An error of either side ends both; the decoder emits it to the reader.
  return decoder === undefined ? undefined : pipeline(body, decoder, () => {});
}
