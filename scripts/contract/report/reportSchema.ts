/**
 * The contract report, defined once, in TypeBox: the types of report.ts are inferred from these definitions,
 * and `npm run generate` writes the JSON Schema of the `--json` output from them
 * (generated/contract/report.schema.json, exported as `crawlspec/contract/report.schema.json`). Every object is
 * closed (no property it does not define), so a field added to the report and not here fails `tsc` where the
 * report is built, and fails the test that validates real runs against the schema.
 *
 * To add a field to the report: add it here, with a description; report.ts picks it up.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { VERSIONS } from '../../../schemas/versions.js';
import { LEVELS } from '../spec/levels.js';
import { CoverageSchema } from '../../coverage/schema.js';
import { KnownSchema } from './knownSchema.js';

const closed = { additionalProperties: false } as const;
const count = (description: string) => Type.Integer({ minimum: 0, description });
const oneOf = <T extends readonly string[]>(values: T, description: string) =>
  Type.Union(
    values.map((value) => Type.Literal(value as T[number])),
    { description },
  );

/** What a check reports (see CheckStatus in report.ts). */
export const CHECK_STATUSES = ['pass', 'fail', 'inconclusive', 'skipped', 'differs', 'notJudged'] as const;

export const FAILURE_KINDS = [
  'status',
  'serverError',
  'undocumentedStatus',
  'unknownOperation',
  'body',
  'invalidURLs',
  'jobUrl',
  'jobId',
  'pagination',
  'cancel',
  'active',
  'crawl',
  'webhook',
  'scrape',
  'network',
  'notImplemented',
] as const;

export const VERDICTS = [
  'conformant',
  'known deviations only',
  'deviations found',
  'known deviations out of date',
  'unreachable',
  'incomplete',
] as const;

const level = (description: string) =>
  oneOf(
    LEVELS,
    `${description}: \`interface\` (the interface document states it) or \`service\` (the public service fills a gap the interface leaves).`,
  );

export const FailureSchema = Type.Object(
  {
    check: Type.String({ description: 'The check that found it.' }),
    kind: oneOf(FAILURE_KINDS, 'What kind of deviation it is.'),
    level: level('The level of the expectation that failed'),
    message: Type.String({ description: 'What went wrong, in a sentence.' }),
    request: Type.Optional(
      Type.String({
        description:
          'The request, as a runnable `curl` line (token redacted as `***`); whole up to 65536 bytes, where the text report cuts it; a longer one is cut, ending "... N bytes more" (no longer runnable).',
      }),
    ),
    got: Type.Optional(
      Type.Object(
        {
          status: Type.Union([Type.Integer(), Type.Null()], { description: 'The status; null when no answer came.' }),
          body: Type.String({ description: 'The body, cut after 600 bytes with "... N bytes more".' }),
        },
        { ...closed, description: 'What came back.' },
      ),
    ),
    expected: Type.String({ description: 'What was expected.' }),
    section: Type.String({ description: 'Where that expectation comes from: `interface §2.4`, `service`, or HTTP for a 5xx.' }),
    sectionUrl: Type.Optional(
      Type.String({
        description:
          'Where `section` is told: its part of the reference the package ships, by its path from the package root (`generated/spec/reference.html#s2-4`, `…#service`). Absent for a citation that is no part of it (HTTP).',
      }),
    ),
    cause: Type.Optional(
      Type.String({
        description:
          'The fault that caused it, in the same words wherever it was met (an endpoint not implemented, a record lost, a page the target failed): the report groups failures by it (`causes`). Absent: the failure is its own cause.',
      }),
    ),
    counterexample: Type.Optional(
      Type.Object(
        { seed: Type.Integer(), path: Type.String(), shrinks: count('How many times it was shrunk.') },
        { ...closed, description: 'For a generated request: the minimal (shrunk) counterexample of its class and how to replay it.' },
      ),
    ),
    count: Type.Optional(
      Type.Integer({
        minimum: 2,
        description:
          'How many failures of this class the check found (same level, kind, section, status, and message, expectation and answer up to the request specifics), when more than one: this entry stands for them all and shows the smallest request.',
      }),
    ),
  },
  { ...closed, description: 'A deviation found, with what is needed to reproduce it.' },
);

/** Most addresses a crawl graph lists that are not pages of the test site (returned all the same). */
export const CRAWL_GRAPH_MAX_STRAYS = 50;

