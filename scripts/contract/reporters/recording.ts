/**
 * Recording a contract run (`--record FILE`) as HAR 1.2 (har.ts): a listener of the run's events
 * (engine/events.ts). The run tells it of every exchange, with the check that sent it, and of every answer a check
 * held against an expectation and found failing (`judged`).
 *
 * A check's entries are kept until the check ends: only then is it known which of its failures the run reports
 * (a generated check shrinks a failure through many failing requests, and reports the smallest), and so which
 * entries to mark `failed`, with their expectation. Then they are written and let go, so that the recording
 * holds in memory the entries of the checks running, each answer's text cut at TEXT_LIMIT. The failures the run
 * reports that no single exchange shows are listed in the log's `_crawlspec.notReplayable`.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { packageVersion } from '../../cli/version.js';
import type { RunListener } from '../engine/events.js';
import type { Expectation } from '../spec/expectation.js';
import {
  harEntry,
  harHead,
  harTail,
  type EntryMark,
  type HarEntry,
  type NotReplayable,
  type RecordedAuth,
  type RecordedFailure,
  type RunMark,
} from './har.js';
import type { Exchange, ExchangeRecord, SentRequest } from '../wire/http.js';
import { decides } from '../spec/levels.js';
import type { ResolvedOptions } from '../engine/options.js';
import { redact, redactor, runRedaction, type Redaction } from '../wire/redact.js';
import { verdict, type CheckResult, type ContractReport, type Failure } from '../report/report.js';

/** The recording could not be written: the file's fault (a full disk, a file taken away), not the kit's. */
export class RecordingFailed extends Error {
  constructor(
    readonly path: string,
    reason: string,
  ) {
    super(`cannot write the recording to ${path}: ${reason}`);
    this.name = 'RecordingFailed';
  }
}

/** An exchange not yet written. */
interface Pending {
  readonly record: ExchangeRecord;
  readonly check: string | null;
}

/** What a check sent, while it runs. */
interface Scope {
  readonly check: string | null;
  readonly entries: Pending[];
  /** Each failure met on an answer (by `failureKey`), with the answer's entry and the expectation it broke. */
  readonly failing: Map<string, { readonly entry: Pending; readonly expectation: Expectation; readonly failure: Failure }>;
}

/**
 * A failure as the run reports it, without what the report adds to it (a generated check's counterexample, how
 * many of its class there were): the failure met on an exchange and its reported copy share it.
 */
const failureKey = (f: Failure) =>
  JSON.stringify([f.check, f.kind, f.level, f.section, f.message, f.request ?? null, f.got?.status ?? null, f.got?.body ?? null]);

const said = (f: Failure): RecordedFailure => ({ level: f.level, section: f.section, message: f.message });

const newScope = (check: string | null): Scope => ({ check, entries: [], failing: new Map() });

