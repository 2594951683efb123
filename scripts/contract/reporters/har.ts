/**
 * The recording of a contract run (`--record FILE`): an HTTP Archive, HAR 1.2
 * (http://www.softwareishard.com/blog/har-12-spec/), which any HAR viewer opens, with crawlspec's own fields
 * beside the standard ones (HAR allows fields whose name starts with `_`):
 *
 *   - each entry's `_crawlspec`: the check that sent it (null for the run's own requests: the preflight, the
 *     cancels at its end), who the request said it was (`auth`: the run's token, none, another bearer), and, for an answer a
 *     check held against an expectation (expect.ts) and found failing where the run reports that failure, the
 *     expectation itself (plain data) and what was wrong, so that `crawlspec contract replay` can judge the
 *     answer again; `replay` says whether the exchange stands alone (false for a request on a job the run
 *     started, which only the whole run has);
 *   - the log's `_crawlspec`: the run (target, level, versions, site), its verdict, and the failures no single
 *     exchange shows (a crawl judged over a whole job, pagination over several pages), which replay names
 *     instead of judging.
 *
 * A request that got no answer is an entry too: status 0 and the reason in `response._error`. An answer's text is
 * kept up to TEXT_LIMIT characters (the cut is said in `content.comment`); request bodies are the kit's own, small,
 * and kept whole. Everything is cleaned of the token and the `--header` values (redact.ts) before it is written.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { Expectation } from '../spec/expectation.js';
import type { ExchangeRecord } from '../wire/http.js';

/** Longest answer text a recording keeps, in characters. */
export const TEXT_LIMIT = 256 * 1024;

/** The protocol the kit speaks to the target (node:http's HTTP/1.1, wire.ts). */
const HTTP_VERSION = 'HTTP/1.1';

const Level = Type.Union([Type.Literal('interface'), Type.Literal('service')]);

/** An expectation (expect.ts `Expectation`) as the recording keeps it. */
const RecordedExpectation = Type.Object({
  interface: Type.Optional(
    Type.Object({
      outcome: Type.Union([Type.Literal('accepted'), Type.Literal('refused')]),
      why: Type.String(),
      section: Type.String(),
      credentials: Type.Optional(Type.Boolean()),
    }),
  ),
  service: Type.Object({ status: Type.Union([Type.Integer(), Type.Array(Type.Integer())]), expected: Type.Optional(Type.String()) }),
  standsAlone: Type.Optional(Type.Boolean()),
});

/** A failure of the run, as a recording says it. */
export const RecordedFailure = Type.Object({ level: Level, section: Type.String(), message: Type.String() });
export type RecordedFailure = Static<typeof RecordedFailure>;

/** Who a request said it was: the run's token (`Authorization: Bearer <token>`), no one, or another bearer (kept as sent). */
export const RecordedAuth = Type.Union([Type.Literal('token'), Type.Literal('none'), Type.Literal('other')]);
export type RecordedAuth = Static<typeof RecordedAuth>;

/** An entry's `_crawlspec`. */
export const EntryMark = Type.Object({
  check: Type.Union([Type.String(), Type.Null()]),
  auth: RecordedAuth,
  /** The answer broke what its check held it to, and the run reports that failure (at the run's level). */
  failed: Type.Boolean(),
  /** Failed, and the exchange stands alone: replay sends it again. */
  replay: Type.Optional(Type.Boolean()),
  expectation: Type.Optional(RecordedExpectation),
  failures: Type.Optional(Type.Array(RecordedFailure)),
});
/** An entry's `_crawlspec`, as written: the expectation is the kit's own (whose status list is read-only). */
export type EntryMark = Omit<Static<typeof EntryMark>, 'expectation'> & { readonly expectation?: Expectation };

/** Why a failure cannot be replayed: judged on a job the run started (`job`), or over several exchanges (`whole`). */
export const NotReplayable = Type.Object({
  check: Type.String(),
  reason: Type.Union([Type.Literal('job'), Type.Literal('whole')]),
  failures: Type.Array(RecordedFailure),
});
export type NotReplayable = Static<typeof NotReplayable>;

/** The log's `_crawlspec`: the run recorded. */
export const RunMark = Type.Object({
  target: Type.String(),
  level: Level,
  versions: Type.Array(Type.Union([Type.Literal('v1'), Type.Literal('v2')])),
  /** The site the run's valid requests pointed at. */
  siteUrl: Type.String(),
  maxResponseBytes: Type.Integer(),
  /** The run's verdict; absent when the run ended in an error of the kit. */
  verdict: Type.Optional(Type.String()),
  notReplayable: Type.Array(NotReplayable),
});
export type RunMark = Static<typeof RunMark>;