export const CrawlGraphSchema = Type.Object(
  {
    title: Type.String({ description: 'The crawl, as the check names it, e.g. `limit 3`.' }),
    start: Type.String({ description: 'The address the crawl started from.' }),
    pages: Type.Array(
      Type.Object(
        {
          url: Type.String(),
          expected: oneOf(['must', 'may', 'mustNot'] as const, "What the crawl oracle expects of the page at the run's level."),
          returned: Type.Boolean({ description: 'Whether the target returned it.' }),
          problem: Type.Optional(
            oneOf(
              ['missing', 'extra'] as const,
              "What the crawl's judge found wrong with the page at the run's level or below, if anything.",
            ),
          ),
        },
        closed,
      ),
      { description: 'Every page of the test site.' },
    ),
    // Pairs as arrays of two: TypeBox's Tuple writes `items` as a list, which JSON Schema 2020-12 (the report schema's dialect) does not have.
    links: Type.Array(Type.Array(Type.Integer({ minimum: 0 }), { minItems: 2, maxItems: 2 }), {
      description: 'The links between them: indexes into `pages`, from and to.',
    }),
    strays: Type.Array(Type.String(), {
      maxItems: CRAWL_GRAPH_MAX_STRAYS,
      description: `Addresses returned that are no page of the test site (the first ${CRAWL_GRAPH_MAX_STRAYS}).`,
    }),
    strayCount: count('How many addresses returned are no page of the test site.'),
  },
  {
    ...closed,
    description: 'One crawl of a behaviour check, for a picture: the test site, what was expected of each page, what came back.',
  },
);

export const CheckResultSchema = Type.Object(
  {
    name: Type.String({ description: 'Stable dotted name, e.g. `v2.crawl.start.valid`.' }),
    level: level('The lowest level of the expectations the check holds (it is in scope from that level on)'),
    inScope: Type.Boolean({ description: "Whether the check decides the verdict at the run's level." }),
    status: oneOf(
      CHECK_STATUSES,
      "In scope: `pass` (what it proves was observed), `fail`, `inconclusive` (something it rests on could not be judged), `skipped`. Above the run's level (informs, does not decide): `pass`, `differs` (differs from the service), `notJudged`, `skipped`.",
    ),
    failures: Type.Array(FailureSchema, { description: "Failures at the run's level or below, repeated ones collapsed (see `count`)." }),
    differences: Type.Array(FailureSchema, { description: "Failures above the run's level: where the target differs from the service." }),
    detail: Type.Optional(Type.String({ description: 'Why the check was skipped, inconclusive or not judged.' })),
    cause: Type.Optional(
      Type.String({
        description:
          'For an inconclusive (or not judged) check: the fault it rests on, in the words of the failures that fault caused (`causes`).',
      }),
    ),
    notes: Type.Optional(
      Type.Array(Type.String(), { description: "What the check could not judge above the run's level: it decides nothing." }),
    ),
    confirmations: Type.Optional(
      Type.Object(
        {
          runs: Type.Integer({ minimum: 1, description: 'Runs of the check that reached a verdict (pass or fail), the first included.' }),
          failed: Type.Integer({ minimum: 1, description: 'The runs among them that failed: fewer than `runs` means a flaky target.' }),
        },
        { ...closed, description: 'For a failing crawl-behaviour check run again (`--confirm N`): in how many of its runs it failed.' },
      ),
    ),
    crawls: Type.Optional(
      Type.Array(CrawlGraphSchema, { description: 'For a crawl-behaviour check: each crawl it judged, as a graph of the test site.' }),
    ),
    drawn: Type.Optional(
      Type.Literal(true, {
        description:
          'The check draws the bodies it sends from the seed (`seed`, `runs`): a case it did not meet may just not have been drawn in this run.',
      }),
    ),
    requests: count('Requests the check sent.'),
    digest: Type.String({
      pattern: '^([0-9a-f]{64})?$',
      description:
        'SHA-256 of the request bodies the check sent, in order (empty when it did not run): the same seed gives the same digest.',
    }),
    durationMs: count('How long the check ran, in milliseconds.'),
  },
  { ...closed, description: 'One check: its verdict and what it found.' },
);

export const NotImplementedSchema = Type.Object(
  {
    method: Type.String({ description: 'e.g. `POST`.' }),
    path: Type.String({ description: "The operation's path, e.g. `/v2/batch/scrape/{id}`." }),
    source: Type.String({ description: 'Where the operation comes from: `interface §4` or `service`.' }),
    statuses: Type.Array(Type.Integer(), { description: 'The statuses it answered (404, 405, 501).' }),
    requests: count('How many requests got that answer.'),
    checks: Type.Array(Type.String(), { description: 'The checks those requests belonged to.' }),
  },
  { ...closed, description: 'An operation the interface or the service defines that the target answered as not there (404, 405, 501).' },
);

export const DiagnosisSchema = Type.Object(
  {
    site: Type.String({ description: "The site the target cannot use; for credentials it refuses, the target's own address." }),
    summary: Type.String({ description: 'What is wrong, in a few words, e.g. `the target refuses http://127.0.0.1:4000`.' }),
    problem: Type.String({
      description: 'What the preflight sent and got that shows it (statuses, error text, the control on https://example.com).',
    }),
    fix: Type.String({
      description:
        'How to give the target a site it can use (or leave out what rests on it), or the credentials it expects (the flags that give them).',
    }),
    checks: count(
      "The checks of the run's scope left inconclusive (not run) because they rest on it (those above the run's level it kept from running are not counted: they decide nothing).",
    ),
  },
  {
    ...closed,
    description:
      'A site the preflight found the target cannot use (it refuses it, or cannot reach it), or credentials it refuses (every start refused with 401 or 403, whatever its site), and the fix.',
  },
);