/** The job id a 2xx start answer gives (a number taken as its digits, as the kit does), if any. */
function startedId(text: string | undefined): string | undefined {
  try {
    const id = (JSON.parse(text ?? 'null') as { id?: unknown } | null)?.id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}

/** A start endpoint's path (spec/operations.ts KIND_PATH below a version). */
const START_PATH = /\/v[12](?:\/crawl|\/batch\/scrape)$/;

/** The recording of a run to `path`: opened (truncated) as the run starts, closed with its verdict as it ends. */
export class Recording implements RunListener {
  /** What each check running sent, by its name. */
  private readonly scopes = new Map<string, Scope>();
  /** The run's own requests, outside any check (e.g. the cancels at its end). */
  private readonly outside = newScope(null);
  /** The entry last recorded for each request still held (a retry answers the same request again). */
  private readonly latest = new Map<SentRequest, Pending>();
  /** Ids of the jobs the run started: a request on one of them does not stand alone. */
  private readonly jobIds = new Set<string>();
  private readonly notReplayable: NotReplayable[] = [];
  private writing: Promise<void> = Promise.resolve();
  private first = true;
  private failure: string | undefined;
  private file: FileHandle | undefined;
  private options: ResolvedOptions | undefined;
  /** The token and the `--header` values, cleaned from everything written. */
  private redaction: Redaction = { secrets: [] };
  private clean: (text: string) => string = (text) => text;

  constructor(private readonly path: string) {}

  /** Opens (truncates) the file for the run of `options`: before anything is sent, so that a file that cannot be written stops the run. */
  async runStarted(options: ResolvedOptions): Promise<void> {
    this.file = await open(this.path, 'w').catch((error: unknown) => {
      throw new RecordingFailed(this.path, (error as Error).message);
    });
    this.options = options;
    this.redaction = runRedaction(options);
    this.clean = redactor(this.redaction);
    this.write(harHead(packageVersion()));
  }

  checkStarted(check: string): void {
    this.scopes.set(check, newScope(check));
  }

  /** Every request that went out, kept with what its check sent until the check ends. */
  exchange(record: ExchangeRecord, check: string | null): void {
    const scope = (check === null ? undefined : this.scopes.get(check)) ?? this.outside;
    const entry: Pending = { record, check: scope.check };
    scope.entries.push(entry);
    this.latest.set(record.request, entry);
    if (record.request.method === 'POST' && START_PATH.test(new URL(record.request.url).pathname) && record.response?.ok === true) {
      const id = startedId(record.text);
      if (id !== undefined) this.jobIds.add(id);
    }
  }

  /** An attempt of `check` held `exchange` against `expectation` and recorded `failures`. */
  judged(exchange: Exchange, expectation: Expectation, failures: readonly Failure[], check: string): void {
    const entry = this.latest.get(exchange.request);
    const scope = this.scopes.get(check);
    if (entry === undefined || scope === undefined) return;
    for (const failure of failures) scope.failing.set(failureKey(failure), { entry, expectation, failure });
  }

  /**
   * A check has ended: its entries are marked and written. An exchange is marked failed when a failure met on it
   * decides at the run's level and is in the report: for a generated check, the minimal counterexample of each
   * class (the requests met while shrinking are not); for any other, every one (the report may fold a class of
   * them into one, with a count, but each happened).
   */
  checkEnded(result: CheckResult): void {
    const name = result.name;
    const scope = this.scopes.get(name);
    if (scope === undefined || this.options === undefined) return;
    this.scopes.delete(name);
    const exact = new Set(result.failures.map(failureKey));
    const generated = result.failures.some((f) => f.counterexample !== undefined);
    const reported = new Map<Pending, { expectation: Expectation; failures: Failure[] }>();
    const seen = new Set<string>();
    for (const [key, { entry, expectation, failure }] of scope.failing) {
      if (result.failures.length === 0 || !decides(failure.level, this.options.level) || (generated && !exact.has(key))) continue;
      seen.add(key);
      const marks = reported.get(entry) ?? { expectation, failures: [] };
      marks.failures.push(failure);
      reported.set(entry, marks);
    }
    const onJobs: Failure[] = [];
    const marks = new Map<Pending, EntryMark>();
    for (const [entry, { expectation, failures }] of reported) {
      const alone = this.standsAlone(entry.record.request);
      if (!alone) onJobs.push(...failures);
      marks.set(entry, { ...this.unmarked(entry), failed: true, replay: alone, expectation, failures: failures.map(said) });
    }
    const unseen = result.failures.filter((f) => !seen.has(failureKey(f)));
    if (onJobs.length > 0) this.notReplayable.push({ check: name, reason: 'job', failures: onJobs.map(said) });
    if (unseen.length > 0) this.notReplayable.push({ check: name, reason: 'whole', failures: unseen.map(said) });
    this.flush(scope, marks);
  }

  /**
   * Writes what is left (all of it when the run failed) and the run's mark, and closes the file. Throws
   * RecordingFailed when any of the recording could not be written.
   */
  async runEnded(report: ContractReport | undefined): Promise<void> {
    const o = this.options;
    if (this.file === undefined || o === undefined) return;
    for (const scope of this.scopes.values()) this.flush(scope, new Map());
    this.scopes.clear();
    this.flush(this.outside, new Map());
    const run: RunMark = {
      target: o.baseUrl,
      level: o.level,
      versions: [...o.versions],
      siteUrl: o.siteUrl,
      maxResponseBytes: o.maxResponseBytes,
      ...(report === undefined ? {} : { verdict: verdict(report) }),
      notReplayable: this.notReplayable,
    };
    this.write(harTail(redact(run, this.redaction)));
    await this.writing;
    await this.file.close().catch((error: unknown) => (this.failure ??= (error as Error).message));
    this.file = undefined;
    if (this.failure !== undefined) throw new RecordingFailed(this.path, this.failure);
  }

  /** Whether `request` can be sent again on its own: it addresses no job the run started. */
  private standsAlone(request: SentRequest): boolean {
    const segments = new URL(request.url).pathname.split('/').map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        return s;
      }
    });
    return !segments.some((s) => this.jobIds.has(s));
  }

  private unmarked(entry: Pending): EntryMark {
    const authorization = entry.record.request.headers['Authorization'];
    const auth: RecordedAuth =
      authorization === undefined
        ? 'none'
        : this.options?.token !== undefined && authorization === `Bearer ${this.options.token}`
          ? 'token'
          : 'other';
    return { check: entry.check, auth, failed: false };
  }

  /** Writes the entries of `scope`, each with its mark (`marks`, else unmarked), and lets them go. */
  private flush(scope: Scope, marks: ReadonlyMap<Pending, EntryMark>): void {
    if (scope.entries.length === 0) return;
    const entries = scope.entries.map((entry): HarEntry => {
      if (this.latest.get(entry.record.request) === entry) this.latest.delete(entry.record.request);
      return harEntry(entry.record, marks.get(entry) ?? this.unmarked(entry), this.clean);
    });
    scope.entries.length = 0;
    const text = redact(entries, this.redaction)
      .map((entry) => JSON.stringify(entry))
      .join(',\n');
    this.write(this.first ? text : `,\n${text}`);
    this.first = false;
  }

  /** Appends `text`, in order; the first error is kept for `close`. */
  private write(text: string): void {
    this.writing = this.writing.then(async () => {
      if (this.failure !== undefined) return;
      await this.file?.write(text).catch((error: unknown) => (this.failure = (error as Error).message));
    });
  }
}
