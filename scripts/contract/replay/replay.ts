/**
 * Replaying a recorded run (`crawlspec contract replay FILE`): the failing exchanges of a recording (har.ts) are
 * sent again, to the target the user names (the recorded one only when the user says so: a recording may come
 * from anywhere, and must not choose where the token goes), and each answer is held against the expectation
 * recorded with it, by the kit's own `holdAnswer` (through an attempt, as in a run, at the run's level):
 *
 *   - `fixed`: the answer holds (a refusal holds only when the target accepts, in the same replay, a minimal valid
 *     start of that version and kind: a refusal is evidence only against an accepted baseline, baseline.ts);
 *   - `still failing`: it does not, and the failures say why;
 *   - `not judged`: it could not be judged (an answer that depends on the account, the baseline refused too, the
 *     connection lost twice, no answer at all where that is no failure at the run's level), with the reason.
 *
 * An exchange that got no answer is never `fixed`: no answer shows nothing fixed.
 *
 * A start that is accepted starts a job: it is cancelled, as in a run. The failures no single exchange shows (a
 * crawl judged over a whole job, a request on a job the run started) are not sent: they are listed, with the
 * check to run again (`--only NAME`).
 */
import { Value } from '@sinclair/typebox/value';
import { Type, type Static } from '@sinclair/typebox';
import { startRefused } from '../engine/baseline.js';
import { RequestBudget } from '../wire/budget.js';
import { newOutcome, runAttempt, undecidedAt } from '../engine/check.js';
import { Attempt, jobOperationId, type Env } from '../engine/context.js';
import { MissingEndpoints } from '../engine/endpoints.js';
import { expectationLevel } from '../engine/expect.js';
import type { Expectation } from '../spec/expectation.js';
import { EntryMark, RunMark, type NotReplayable } from '../reporters/har.js';
import { HttpClient, type Auth, type ExchangeRecord, type OutgoingRequest } from '../wire/http.js';
import { JobTracker } from '../wire/jobs.js';
import { decides } from '../spec/levels.js';
import { resolveOptions, type ResolvedOptions } from '../engine/options.js';
import { redact, runRedaction } from '../wire/redact.js';
import type { Failure } from '../report/report.js';
import { failureLines } from '../reporters/text.js';
import { cutLines } from '../wire/cut.js';
import { Reserve } from '../wire/reserve.js';
import { minimalRequest } from '../generation/safeRequests.js';
import { locate, type JobKind } from '../spec/operations.js';
import { Transport } from '../engine/transport.js';

/** Requests one replayed exchange may send: itself, a baseline, each with its cancel, and a retry. */
const PER_ENTRY = 6;

/** What replay reads of an entry: its request and its mark. */
const ReplayedEntry = Type.Object({
  request: Type.Object({
    method: Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('DELETE')]),
    url: Type.String(),
    headers: Type.Array(Type.Object({ name: Type.String(), value: Type.String() })),
    postData: Type.Optional(Type.Object({ text: Type.String() })),
  }),
  _crawlspec: EntryMark,
});
type ReplayedEntry = Static<typeof ReplayedEntry>;

/** What replay reads of a recording. */
const RecordingFile = Type.Object({
  log: Type.Object({
    version: Type.Literal('1.2'),
    creator: Type.Object({ name: Type.Literal('crawlspec') }),
    entries: Type.Array(Type.Unknown()),
    _crawlspec: RunMark,
  }),
});

/** A recording read back: the run, and the entries to send again. */
export interface ReadRecording {
  readonly run: RunMark;
  readonly entries: readonly ReplayedEntry[];
}

/** A file that is no recording of `crawlspec contract --record`. */
export class NotARecording extends Error {
  override name = 'NotARecording';
}

/** The first problem Value finds of `value` against `schema`, as `where: what`. */
function firstProblem(schema: Parameters<typeof Value.Errors>[0], value: unknown, at: string): string {
  const error = Value.Errors(schema, value).First();
  return error === undefined ? at : `${at}${error.path.replace(/\//g, '.')}: ${error.message}`;
}