interface NameValue {
  readonly name: string;
  readonly value: string;
}

/** A HAR 1.2 entry, with crawlspec's mark. */
export interface HarEntry {
  readonly startedDateTime: string;
  readonly time: number;
  readonly request: {
    readonly method: string;
    readonly url: string;
    readonly httpVersion: string;
    readonly cookies: readonly [];
    readonly headers: readonly NameValue[];
    readonly queryString: readonly NameValue[];
    readonly postData?: { readonly mimeType: string; readonly text: string };
    readonly headersSize: -1;
    readonly bodySize: number;
  };
  readonly response: {
    readonly status: number;
    readonly statusText: string;
    readonly httpVersion: string;
    readonly cookies: readonly [];
    readonly headers: readonly NameValue[];
    readonly content: { readonly size: number; readonly mimeType: string; readonly text?: string; readonly comment?: string };
    readonly redirectURL: string;
    readonly headersSize: -1;
    readonly bodySize: number;
    /** Why no whole answer came (a lost connection, an answer too long to read). */
    readonly _error?: string;
  };
  readonly cache: Record<string, never>;
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
  readonly _crawlspec: EntryMark;
}

/** Milliseconds, to the microsecond. */
const ms = (value: number) => Math.round(Math.max(value, 0) * 1000) / 1000;

/** `text` cut to TEXT_LIMIT characters, and what was cut, in words. */
export function kept(text: string): { text: string; comment?: string } {
  if (text.length <= TEXT_LIMIT) return { text };
  return {
    text: text.slice(0, TEXT_LIMIT),
    comment: `cut: ${text.length - TEXT_LIMIT} characters more (a recording keeps ${TEXT_LIMIT} characters of an answer)`,
  };
}

/**
 * The HAR entry of `record`, marked `mark`; `clean` removes the run's secrets from a text (applied to the answer's text
 * before it is cut, so that no cut leaves half a token; the caller cleans the whole entry after).
 */
export function harEntry(record: ExchangeRecord, mark: EntryMark, clean: (text: string) => string): HarEntry {
  const { request, response } = record;
  const url = new URL(request.url);
  const body = request.body;
  const headers = response === undefined ? [] : [...response.headers].map(([name, value]) => ({ name, value }));
  const text = record.text === undefined ? undefined : kept(clean(record.text));
  const size = record.text === undefined ? 0 : Buffer.byteLength(record.text);
  const encoded = response?.headers.has('content-encoding') ?? false;
  return {
    startedDateTime: record.startedAt.toISOString(),
    time: ms(record.waitMs) + ms(record.receiveMs),
    request: {
      method: request.method,
      url: request.url,
      httpVersion: HTTP_VERSION,
      cookies: [],
      headers: Object.entries(request.headers).map(([name, value]) => ({ name, value })),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(body === undefined ? {} : { postData: { mimeType: request.headers['Content-Type'] ?? 'application/json', text: body } }),
      headersSize: -1,
      bodySize: body === undefined ? 0 : Buffer.byteLength(body),
    },
    response: {
      status: response?.status ?? 0,
      statusText: response?.statusText ?? '',
      httpVersion: response === undefined ? '' : HTTP_VERSION,
      cookies: [],
      headers,
      content: { size, mimeType: response?.headers.get('content-type') ?? 'x-unknown', ...(text ?? {}) },
      redirectURL: response?.headers.get('location') ?? '',
      headersSize: -1,
      // What came over the wire: the text's bytes, unless the answer was compressed (wire.ts hands over the decoded body).
      bodySize: record.text === undefined || encoded ? -1 : size,
      ...(record.error === undefined ? {} : { _error: record.error }),
    },
    cache: {},
    timings: { send: 0, wait: ms(record.waitMs), receive: ms(record.receiveMs) },
    _crawlspec: mark,
  };
}

/** The text of a recording up to its first entry: the entries follow, then `harTail(run)`. */
export const harHead = (version: string): string =>
  `{"log":{"version":"1.2","creator":${JSON.stringify({ name: 'crawlspec', version })},"entries":[\n`;

/** The text of a recording after its last entry. */
export const harTail = (run: RunMark): string => `\n],"_crawlspec":${JSON.stringify(run)}}}\n`;
