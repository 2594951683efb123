/**
 * Webhook checks (`vN.webhook.*`), all at service level: interface §6 says only that a crawl or a batch may carry
 * a webhook, and shows neither the events, nor their payload, nor how they are delivered or signed; what is held
 * here is the service's (facts §6.2). Each check starts one small job on the run's site whose webhook points at
 * an inbox of the run's receiver (webhookReceiver.ts: the one the kit runs on 127.0.0.1 for a loopback target,
 * or the user's, `--webhook-url`), follows the job to its end, then reads the inbox as deliveries come until
 * the final event and a page event for every page record are there, or DELIVERY_WAIT_MS (`--timeout` when
 * shorter) has passed since the end.
 *
 *   - `vN.webhook.crawl`, `vN.webhook.batch`: `<crawl|batch_scrape>.started` once and first, one `.page` per
 *     page record of the job (the record it is about; a page that fails has none), `.completed` once and last,
 *     in the order they arrived at the receiver; each a JSON body valid as the version's `WebhookEvent`, of the
 *     job (`id`), echoing the webhook's `metadata`, with the webhook's `headers` and `Content-Type:
 *     application/json`. The crawl's webhook gives no `events`, the batch's `events: []`: both mean every event
 *     (`[]` since 2026-05-08; it meant none before). No `failed` event is taken for a job that completed: the
 *     service never sent `crawl.failed`, no longer has it (2026-08-21) and has no `batch_scrape.failed`.
 *   - `vN.webhook.events`: a webhook with `events: ["page", "completed"]` gets those and no `.started` (the
 *     filter is on the event's last word).
 *   - `vN.webhook.signature`, with the secret the target signs with (`--webhook-secret`): every delivery
 *     carries `X-Firecrawl-Signature: sha256=<hex HMAC-SHA256 of its raw body>` (the service's of 2026, when
 *     the team has a secret; without one nothing is signed, so without the secret the check is left out).
 *
 * A failure shows the start request (a `curl` line: the job and its webhook, to start again) and, in its
 * message, the delivery it is about: the deliveries are not answers of the target, so there is no exchange to
 * replay. A receiver that cannot be read leaves the check inconclusive, saying why.
 */
import { createHmac } from 'node:crypto';
import { SIGNATURE_HEADER } from '../../../../schemas/codeRules/webhookHeaders.js';
import type { Version } from '../../../../schemas/registry.js';
import { simpleCheck, START, type Check } from '../../engine/check.js';
import type { Attempt, JobStatusBody } from '../../engine/context.js';
import { toCurl } from '../../wire/curl.js';
import { cut } from '../../wire/cut.js';
import { acceptance } from '../../engine/expect.js';
import type { Exchange } from '../../wire/http.js';
import { Inconclusive } from '../../engine/signals.js';
import { bodyProblems, type JobKind } from '../../spec/operations.js';
import { collectDeliveries, InboxReader, ReceiverUnreadable, RECEIVER_LIMITS, type Received } from '../../wire/webhookReceiver.js';
import { POLLS } from '../../engine/polls.js';
import { completedOf, LOST_RECORDS_CAUSE } from '../lifecycle/jobAccount.js';
import { waitForEnd } from '../../engine/follow.js';

type EventKind = 'started' | 'page' | 'completed';

/** The first word of a job's event types. */
const PREFIX: Record<JobKind, string> = { crawl: 'crawl', batch: 'batch_scrape' };
const NOUN: Record<JobKind, string> = { crawl: 'crawl', batch: 'batch' };

/** What the kit asks of a job's webhook, besides its address. */
interface Asked {
  readonly headers: Readonly<Record<string, string>>;
  readonly metadata: Readonly<Record<string, string>>;
  readonly events?: readonly EventKind[];
}

/** A delivery as judged: its place in the order of arrival (1-based), what came, and its body read as JSON. */
interface Delivery {
  readonly n: number;
  readonly received: Received;
  /** The body as a JSON object, or undefined when it is not one. */
  readonly event: Readonly<Record<string, unknown>> | undefined;
  /** The event's `type`, when it has one. */
  readonly type: string | undefined;
}