/** The recording in `text`; NotARecording says what is wrong with it. */
export function readRecording(text: string): ReadRecording {
  let json: unknown;
  try {
    json = JSON.parse(text) as unknown;
  } catch (error) {
    throw new NotARecording(`it is not JSON (${(error as Error).message})`);
  }
  const creator = (json as { log?: { creator?: { name?: unknown } } } | null)?.log?.creator?.name;
  if (typeof creator === 'string' && creator !== 'crawlspec')
    throw new NotARecording(`it was written by ${creator}, not by crawlspec contract --record`);
  if (!Value.Check(RecordingFile, json))
    throw new NotARecording(`it is not a HAR 1.2 file written by crawlspec contract --record (${firstProblem(RecordingFile, json, '$')})`);
  const entries: ReplayedEntry[] = [];
  json.log.entries.forEach((entry, i) => {
    const mark = (entry as { _crawlspec?: { failed?: unknown; replay?: unknown } } | null)?._crawlspec;
    if (mark?.failed !== true || mark.replay !== true) return;
    if (!Value.Check(ReplayedEntry, entry))
      throw new NotARecording(`its entry ${i} cannot be replayed (${firstProblem(ReplayedEntry, entry, `$.log.entries[${i}]`)})`);
    if (entry._crawlspec.expectation === undefined) throw new NotARecording(`its entry ${i} is marked failed but holds no expectation`);
    entries.push(entry);
  });
  return { run: json.log._crawlspec, entries };
}

export interface ReplayOptions {
  /** The target to send to (without the version segment): the user's, or the recorded one when the user confirmed it. */
  readonly baseUrl: string;
  /** The token sent where the recorded run sent its own; undefined sends none (`--no-auth`). */
  readonly token: string | undefined;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

export type ReplayState = 'fixed' | 'still failing' | 'not judged';

export interface ReplayedExchange {
  readonly check: string;
  readonly method: string;
  /** The address it was sent to. */
  readonly url: string;
  readonly state: ReplayState;
  /** Still failing: what is wrong now. */
  readonly failures: readonly Failure[];
  /** Not judged: why. */
  readonly reason?: string;
}

export interface ReplayReport {
  /** The run recorded. */
  readonly recorded: RunMark;
  /** Where the exchanges were sent. */
  readonly target: string;
  readonly exchanges: readonly ReplayedExchange[];
  /** The recorded failures that were not sent again. */
  readonly notReplayed: readonly NotReplayable[];
  /** Jobs a replayed start started that could not be cancelled. */
  readonly notCancelled: readonly string[];
  /** Why the target could not be reached, when a request found it so and none got an answer (exit 2, as a run's). */
  readonly unreachable?: string;
}

/** The request of `entry` again, sent to `baseUrl` instead of the recorded target; undefined when it was not on it. */
function outgoing(entry: ReplayedEntry, recordedTarget: string, baseUrl: string): OutgoingRequest | undefined {
  const { method, url, headers, postData } = entry.request;
  if (!url.startsWith(`${recordedTarget}/`)) return undefined;
  const mark = entry._crawlspec;
  const bearer = headers.find((h) => h.name.toLowerCase() === 'authorization')?.value.replace(/^Bearer /, '');
  const auth: Auth = mark.auth === 'token' ? 'token' : mark.auth === 'none' || bearer === undefined ? 'none' : { bearer };
  return {
    method,
    url: `${baseUrl}${url.slice(recordedTarget.length)}`,
    auth,
    ...(postData === undefined ? {} : { body: { raw: postData.text } }),
  };
}

/** Whether `expectation` asks for a refusal: the interface's, or (where it says nothing) only 4xx statuses. */
function expectsRefusal(expectation: Expectation): boolean {
  if (expectation.interface !== undefined) return expectation.interface.outcome === 'refused';
  const statuses = typeof expectation.service.status === 'number' ? [expectation.service.status] : expectation.service.status;
  return statuses.every((s) => s >= 400 && s < 500);
}

/** The start `request` is, if it is one: the version and kind of job. */
function startOf(options: ResolvedOptions, request: OutgoingRequest): { version: 'v1' | 'v2'; kind: JobKind } | undefined {
  const located = locate(options.baseUrl, request.method, request.url);
  if (located === undefined) return undefined;
  const kind = (['crawl', 'batch'] as const).find((k) => located.operation.operationId === jobOperationId(located.version, k, 'start'));
  return kind === undefined ? undefined : { version: located.version, kind };
}

/** The options of a replay of `run`: those of the run recorded, but where to send and how; a RangeError names what is wrong. */
export function replayOptions(run: RunMark, given: ReplayOptions): ResolvedOptions {
  return resolveOptions({
    baseUrl: given.baseUrl,
    token: given.token,
    versions: [...run.versions],
    level: run.level,
    seed: 0,
    runs: 1,
    concurrency: 1,
    siteUrl: run.siteUrl,
    behaviour: false,
    maxResponseBytes: run.maxResponseBytes,
    ...(given.timeoutMs === undefined ? {} : { timeoutMs: given.timeoutMs }),
    ...(given.headers === undefined ? {} : { headers: given.headers }),
  });
}

/**
 * What came back to the replayed request itself (not to a baseline or a cancel): whether any sending of it got an
 * HTTP answer, and else why none came. Watches the client's exchanges for the request's method, address and body.
 */
class AnswerWatch {
  #request: OutgoingRequest | undefined;
  answered = false;
  /** Why the last sending of it got no answer. */
  missed: string | undefined;