export const CauseSchema = Type.Object(
  {
    cause: Type.String({
      description: "The fault, in a sentence: a failure's `cause`, or, for a failure naming none, its check and message.",
    }),
    level: level('The lowest level of the failures it caused'),
    failures: count('The failures it caused, over all checks (collapsed ones counted as many as they stand for).'),
    failed: Type.Array(Type.String(), { description: 'The checks it made fail.' }),
    resting: Type.Array(Type.String(), {
      description: 'The checks left inconclusive (or not judged) because they rest on it: they say so instead of failing for it.',
    }),
  },
  { ...closed, description: 'One fault of the target, and every check it shows in.' },
);

/** The report's own properties (what `runContract` returns). */
const reportProperties = {
  target: Type.String({ description: 'The base address tested.' }),
  level: level('The level the run was made at (the expectations of that level and below decide)'),
  versions: Type.Array(oneOf(VERSIONS, 'A version of the interface.')),
  seed: Type.Integer({ description: 'The fast-check seed: the same seed sends the same request bodies.' }),
  runs: Type.Integer({ minimum: 1, description: 'Generated requests per generated check.' }),
  maxRequests: count('The request budget of the run (by default what every check needs), shared among the checks.'),
  checks: Type.Array(CheckResultSchema, {
    description: 'Every check of the run, in order (those `--only` left out too: skipped, out of scope).',
  }),
  causes: Type.Array(CauseSchema, {
    description:
      "The faults behind the failures at the run's level, most checks first: a fault met by many checks (an endpoint not implemented, a record lost) is one entry.",
  }),
  notImplemented: Type.Array(NotImplementedSchema, { description: 'The operations the target answered as not there, first met first.' }),
  diagnoses: Type.Array(DiagnosisSchema, {
    description:
      'The sites the target cannot use, found by the preflight before the suite: the checks resting on them were not run (inconclusive).',
  }),
  requests: count('Requests sent (retries included).'),
  durationMs: count('How long the run took, in milliseconds.'),
  requestsPerSecond: Type.Number({ minimum: 0 }),
  unreachable: Type.Boolean({ description: 'The target never answered.' }),
  unreachableReason: Type.Optional(
    Type.String({ description: 'Why it could not be reached: from the start, or since some point in the run.' }),
  ),
  jobs: Type.Object(
    {
      started: count('Jobs the run started.'),
      cancelled: count('Jobs it cancelled (or found completed).'),
      notCancelled: Type.Array(Type.String(), { description: 'The jobs it could not cancel: version, kind and id.' }),
      mayHaveStarted: Type.Optional(
        Type.Array(Type.String(), {
          description:
            'Starts whose connection was lost after they may have started a job the kit could not find to cancel (a batch: there is no list of batch jobs): version, kind, check and why. Absent when there is none.',
        }),
      ),
    },
    closed,
  ),
  transport: Type.Object(
    {
      lost: count('Requests whose connection was lost before a whole answer came (none of them is a failure).'),
      retried: count('Lost requests sent once more.'),
      inconclusive: count('Requests lost twice (or with no budget left to send again): each left its check inconclusive (transport).'),
    },
    {
      ...closed,
      description: 'Lost connections: a request lost before an answer is sent once more; lost again, its check is inconclusive.',
    },
  ),
  known: Type.Optional(KnownSchema),
} satisfies Record<string, TSchema>;

export const ContractReportSchema = Type.Object(reportProperties, { ...closed, description: 'The result of a contract run.' });

export const TotalsSchema = Type.Object(
  {
    passed: count('Checks that passed (in scope: what it proves was observed; above the level: everything it holds was).'),
    failed: count('In-scope checks that failed.'),
    inconclusive: count('In-scope checks that could not be judged.'),
    skipped: count('Checks that did not run (those `--only` left out included).'),
    differs: count("Checks above the run's level that found the target differs from the service."),
    notJudged: count("Checks above the run's level that could not judge something they hold."),
  },
  { ...closed, description: 'How many checks ended in each state.' },
);

/** What `crawlspec contract --json` prints: the report, with its verdict, exit status and totals first. */
export const ContractReportJsonSchema = Type.Object(
  {
    verdict: oneOf(
      VERDICTS,
      'conformant (exit 0), known deviations only (0: every failure is a known deviation, --baseline), deviations found (1), known deviations out of date (1: --baseline-strict and an entry no longer met), unreachable (2), incomplete (3).',
    ),
    exitCode: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2), Type.Literal(3)], {
      description: 'The exit status of the command.',
    }),
    totals: TotalsSchema,
    ...reportProperties,
    coverage: Type.Optional(CoverageSchema),
  },
  { ...closed, title: 'crawlspec contract report', description: 'The JSON report of `crawlspec contract --json`.' },
);
