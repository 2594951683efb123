/**
 * `crawlspec proxy --record FILE.har`: what a real client did through the proxy, as an HTTP Archive (HAR 1.2, as the
 * kit's recording: ../contract/reporters/har.ts), written an entry at a time as each exchange ends, so that
 * `crawlspec check-traffic` (checkTraffic.ts) can check it again offline and say its coverage.
 *
 * Redacted as the kit's recording is: everything is cleaned of the request's token (exchanges.ts) before it is
 * written, and no header is kept but the bodies' Content-Type (the proxy holds no other header of an exchange: a
 * client's own secrets, a cookie, an API key header, never reach the file). The address is the path the client asked
 * for on the proxy, without its query (which may carry a secret). An answer's body is kept when the proxy read it
 * for checking (JSON, whole within its bounds), up to TEXT_LIMIT characters (the cut is said in `content.comment`);
 * a request body whole (the proxy takes at most --max-body-bytes of one). Each entry's `_crawlspec` carries the
 * proxy's verdict on it (its problems, or why it was not checked).
 */
import { open, type FileHandle } from 'node:fs/promises';
import { packageVersion } from '../cli/version.js';
import { harHead, kept } from '../contract/reporters/har.js';
import type { ExchangeRecord } from './exchanges.js';

/** The recording could not be written (a full disk, a file taken away). */
export class TrafficRecordingFailed extends Error {}

const JSON_TYPE = 'application/json';

/** The HAR entry of an exchange the proxy at `proxyUrl` saw. */
export function trafficEntry(record: ExchangeRecord, proxyUrl: string) {
  const answer = record.answerBody === undefined ? undefined : kept(record.answerBody);
  const size = record.answerBody === undefined ? 0 : Buffer.byteLength(record.answerBody);
  const request = record.requestBody;
  return {
    startedDateTime: record.startedAt.toISOString(),
    time: record.durationMs,
    request: {
      method: record.method,
      url: `${proxyUrl}${record.path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: request === undefined ? [] : [{ name: 'Content-Type', value: JSON_TYPE }],
      queryString: [],
      ...(request === undefined ? {} : { postData: { mimeType: JSON_TYPE, text: request } }),
      headersSize: -1,
      bodySize: request === undefined ? 0 : Buffer.byteLength(request),
    },
    response: {
      status: record.status ?? 0,
      statusText: '',
      httpVersion: record.status === undefined ? '' : 'HTTP/1.1',
      cookies: [],
      headers: answer === undefined ? [] : [{ name: 'Content-Type', value: JSON_TYPE }],
      content: { size, mimeType: answer === undefined ? 'x-unknown' : JSON_TYPE, ...(answer ?? {}) },
      redirectURL: '',
      headersSize: -1,
      bodySize: -1,
    },
    cache: {},
    timings: { send: 0, wait: record.durationMs, receive: 0 },
    _crawlspec: {
      verdict: record.verdict,
      problems: record.problems.length,
      refused: record.refused,
      ...(record.why === undefined ? {} : { why: record.why }),
    },
  };
}

export class TrafficRecording {
  private writing: Promise<void> = Promise.resolve();
  private first = true;
  private failure: string | undefined;

  private constructor(
    private readonly path: string,
    private readonly file: FileHandle,
  ) {
    this.write(harHead(packageVersion()));
  }

  /** Opens (truncates) `path`. */
  static async open(path: string): Promise<TrafficRecording> {
    const file = await open(path, 'w').catch((error: unknown) => {
      throw new TrafficRecordingFailed(`cannot write the recording to ${path}: ${(error as Error).message}`);
    });
    return new TrafficRecording(path, file);
  }

  /** Appends the entry of an exchange that ended. */
  add(record: ExchangeRecord, proxyUrl: string): void {
    this.write(`${this.first ? '' : ',\n'}${JSON.stringify(trafficEntry(record, proxyUrl))}`);
    this.first = false;
  }

  /** Ends the file (with the target it forwarded to); throws TrafficRecordingFailed when any of it was not written. */
  async close(target: string): Promise<void> {
    this.write(`\n],"_crawlspec":${JSON.stringify({ proxy: { target } })}}}\n`);
    await this.writing;
    await this.file.close().catch((error: unknown) => (this.failure ??= (error as Error).message));
    if (this.failure !== undefined) throw new TrafficRecordingFailed(`cannot write the recording to ${this.path}: ${this.failure}`);
  }

  /** Appends `text`, in order; the first error is kept for `close` (what follows it is not written). */
  private write(text: string): void {
    this.writing = this.writing.then(async () => {
      if (this.failure !== undefined) return;
      await this.file.write(text).catch((error: unknown) => (this.failure = (error as Error).message));
    });
  }
}