  watch(request: OutgoingRequest): void {
    this.#request = request;
    this.answered = false;
    this.missed = undefined;
  }

  readonly onExchange = (record: ExchangeRecord): void => {
    const watched = this.#request;
    const body = watched?.body === undefined ? undefined : 'raw' in watched.body ? watched.body.raw : JSON.stringify(watched.body.json);
    if (
      watched === undefined ||
      record.request.method !== watched.method ||
      record.request.url !== watched.url ||
      record.request.body !== body
    )
      return;
    if (record.response !== undefined) this.answered = true;
    else this.missed = record.error;
  };
}

/** Sends the failing exchanges of `recording` again, one at a time, to the target of `options` (replayOptions), and judges each answer. */
export async function replay(recording: ReadRecording, options: ResolvedOptions): Promise<ReplayReport> {
  const { run } = recording;
  const heard = new AnswerWatch();
  const client = new HttpClient({
    token: options.token,
    timeoutMs: options.timeoutMs,
    concurrency: 1,
    maxResponseBytes: options.maxResponseBytes,
    headers: options.headers,
    onExchange: heard.onExchange,
  });
  const jobs = new JobTracker(options.baseUrl);
  const exchanges: ReplayedExchange[] = [];
  for (const entry of recording.entries) {
    const check = entry._crawlspec.check ?? 'the run';
    const expectation = entry._crawlspec.expectation!;
    const request = outgoing(entry, run.target, options.baseUrl);
    const shown = { check, method: entry.request.method, url: request?.url ?? entry.request.url };
    if (request === undefined) {
      exchanges.push({ ...shown, state: 'not judged', failures: [], reason: `it was not sent to the recorded target ${run.target}` });
      continue;
    }
    const env: Env = {
      options,
      client,
      budget: new RequestBudget(PER_ENTRY),
      jobs,
      endpoints: new MissingEndpoints(),
      reserve: new Reserve(PER_ENTRY),
      transport: new Transport(),
    };
    const outcome = newOutcome();
    const attempt = new Attempt({ name: check, level: expectationLevel(expectation) }, env);
    heard.watch(request);
    await runAttempt(
      attempt,
      async (a) => {
        const start = startOf(options, request);
        const body = request.body;
        if (start === undefined || body === undefined) await a.call(request, expectation);
        else if (expectsRefusal(expectation))
          // The baseline: the smallest valid start of that kind, on the recorded run's site.
          await startRefused(a, start.version, start.kind, body, expectation, minimalRequest(start.kind, options.siteUrl), request.auth);
        else await a.start(start.version, start.kind, body, expectation, request.auth);
      },
      outcome,
    );
    const failures = attempt.failures.filter((f) => decides(f.level, options.level));
    const undecided = undecidedAt(outcome, options.level);
    // No answer, where the run's level does not count it a failure (an endpoint only the service defines, in a
    // run at interface level), is still no fix.
    const unanswered = heard.answered ? undefined : `it got no answer (${heard.missed ?? 'it was not sent'}): nothing shows it fixed`;
    exchanges.push(
      failures.length > 0
        ? { ...shown, state: 'still failing', failures }
        : undecided !== undefined || outcome.skipped !== undefined || unanswered !== undefined
          ? { ...shown, state: 'not judged', failures: [], reason: undecided?.reason ?? outcome.skipped ?? unanswered! }
          : { ...shown, state: 'fixed', failures: [] },
    );
  }
  client.close();
  const report: ReplayReport = {
    recorded: run,
    target: options.baseUrl,
    exchanges,
    notReplayed: run.notReplayable,
    notCancelled: jobs.all
      .filter((j) => j.state === 'notCancelled' || j.state === 'open')
      .map((j) => `${j.version} ${j.kind} ${JSON.stringify(j.id)}`),
    ...(client.unreachable !== undefined && client.answered === 0 ? { unreachable: client.unreachable } : {}),
  };
  return redact(report, runRedaction(options));
}

/**
 * 0 every failure replayed is fixed, 1 one still fails, 2 the target was never reached (as for a run), 3 none still
 * fails but one was not judged or not replayed.
 */
export function replayExitCode(report: ReplayReport): 0 | 1 | 2 | 3 {
  if (report.unreachable !== undefined) return 2;
  if (report.exchanges.some((e) => e.state === 'still failing')) return 1;
  return report.exchanges.some((e) => e.state === 'not judged') || report.notReplayed.length > 0 ? 3 : 0;
}

const LABEL: Record<ReplayState | 'not replayed', string> = {
  fixed: 'FIXED',
  'still failing': 'STILL FAILING',
  'not judged': 'NOT JUDGED',
  'not replayed': 'NOT REPLAYED',
};
const WIDTH = Math.max(...Object.values(LABEL).map((l) => l.length));
const line = (label: keyof typeof LABEL, text: string) => `${LABEL[label].padEnd(WIDTH)}  ${text}`;

const WHY: Record<NotReplayable['reason'], string> = {
  job: 'judged on a job the run started',
  whole: 'judged over a whole job or several exchanges',
};

/** The replay as text: one line per exchange (and what is still wrong), the failures not replayed, the count. */
export function formatReplay(report: ReplayReport, file: string): string {
  const { recorded } = report;
  const lines = [
    `crawlspec contract replay: ${report.exchanges.length} failing exchange${report.exchanges.length === 1 ? '' : 's'} of ${file} ` +
      `(recorded against ${recorded.target}, level ${recorded.level}), sent to ${report.target}`,
  ];
  for (const exchange of report.exchanges) {
    const path = new URL(exchange.url).pathname;
    lines.push(line(exchange.state, `${exchange.check}: ${exchange.method} ${path}`));
    for (const failure of exchange.failures) lines.push(...failureLines(failure).map((l) => `    ${l}`));
    if (exchange.reason !== undefined) lines.push(`    · ${exchange.reason}`);
  }
  for (const { check, reason, failures } of report.notReplayed) {
    lines.push(line('not replayed', `${check} (${WHY[reason]}: re-run it with --only ${check})`));
    for (const failure of failures) lines.push(`    ✗ ${failure.message} [${failure.section}]`);
  }
  if (report.notCancelled.length > 0)
    lines.push(`jobs a replayed start started and the replay could not cancel: ${report.notCancelled.join(', ')}`);
  const count = (state: ReplayState) => report.exchanges.filter((e) => e.state === state).length;
  const outcome = {
    0: 'all fixed',
    1: 'still failing',
    2: `target never reached (${report.unreachable ?? ''}): nothing was judged again`,
    3: 'incomplete: not everything was judged again',
  }[replayExitCode(report)];
  lines.push(
    `${count('fixed')} fixed, ${count('still failing')} still failing, ${count('not judged')} not judged, ` +
      `${report.notReplayed.length} check${report.notReplayed.length === 1 ? '' : 's'} not replayed: ${outcome}`,
  );
  return cutLines(lines.join('\n'));
}
