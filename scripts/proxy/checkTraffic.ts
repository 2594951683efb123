/**
 * `crawlspec check-traffic FILE.har`: every exchange of an HTTP Archive (one `crawlspec proxy --record` wrote, the
 * kit's `--record`, or a browser's or another tool's HAR 1.2) checked offline as the proxy checks it live
 * (exchangeChecks.ts, in the proxy's order: proxy.ts `judge`), and fed to the spec coverage (../coverage/).
 *
 * Bounded: the file is read as a stream (@streamparser/json, which hands over one entry at a time and keeps none
 * after), so what is held is one entry, at most MAX_ENTRY_BYTES of the file; an entry larger (or a file that holds
 * that much outside its entries) is refused with one line. Work is linear in the file's size.
 */
import { createReadStream } from 'node:fs';
import { JSONParser } from '@streamparser/json';
import { apiBase } from '../coverage/model.js';
import type { Level } from '../contract/spec/levels.js';
import {
  answeredAsMissing404,
  answerViolations,
  notImplemented,
  operationOf,
  requestViolations,
  serverError,
  validRequestRefused,
  type Violation,
} from './exchangeChecks.js';
import { parseJson } from '../../schemas/parseJson.js';

/** Bytes of the file read for one entry (or between two) at most. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;

/** The file is no HAR this command can read: one line says why and where. */
export class HarUnreadable extends Error {}

/** One exchange of a HAR, as it is checked. */
export interface TrafficEntry {
  /** Its place among the entries, from 0. */
  readonly index: number;
  readonly method: string;
  readonly url: string;
  readonly requestBody?: string;
  /** Absent: no answer was recorded (status 0). */
  readonly status?: number;
  readonly contentType: string;
  /** The answer's body as recorded. */
  readonly answerText?: string;
  /** The recording kept only part of the answer's body. */
  readonly answerCut: boolean;
}

/** What the checks found in one exchange. */
export interface CheckedEntry {
  readonly problems: readonly Violation[];
  /** Its answer's body was checked against the definition of its status. */
  readonly answerChecked: boolean;
  /** What was not checked, and why. */
  readonly why?: string;
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The content type among `headers` (a HAR list of name and value), if any. */
function headerOf(headers: unknown, name: string): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  const found = headers.find((h): h is Json => isObject(h) && typeof h['name'] === 'string' && h['name'].toLowerCase() === name);
  return typeof found?.['value'] === 'string' ? found['value'] : undefined;
}

/** A HAR entry as a TrafficEntry, or a HarUnreadable naming what it lacks. */
export function trafficEntryOf(value: unknown, index: number): TrafficEntry {
  const wrong = (what: string) => new HarUnreadable(`entry ${index} of log.entries ${what}; expected a HAR 1.2 entry`);
  if (!isObject(value) || !isObject(value['request']) || !isObject(value['response'])) throw wrong('has no request and response objects');
  const { request, response } = value as { request: Json; response: Json };
  if (typeof request['method'] !== 'string' || typeof request['url'] !== 'string') throw wrong('has no request.method and request.url');
  if (typeof response['status'] !== 'number' || !Number.isInteger(response['status'])) throw wrong('has no integer response.status');
  const postData = isObject(request['postData']) ? request['postData'] : undefined;
  const content = isObject(response['content']) ? response['content'] : {};
  const raw = typeof content['text'] === 'string' ? content['text'] : undefined;
  const text = raw !== undefined && content['encoding'] === 'base64' ? Buffer.from(raw, 'base64').toString('utf8') : raw;
  const size = typeof content['size'] === 'number' ? content['size'] : -1;
  const status = response['status'] as number;
  return {
    index,
    method: request['method'],
    url: request['url'],
    ...(typeof postData?.['text'] === 'string' ? { requestBody: postData['text'] } : {}),
    ...(status === 0 ? {} : { status }),
    contentType: headerOf(response['headers'], 'content-type') ?? (typeof content['mimeType'] === 'string' ? content['mimeType'] : ''),
    ...(text === undefined ? {} : { answerText: text }),
    answerCut: text !== undefined && size > Buffer.byteLength(text),
  };
}