/** What a job's webhook was seen to deliver. */
interface Observed {
  readonly kind: JobKind;
  readonly jobId: string;
  /** The inbox the webhook pointed at. */
  readonly inbox: string;
  readonly start: Exchange;
  /** The page records of the job's status once it ended. */
  readonly records: readonly unknown[];
  /** How many records the job says it has (`completed`), when it says it as a whole number. */
  readonly completed: number | undefined;
  readonly deliveries: readonly Delivery[];
  /** How long the kit waited for the deliveries after the job ended, in seconds. */
  readonly waitedSeconds: number;
}

/** `1st`, `2nd`, `3rd`, `4th`, ..., `11th`, `21st`. */
function nth(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th')}`;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `1 of the 4 deliveries is`, `2 of the 4 deliveries are`. */
const someOf = (some: readonly unknown[], all: readonly unknown[]) =>
  `${some.length} of the ${plural(all.length, 'delivery', 'deliveries')} ${some.length === 1 ? 'is' : 'are'}`;

function asDelivery(received: Received, n: number): Delivery {
  let json: unknown;
  try {
    json = JSON.parse(received.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  const event = typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
  return { n, received, event, type: typeof event?.['type'] === 'string' ? event['type'] : undefined };
}

/**
 * Longest the kit waits for a job's deliveries once its status shows it ended (or `--timeout`, when shorter): the
 * service sends each event as it happens, and gives a delivery 10 s (facts §6.2).
 */
export const DELIVERY_WAIT_MS = 30_000;

/** A delivery in words: `the 2nd delivery (crawl.page)`. */
const named = (d: Delivery) => `the ${nth(d.n)} delivery (${d.type ?? 'no type'})`;

/** JSON with its object keys sorted: two values equal as JSON give the same text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );

/** A page record's address, as the job's status and a page event both give it. */
const sourceUrl = (record: unknown): string | undefined => {
  const metadata = (record as { metadata?: { sourceURL?: unknown } } | null)?.metadata;
  return typeof metadata?.sourceURL === 'string' ? metadata.sourceURL : undefined;
};

/**
 * Starts a small job of `kind` on the run's site whose webhook asks for `asked`, into the check's inbox; follows
 * it to its end; reads what its webhook delivered. Undefined when there is nothing to judge (the start refused,
 * the job not ended in time: recorded as failures or left undecided by what was sent).
 */
async function observe(attempt: Attempt, version: Version, kind: JobKind, asked: Asked): Promise<Observed | undefined> {
  const { webhookUrl, siteUrl, site, timeoutMs, maxResponseBytes } = attempt.options;
  // The run's checks do not run without a receiver (run.ts); this is for a check called otherwise.
  if (webhookUrl === undefined) throw new Inconclusive('no webhook receiver for the run (--webhook-url)', 'service');
  const reader = new InboxReader(`${webhookUrl}/${attempt.check}`, { timeoutMs, maxResponseBytes });
  const webhook = { url: reader.url, ...asked };
  const body =
    kind === 'crawl'
      ? { url: `${siteUrl}${site.pages[0]}`, limit: 2, webhook }
      : { urls: site.pages.slice(0, 2).map((p) => `${siteUrl}${p}`), webhook };
  const { exchange, ok, job } = await attempt.start(
    version,
    kind,
    { json: body },
    acceptance('service', `a ${NOUN[kind]} with a webhook`, 'service'),
  );
  if (!job) return undefined;
  try {
    const statusUrl = ok ? attempt.statusUrl(job, exchange) : undefined;
    if (statusUrl === undefined) return undefined;
    const ended: JobStatusBody | undefined = await waitForEnd(attempt, statusUrl);
    if (ended === undefined) return undefined;
    if (ended.status !== 'completed') {
      attempt.leaveUndecided(
        `the ${NOUN[kind]} ${ended.status === 'scraping' ? 'did not end in time' : `ended ${ended.status}`}, not completed: its events were not judged`,
      );
      return undefined;
    }
    const prefix = PREFIX[kind];
    const records = ended.data;
    const waitMs = Math.min(timeoutMs, DELIVERY_WAIT_MS);
    const deliveries: Delivery[] = [];
    // All there: the final event, and a page event for every page record (page events may come after it). Called
    // with every read, it keeps `deliveries` up to date with what came.
    const enough = (received: readonly Received[]) => {
      for (const r of received.slice(deliveries.length)) deliveries.push(asDelivery(r, deliveries.length + 1));
      const types = deliveries.map((d) => d.type);
      return types.includes(`${prefix}.completed`) && types.filter((t) => t === `${prefix}.page`).length >= records.length;
    };
    let collected;
    try {
      collected = await collectDeliveries(reader, enough, waitMs);
    } catch (error) {
      if (error instanceof ReceiverUnreadable)
        throw new Inconclusive(`the webhook receiver could not be read, so the deliveries were not judged: ${error.message}`, 'service');
      throw error;
    }
    if (collected.refused + collected.dropped > 0)
      attempt.leaveUndecided(
        `the receiver did not keep ${plural(collected.refused + collected.dropped, 'delivery', 'deliveries')} (${collected.refused} larger than ${RECEIVER_LIMITS.deliveryBytes} bytes, ${collected.dropped} past its bounds): not judged`,
        'service',
      );
    return {
      kind,
      jobId: job.id,
      inbox: reader.url,
      start: exchange,
      records,
      completed: completedOf(ended),
      deliveries,
      waitedSeconds: Math.round(waitMs / 1000),
    };
  } finally {
    // The job has ended (or is cancelled here); its inbox is no more use.
    await attempt.cancelQuietly(job);
    await reader.forget();
  }
}

/**
 * Records a webhook failure of `observed`'s job, with the start request (a `curl` line, to start the same job
 * again) and what came back: the delivery it is about (its body, and the receiver's 200), else the start's answer.
 */
function failOf(attempt: Attempt, observed: Observed) {
  return (message: string, expected: string, delivery?: Delivery) =>
    attempt.fail({
      kind: 'webhook',
      level: 'service',
      section: 'service',
      message,
      expected,
      ...(delivery === undefined
        ? { exchange: observed.start }
        : { request: toCurl(observed.start.request), got: { status: 200, body: delivery.received.body.toString('utf8') } }),
    });
}

/** Nothing came: the one failure said, for none of the rest can be judged. */
function nothingArrived(attempt: Attempt, observed: Observed): boolean {
  if (observed.deliveries.length > 0) return false;
  failOf(attempt, observed)(
    `no webhook delivery arrived at ${observed.inbox} within ${observed.waitedSeconds} s after the ${NOUN[observed.kind]} ended: the target sent none (or cannot reach the receiver, --webhook-url)`,
    `${PREFIX[observed.kind]}.started, a ${PREFIX[observed.kind]}.page per page and ${PREFIX[observed.kind]}.completed, POSTed to the webhook's url`,
  );
  return true;
}

/** Each delivery a JSON body valid as the version's WebhookEvent, of this job. */
function judgeBodies(attempt: Attempt, version: Version, observed: Observed): void {
  const wrong = observed.deliveries.flatMap((d) => {
    if (d.event === undefined) return [{ d, problems: [`its body is not a JSON object: ${cut(d.received.body.toString('utf8'), 120)}`] }];
    // Every problem is the service's here (the event is), whatever level its definition cites.
    const problems = bodyProblems(version, 'WebhookEvent', d.event)
      .all()
      .flatMap((group) => group.first)
      .map((p) => `${p.path}: ${p.message}`);
    if (d.event['id'] !== observed.jobId)
      problems.push(`id ${cut(JSON.stringify(d.event['id']) ?? 'absent', 80)} is not the ${NOUN[observed.kind]}'s`);
    return problems.length === 0 ? [] : [{ d, problems }];
  });
  const first = wrong[0];
  if (first !== undefined)
    failOf(attempt, observed)(
      `${someOf(wrong, observed.deliveries)} not a valid ${version}/WebhookEvent of the ${NOUN[observed.kind]} ${observed.jobId}: ${named(first.d)}: ${first.problems.slice(0, 3).join('; ')}`,
      `each delivery a JSON body valid as ${version}/WebhookEvent ({success, type, id, data, metadata}), its id the ${NOUN[observed.kind]}'s`,
      first.d,
    );
}

/** Each delivery echoes the webhook's metadata, as sent. */
function judgeMetadata(attempt: Attempt, observed: Observed, asked: Asked): void {
  const wanted = canonical(asked.metadata);
  const wrong = observed.deliveries.filter((d) => d.event !== undefined && canonical(d.event['metadata']) !== wanted);
  const first = wrong[0];
  if (first !== undefined)
    failOf(attempt, observed)(
      `${someOf(wrong, observed.deliveries)} without the webhook's metadata: ${named(first)} has metadata ${cut(JSON.stringify(first.event?.['metadata']) ?? 'absent', 200)}`,
      `metadata ${JSON.stringify(asked.metadata)} in every delivery, as the webhook gave it`,
      first,
    );
}

/** Each delivery carries the webhook's headers, and says its body is JSON. */
function judgeHeaders(attempt: Attempt, observed: Observed, asked: Asked): void {
  const problems = (d: Delivery): string[] => [
    ...Object.entries(asked.headers)
      .filter(([name, value]) => d.received.headers[name.toLowerCase()] !== value)
      .map(([name]) => `${name} is ${JSON.stringify(d.received.headers[name.toLowerCase()] ?? null)}`),
    ...(/^application\/json\s*(;|$)/i.test(d.received.headers['content-type'] ?? '')
      ? []
      : [`Content-Type is ${JSON.stringify(d.received.headers['content-type'] ?? null)}`]),
  ];
  const wrong = observed.deliveries.filter((d) => problems(d).length > 0);
  const first = wrong[0];
  if (first !== undefined)
    failOf(attempt, observed)(
      `${someOf(wrong, observed.deliveries)} without the webhook's headers: in ${named(first)}, ${problems(first).join(', ')}`,
      `every delivery with the webhook's headers (${Object.entries(asked.headers)
        .map(([n, v]) => `${n}: ${v}`)
        .join(', ')}) and Content-Type: application/json`,
      first,
    );
}

/**
 * The events in the order they came: `.started` once and first, a `.page` per page record (the record it is
 * about), `.completed` once and last, and nothing else.
 */
function judgeOrder(attempt: Attempt, observed: Observed): void {
  const fail = failOf(attempt, observed);
  const prefix = PREFIX[observed.kind];
  const noun = NOUN[observed.kind];
  const typed = observed.deliveries.filter((d) => d.type !== undefined);
  const of = (kind: EventKind) => typed.filter((d) => d.type === `${prefix}.${kind}`);
  const others = typed.filter((d) => !['started', 'page', 'completed'].some((k) => d.type === `${prefix}.${k}`));
  if (others[0] !== undefined)
    fail(
      `${plural(others.length, 'delivery', 'deliveries')} of an event a ${noun} that completed does not send: ${others
        .slice(0, 3)
        .map(named)
        .join(', ')}`,
      `only ${prefix}.started, ${prefix}.page and ${prefix}.completed (the service sends no failed event)`,
      others[0],
    );
  const [started, ...moreStarted] = of('started');
  if (started === undefined) fail(`no ${prefix}.started arrived`, `${prefix}.started once, the first delivery`);
  else if (moreStarted.length > 0)
    fail(`${prefix}.started arrived ${moreStarted.length + 1} times`, `${prefix}.started once, the first delivery`, moreStarted[0]);
  else if (started !== typed[0])
    fail(
      `${prefix}.started arrived as the ${nth(started.n)} delivery, after ${typed
        .slice(0, typed.indexOf(started))
        .map((d) => d.type)
        .join(', ')}: out of order`,
      `${prefix}.started once, the first delivery`,
      started,
    );
  const [completed, ...moreCompleted] = of('completed');
  if (completed === undefined)
    fail(
      `no ${prefix}.completed arrived within ${observed.waitedSeconds} s after the ${noun} ended`,
      `${prefix}.completed once, the last delivery`,
    );
  else if (moreCompleted.length > 0)
    fail(`${prefix}.completed arrived ${moreCompleted.length + 1} times`, `${prefix}.completed once, the last delivery`, moreCompleted[0]);
  else if (completed !== typed[typed.length - 1]) {
    const after = typed.slice(typed.indexOf(completed) + 1);
    fail(
      `${plural(after.length, 'delivery', 'deliveries')} arrived after ${prefix}.completed (${after.map((d) => d.type).join(', ')}): out of order`,
      `${prefix}.completed once, the last delivery`,
      after[0],
    );
  }
  const pages = of('page');
  const data = (d: Delivery) => d.event?.['data'];
  const notOne = pages.filter((d) => !Array.isArray(data(d)) || (data(d) as unknown[]).length !== 1);
  if (notOne[0] !== undefined)
    fail(
      `${named(notOne[0])} holds ${Array.isArray(data(notOne[0])) ? plural((data(notOne[0]) as unknown[]).length, 'record') : 'no data array'}`,
      `each ${prefix}.page with the one page record it is about in data`,
      notOne[0],
    );
  const seen = pages.map((d) => sourceUrl((data(d) as unknown[] | undefined)?.[0]));
  const records = observed.records.map(sourceUrl);
  const missing = [...records];
  const extra: (string | undefined)[] = [];
  for (const url of seen) {
    const at = missing.indexOf(url);
    if (at === -1) extra.push(url);
    else missing.splice(at, 1);
  }
  // Page events for pages the status lacks, no more than the records the job lost (it counts more than it delivered):
  // those records' events, not the webhook's fault (jobAccount.ts).
  const lost = (observed.completed ?? 0) - records.length;
  if (missing.length === 0 && extra.length > 0 && extra.length <= lost) {
    attempt.leaveUndecided(
      `${plural(extra.length, `${prefix}.page event`)} for pages the ${noun}'s status lacks, which says completed ${observed.completed} and holds ${plural(records.length, 'page record')}: the events of its lost records, so the page events were not judged`,
      'service',
      false,
      LOST_RECORDS_CAUSE,
    );
    return;
  }
  if (missing.length > 0 || extra.length > 0) {
    const list = (urls: (string | undefined)[]) => urls.map((u) => u ?? '(no sourceURL)').join(', ');
    fail(
      `${plural(pages.length, `${prefix}.page event`)} for ${plural(records.length, 'page record')} of the ${noun}${missing.length > 0 ? `; none for ${list(missing)}` : ''}${extra.length > 0 ? `; one more for ${list(extra)}` : ''}`,
      `one ${prefix}.page per page record of the ${noun} (its metadata.sourceURL), none for a page that failed`,
    );
  }
}

/** The webhook asked of a check: its name as a header and in the metadata, so that each delivery shows whose it is. */
const askedOf = (attempt: Attempt, events?: readonly EventKind[]): Asked => ({
  headers: { 'X-Crawlspec-Check': attempt.check },
  metadata: { check: attempt.check, seed: String(attempt.options.seed) },
  ...(events === undefined ? {} : { events }),
});

const COST = START + POLLS;

function eventsCheck(version: Version, kind: JobKind): Check {
  const prefix = PREFIX[kind];
  return simpleCheck(
    {
      name: `${version}.webhook.${kind}`,
      level: 'service',
      proves: `A ${version} ${NOUN[kind]} with a webhook (${kind === 'batch' ? 'events: [], every event' : 'no events, every event'}) delivers ${prefix}.started first, one ${prefix}.page per page record and ${prefix}.completed last, each a valid WebhookEvent of the ${NOUN[kind]} echoing the webhook's metadata, with its headers.`,
      cites: [
        {
          source: 'service',
          names: ['webhook', `${prefix}.started`, `${prefix}.page`, `${prefix}.completed`, 'WebhookEvent', 'metadata', 'headers'],
        },
      ],
      startsJob: true,
      webhook: 'events',
      cost: COST,
    },
    async (attempt) => {
      // An empty events list asks for every event, as no list does (the service since 2026-05-08).
      const asked = askedOf(attempt, kind === 'batch' ? [] : undefined);
      const observed = await observe(attempt, version, kind, asked);
      if (observed === undefined || nothingArrived(attempt, observed)) return;
      judgeBodies(attempt, version, observed);
      judgeMetadata(attempt, observed, asked);
      judgeHeaders(attempt, observed, asked);
      judgeOrder(attempt, observed);
    },
  );
}

/** The events a filter check asks for: `started` is left out, so that a filter ignored shows. */
const FILTER: readonly EventKind[] = ['page', 'completed'];

function filterCheck(version: Version): Check {
  const prefix = PREFIX.batch;
  return simpleCheck(
    {
      name: `${version}.webhook.events`,
      level: 'service',
      proves: `A ${version} batch whose webhook asks for events ["page", "completed"] gets ${prefix}.page and ${prefix}.completed deliveries and no ${prefix}.started.`,
      cites: [{ source: 'service', names: ['webhook', 'events', `${prefix}.started`, `${prefix}.page`, `${prefix}.completed`] }],
      startsJob: true,
      webhook: 'events',
      cost: COST,
    },
    async (attempt) => {
      const observed = await observe(attempt, version, 'batch', askedOf(attempt, FILTER));
      if (observed === undefined || nothingArrived(attempt, observed)) return;
      const fail = failOf(attempt, observed);
      const untyped = observed.deliveries.filter((d) => d.type === undefined);
      if (untyped[0] !== undefined) attempt.leaveUndecided(`${named(untyped[0])} has no type: which event it is was not judged`, 'service');
      const types = observed.deliveries.map((d) => d.type);
      const unasked = observed.deliveries.filter((d) => d.type !== undefined && !FILTER.some((k) => d.type === `${prefix}.${k}`));
      if (unasked[0] !== undefined)
        fail(
          `${plural(unasked.length, 'delivery', 'deliveries')} of an event the webhook did not ask for (events: ${JSON.stringify(FILTER)}): ${unasked
            .slice(0, 3)
            .map(named)
            .join(', ')}`,
          `only the events the webhook's events names: ${FILTER.map((k) => `${prefix}.${k}`).join(', ')}`,
          unasked[0],
        );
      for (const kind of FILTER)
        if (!types.includes(`${prefix}.${kind}`) && (kind !== 'page' || observed.records.length > 0))
          fail(
            `no ${prefix}.${kind} arrived although the webhook's events asks for it`,
            `the events the webhook's events names: ${FILTER.map((k) => `${prefix}.${k}`).join(', ')}`,
          );
    },
  );
}

function signatureCheck(version: Version): Check {
  return simpleCheck(
    {
      name: `${version}.webhook.signature`,
      level: 'service',
      proves: `Every delivery of a ${version} batch's webhook carries ${SIGNATURE_HEADER}: sha256= and the hex HMAC-SHA256 of its body with the secret the target signs with (--webhook-secret).`,
      cites: [{ source: 'service', names: ['webhook', SIGNATURE_HEADER, 'HMAC-SHA256'] }],
      startsJob: true,
      webhook: 'signature',
      cost: COST,
    },
    async (attempt) => {
      const secret = attempt.options.webhookSecret;
      if (secret === undefined) throw new Inconclusive('no webhook secret (--webhook-secret): the signature was not verified', 'service');
      const observed = await observe(attempt, version, 'batch', askedOf(attempt));
      if (observed === undefined) return;
      if (observed.deliveries.length === 0) {
        attempt.leaveUndecided('no webhook delivery arrived, so no signature was verified', 'service');
        return;
      }
      const header = SIGNATURE_HEADER.toLowerCase();
      const unsigned = observed.deliveries.filter((d) => d.received.headers[header] === undefined);
      const wrong = observed.deliveries.filter((d) => {
        const given = d.received.headers[header];
        return (
          given !== undefined && given.toLowerCase() !== `sha256=${createHmac('sha256', secret).update(d.received.body).digest('hex')}`
        );
      });
      const fail = failOf(attempt, observed);
      const expected = `${SIGNATURE_HEADER}: sha256=<the hex HMAC-SHA256 of the delivery's raw body with the secret given> on every delivery`;
      if (unsigned[0] !== undefined)
        fail(`${someOf(unsigned, observed.deliveries)} without ${SIGNATURE_HEADER}: ${named(unsigned[0])}`, expected, unsigned[0]);
      if (wrong[0] !== undefined)
        fail(
          `${someOf(wrong, observed.deliveries)} signed wrongly, with a ${SIGNATURE_HEADER} that is not the body's HMAC-SHA256 with the secret given: ${named(wrong[0])} has ${JSON.stringify(cut(wrong[0].received.headers[header] ?? '', 90))}`,
          expected,
          wrong[0],
        );
    },
  );
}

export function webhookChecks(version: Version): Check[] {
  return [eventsCheck(version, 'crawl'), eventsCheck(version, 'batch'), filterCheck(version), signatureCheck(version)];
}