/** Checks one exchange as the proxy would (its `level`: the refusal of a valid request is reported at it). */
export function checkEntry(entry: TrafficEntry, level: Level): CheckedEntry {
  const { method, url, status } = entry;
  const base = apiBase(url);
  const located = base === undefined ? undefined : operationOf(base, method, url);
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return { problems: [], answerChecked: false, why: `its address ${JSON.stringify(url.slice(0, 100))} is not an absolute URL` };
  }
  const problems: Violation[] = [];
  let bodyValid = false;
  const requestBody = entry.requestBody ?? '';
  if (located !== undefined && located.operation.requestBody !== undefined) {
    const found = requestViolations(located, method, path, requestBody);
    bodyValid = found.length === 0;
    problems.push(...found);
  }
  const done = (why?: string, answerChecked = false): CheckedEntry => ({ problems, answerChecked, ...(why === undefined ? {} : { why }) });
  if (status === undefined) return done('no answer was recorded');
  if (status >= 500) return (problems.push(serverError(located, method, path, status)), done());
  if (located === undefined) return done('not an operation of the spec');
  const json = /\bjson\b/i.test(entry.contentType);
  if (answeredAsMissing404(located, method, url, requestBody, status, { isJson: false }) && (status !== 404 || !json))
    return (problems.push(notImplemented(located, method, path, status, false)), done());
  const refused = bodyValid ? validRequestRefused(located, method, path, status, level) : undefined;
  if (refused !== undefined) problems.push(refused);
  if (!json) return done(`its answer is not JSON (Content-Type: ${JSON.stringify(entry.contentType.slice(0, 100))})`);
  if (entry.answerText === undefined) return done('the recording holds no body of its answer');
  if (entry.answerCut) return done('the recording kept only part of its answer');
  const parsed = status === 404 ? parseJson(entry.answerText) : undefined;
  if (
    parsed !== undefined &&
    answeredAsMissing404(located, method, url, requestBody, status, parsed.ok ? { isJson: true, json: parsed.value } : { isJson: false })
  )
    problems.push(notImplemented(located, method, path, status, true));
  else problems.push(...answerViolations(located, method, path, status, entry.answerText));
  return done(undefined, true);
}

/**
 * Reads the HAR at `path`, handing each entry to `onEntry` as it is read; the number of entries. Throws HarUnreadable
 * (one line) for a file that cannot be read, is not JSON, is not a HAR, or holds an entry over MAX_ENTRY_BYTES.
 */
export async function readHar(path: string, onEntry: (entry: TrafficEntry) => void): Promise<number> {
  const parser = new JSONParser({ paths: ['$.log.version', '$.log.entries.*'], keepStack: false });
  let entries = 0;
  let isHar = false;
  let sinceEntry = 0;
  let failure: HarUnreadable | undefined;
  parser.onValue = ({ value, key, stack }) => {
    if (failure !== undefined) return;
    if (key === 'version' && stack.length === 2) isHar = typeof value === 'string';
    else if (typeof key === 'number') {
      sinceEntry = 0;
      try {
        onEntry(trafficEntryOf(value, entries));
      } catch (error) {
        failure = error instanceof HarUnreadable ? error : new HarUnreadable((error as Error).message);
      }
      entries += 1;
    }
  };
  const stream = createReadStream(path);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      sinceEntry += chunk.length;
      if (sinceEntry > MAX_ENTRY_BYTES)
        throw new HarUnreadable(
          `entry ${entries} of log.entries (or what precedes it) is larger than ${MAX_ENTRY_BYTES / 1024 / 1024} MiB; expected entries of at most that size`,
        );
      parser.write(chunk);
      if (failure !== undefined) throw failure;
    }
    if (!parser.isEnded) parser.end();
  } catch (error) {
    if (error instanceof HarUnreadable) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    throw new HarUnreadable(
      code === undefined ? `it is not JSON (${message.split('\n')[0]}); expected a HAR 1.2 file` : `cannot read it (${code})`,
    );
  } finally {
    stream.destroy();
  }
  if (!isHar) throw new HarUnreadable('it has no log.version; expected a HAR 1.2 file ({"log":{"version":"1.2","entries":[...]}})');
  return entries;
}
