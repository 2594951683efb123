/**
 * Every rule of the spec from both sides: for each case a minimal valid body, a minimal invalid body, and
 * the one issue `validate` must report for the invalid body (its path, rule id and message).
 *
 * Scrape option rules are written once, relative to a set of scrape options, and placed wherever scrape
 * options stand: a `ScrapeOptions` body itself (`$`), a crawl's `scrapeOptions` (`$.scrapeOptions`) and a
 * batch scrape's top level (`$`). Request rules are written for their request definition directly.
 */
import type { Version } from '../../schemas/registry.js';

/**
 * `schema`: the rule is a JSON Schema rule, so every form of the spec decides both bodies as `validate` does.
 * `code`: the rule is code applied by `validate` only, so every schema form accepts the invalid body too.
 */
export type RuleKind = 'schema' | 'code';

export interface ExpectedIssue {
  /** JSON path, e.g. `$.scrapeOptions.formats`. */
  readonly path: string;
  /** The issue's `rule`: a rule id, or the JSON Schema keyword for a plain schema limit. */
  readonly rule: string;
  readonly message: string;
}

export interface RuleCase {
  /** What the case shows, for the test title. */
  readonly title: string;
  readonly kind: RuleKind;
  readonly version: Version;
  /** Definition name within the version, e.g. `CrawlRequest`. */
  readonly schema: string;
  readonly valid: unknown;
  readonly invalid: unknown;
  /** Every issue `validate` reports for `invalid`: usually one. */
  readonly issues: readonly ExpectedIssue[];
}

// The service's messages, written out here (not imported) so that a changed message fails a test.
const CHANGE_TRACKING = 'The changeTracking format requires the markdown format to be specified as well';
const ONE_SCREENSHOT_V1 = 'You may only specify either screenshot or screenshot@fullPage';
const ONE_SCREENSHOT_V2 = 'You may only specify one screenshot format';
const PAIRING = "When 'extract' or 'json' format is specified, corresponding options must be provided, and vice versa";
const WAIT_TARGET = "Either 'milliseconds' or 'selector' must be provided, but not both.";
const FIFTY_ACTIONS = 'Number of actions cannot exceed 50';
const TOTAL_WAIT = 'Total wait time (waitFor + wait actions) cannot exceed 60 seconds';
const WAIT_FOR_TIMEOUT = 'waitFor must not exceed half of timeout';
const COUNTRY = 'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.';
const GEOLOCATION_COUNTRY = 'Invalid country code. Please use a valid ISO 3166-1 alpha-2 country code.';
const DELAY = 'The delay parameter is measured in seconds and cannot exceed 60 seconds.';
const URL_DEPTH = 'URL depth exceeds the specified maxDepth';
const NO_VALID_URLS = 'No valid URLs provided';
const PROTOCOL = 'URL uses unsupported protocol';
const HOST = 'URL must have a valid top-level domain or be an IP address';
const SIGNATURE = 'The following headers are not allowed: x-firecrawl-signature';
const INVALID_SCHEMA = 'Invalid JSON schema.';
const FREE_FORM = (where: string) =>
  `The JSON Schema's object at ${where} allows any property ("additionalProperties": true) but names none ("properties" or "patternProperties"): the extraction cannot fill a free-form object. Give its properties.`;
const RE2 = (field: string) => `${field} patterns use Rust regex (RE2-style) syntax.`;

const URL = 'https://example.com';
const HOOK = 'https://hooks.example.com/crawl';

/** A scrape option rule case, relative to the scrape options (`at` is the path suffix, '' for the options object). */
interface OptionCase {
  readonly title: string;
  readonly kind: RuleKind;
  readonly versions: readonly Version[];
  readonly rule: string;
  readonly valid: Record<string, unknown>;
  readonly invalid: Record<string, unknown>;
  readonly at: string;
  readonly message: string;
}

const wait = (milliseconds: number) => ({ type: 'wait', milliseconds });
/** A JSON Schema for extraction, and the same with a `meta` property of the given schema. */
const PRODUCT_SCHEMA = { type: 'object', properties: { title: { type: 'string' }, price: { type: 'number' } } };
const withMeta = (meta: Record<string, unknown>) => ({ type: 'object', properties: { ...PRODUCT_SCHEMA.properties, meta } });
/** `prefix0`, `prefix1`, ...: `count` patterns. */
const numbered = (prefix: string, count: number) => Array.from({ length: count }, (_, i) => `${prefix}${i}`);
const scrapes = (n: number) => Array.from({ length: n }, () => ({ type: 'scrape' }));
const BOTH: readonly Version[] = ['v1', 'v2'];

/** A boolean field the service accepts: `true` is fine, `invalid` (a string or a number) is of the wrong type. */
const booleanField = (title: string, versions: readonly Version[], field: string, invalid: string | number): OptionCase => ({
  title,
  kind: 'schema',
  versions,
  rule: 'type',
  valid: { [field]: true },
  invalid: { [field]: invalid },
  at: `.${field}`,
  message: `must be boolean, not ${typeof invalid === 'string' ? `string (${JSON.stringify(invalid)})` : `integer (${invalid})`}`,
});

const OPTION_CASES: readonly OptionCase[] = [
  // changeTrackingNeedsMarkdown
  {
    title: 'changeTracking without markdown',
    kind: 'schema',
    versions: BOTH,
    rule: 'changeTrackingNeedsMarkdown',
    valid: { formats: ['markdown', 'changeTracking'] },
    invalid: { formats: ['changeTracking'] },
    at: '.formats',
    message: CHANGE_TRACKING,
  },
  {
    title: 'changeTracking with other formats but no markdown',
    kind: 'schema',
    versions: BOTH,
    rule: 'changeTrackingNeedsMarkdown',
    valid: { formats: ['links', 'changeTracking', 'markdown'] },
    invalid: { formats: ['links', 'changeTracking', 'html'] },
    at: '.formats',
    message: CHANGE_TRACKING,
  },
  {
    title: 'object form {type: changeTracking} without markdown; markdown as {type: markdown}',
    kind: 'schema',
    versions: ['v2'],
    rule: 'changeTrackingNeedsMarkdown',
    valid: { formats: [{ type: 'markdown' }, { type: 'changeTracking' }] },
    invalid: { formats: [{ type: 'changeTracking' }] },
    at: '.formats',
    message: CHANGE_TRACKING,
  },
  {
    title: 'changeTracking by name, markdown as an object',
    kind: 'schema',
    versions: ['v2'],
    rule: 'changeTrackingNeedsMarkdown',
    valid: { formats: ['changeTracking', { type: 'markdown' }] },
    invalid: { formats: ['changeTracking', { type: 'html' }] },
    at: '.formats',
    message: CHANGE_TRACKING,
  },
  {
    title: 'changeTracking as an object with modes, markdown by name',
    kind: 'schema',
    versions: ['v2'],
    rule: 'changeTrackingNeedsMarkdown',
    valid: { formats: [{ type: 'changeTracking', modes: ['git-diff'] }, 'markdown'] },
    invalid: { formats: [{ type: 'changeTracking', modes: ['git-diff'] }, 'html'] },
    at: '.formats',
    message: CHANGE_TRACKING,
  },

  // oneScreenshotFormat
  {
    title: 'screenshot and screenshot@fullPage',
    kind: 'schema',
    versions: ['v1'],
    rule: 'oneScreenshotFormat',
    valid: { formats: ['markdown', 'screenshot@fullPage'] },
    invalid: { formats: ['markdown', 'screenshot', 'screenshot@fullPage'] },
    at: '.formats',
    message: ONE_SCREENSHOT_V1,
  },
  {
    title: 'two screenshot formats by name',
    kind: 'schema',
    versions: ['v2'],
    rule: 'oneScreenshotFormat',
    valid: { formats: ['markdown', 'screenshot'] },
    invalid: { formats: ['screenshot', 'screenshot'] },
    at: '.formats',
    message: ONE_SCREENSHOT_V2,
  },
  {
    title: 'two screenshot formats as objects',
    kind: 'schema',
    versions: ['v2'],
    rule: 'oneScreenshotFormat',
    valid: { formats: [{ type: 'screenshot', fullPage: true }] },
    invalid: { formats: [{ type: 'screenshot' }, { type: 'screenshot', fullPage: true }] },
    at: '.formats',
    message: ONE_SCREENSHOT_V2,
  },
  {
    title: 'two screenshot formats, one by name and one as an object',
    kind: 'schema',
    versions: ['v2'],
    rule: 'oneScreenshotFormat',
    valid: { formats: ['markdown', { type: 'screenshot', fullPage: true }] },
    invalid: { formats: ['screenshot', 'markdown', { type: 'screenshot', fullPage: true }] },
    at: '.formats',
    message: ONE_SCREENSHOT_V2,
  },

  {
    title: 'no screenshot format at all is fine (at most one, not exactly one)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'oneScreenshotFormat',
    valid: { formats: ['markdown'] },
    invalid: { formats: ['markdown', 'screenshot', 'screenshot'] },
    at: '.formats',
    message: ONE_SCREENSHOT_V2,
  },

  // jsonFormatNeedsOptions (v1)
  {
    title: 'json format without jsonOptions',
    kind: 'schema',
    versions: ['v1'],
    rule: 'jsonFormatNeedsOptions',
    valid: { formats: ['json'], jsonOptions: { prompt: 'Extract the title' } },
    invalid: { formats: ['json'] },
    at: '',
    message: PAIRING,
  },
  {
    title: 'jsonOptions without the json format',
    kind: 'schema',
    versions: ['v1'],
    rule: 'jsonFormatNeedsOptions',
    valid: { formats: ['markdown', 'json'], jsonOptions: { prompt: 'Extract the title' } },
    invalid: { formats: ['markdown'], jsonOptions: { prompt: 'Extract the title' } },
    at: '',
    message: PAIRING,
  },
  {
    title: 'jsonOptions with formats absent',
    kind: 'schema',
    versions: ['v1'],
    rule: 'jsonFormatNeedsOptions',
    valid: {},
    invalid: { jsonOptions: { prompt: 'Extract the title' } },
    at: '',
    message: PAIRING,
  },

  // extractFormatNeedsOptions (v1)
  {
    title: 'extract format without extract options',
    kind: 'schema',
    versions: ['v1'],
    rule: 'extractFormatNeedsOptions',
    valid: { formats: ['extract'], extract: { prompt: 'Extract the title' } },
    invalid: { formats: ['extract'] },
    at: '',
    message: PAIRING,
  },
  {
    title: 'extract options without the extract format',
    kind: 'schema',
    versions: ['v1'],
    rule: 'extractFormatNeedsOptions',
    valid: { formats: ['markdown'] },
    invalid: { formats: ['markdown'], extract: { prompt: 'Extract the title' } },
    at: '',
    message: PAIRING,
  },
  {
    title: 'extract options with formats absent',
    kind: 'schema',
    versions: ['v1'],
    rule: 'extractFormatNeedsOptions',
    valid: {},
    invalid: { extract: { prompt: 'Extract the title' } },
    at: '',
    message: PAIRING,
  },

  // waitNeedsOneTarget
  {
    title: 'wait with neither milliseconds nor selector',
    kind: 'schema',
    versions: BOTH,
    rule: 'waitNeedsOneTarget',
    valid: { actions: [{ type: 'wait', milliseconds: 500 }] },
    invalid: { actions: [{ type: 'wait' }] },
    at: '.actions[0]',
    message: WAIT_TARGET,
  },
  {
    title: 'wait with both milliseconds and selector',
    kind: 'schema',
    versions: BOTH,
    rule: 'waitNeedsOneTarget',
    valid: {
      actions: [
        { type: 'click', selector: '#go' },
        { type: 'wait', selector: '#content' },
      ],
    },
    invalid: {
      actions: [
        { type: 'click', selector: '#go' },
        { type: 'wait', milliseconds: 500, selector: '#content' },
      ],
    },
    at: '.actions[1]',
    message: WAIT_TARGET,
  },

  // atMost50Actions
  {
    title: '51 actions (50 allowed)',
    kind: 'schema',
    versions: BOTH,
    rule: 'atMost50Actions',
    valid: { actions: scrapes(50) },
    invalid: { actions: scrapes(51) },
    at: '.actions',
    message: FIFTY_ACTIONS,
  },

  // totalWaitWithinLimit
  {
    title: 'v1 counts waitFor: waitFor 10000 + wait 55000 (the same actions alone are fine)',
    kind: 'code',
    versions: ['v1'],
    rule: 'totalWaitWithinLimit',
    valid: { actions: [wait(55000)] },
    invalid: { waitFor: 10000, actions: [wait(55000)] },
    at: '.actions',
    message: TOTAL_WAIT,
  },
  {
    title: 'v1: waitFor 5000 + waits 54000 + a selector wait (1000) is exactly 60000; waitFor 5001 is over',
    kind: 'code',
    versions: ['v1'],
    rule: 'totalWaitWithinLimit',
    valid: { waitFor: 5000, actions: [wait(54000), { type: 'wait', selector: '#content' }] },
    invalid: { waitFor: 5001, actions: [wait(54000), { type: 'wait', selector: '#content' }] },
    at: '.actions',
    message: TOTAL_WAIT,
  },
  {
    title: 'v2 counts the waits only: waitFor 10000 + wait 55000 is fine; waits over 60000 are not',
    kind: 'code',
    versions: ['v2'],
    rule: 'totalWaitWithinLimit',
    valid: { waitFor: 10000, actions: [wait(55000)] },
    invalid: { waitFor: 10000, actions: [wait(55000), wait(5001)] },
    at: '.actions',
    message: TOTAL_WAIT,
  },
  {
    title: 'a selector wait counts 1000 ms: 59000 + selector is exactly 60000, 59001 + selector is over',
    kind: 'code',
    versions: BOTH,
    rule: 'totalWaitWithinLimit',
    valid: { actions: [wait(59000), { type: 'wait', selector: '#content' }] },
    invalid: { actions: [wait(59001), { type: 'wait', selector: '#content' }] },
    at: '.actions',
    message: TOTAL_WAIT,
  },
  {
    title: 'waits exactly 60000 are fine, 60001 are not',
    kind: 'code',
    versions: BOTH,
    rule: 'totalWaitWithinLimit',
    valid: { actions: [wait(30000), { type: 'scrape' }, wait(30000)] },
    invalid: { actions: [wait(30000), { type: 'scrape' }, wait(30001)] },
    at: '.actions',
    message: TOTAL_WAIT,
  },

  // waitForWithinTimeout
  {
    title: 'waitFor 8000 with timeout 15000 (7500 is half)',
    kind: 'code',
    versions: BOTH,
    rule: 'waitForWithinTimeout',
    valid: { waitFor: 7500, timeout: 15000 },
    invalid: { waitFor: 8000, timeout: 15000 },
    at: '.waitFor',
    message: WAIT_FOR_TIMEOUT,
  },
  {
    title: 'waitFor is compared only with a timeout that is sent: waitFor 20000 alone is fine, with timeout 30000 it is not',
    kind: 'code',
    versions: BOTH,
    rule: 'waitForWithinTimeout',
    valid: { waitFor: 20000 },
    invalid: { waitFor: 20000, timeout: 30000 },
    at: '.waitFor',
    message: WAIT_FOR_TIMEOUT,
  },
  {
    title: 'waitFor 0 is always fine, even with the smallest timeout',
    kind: 'code',
    versions: BOTH,
    rule: 'waitForWithinTimeout',
    valid: { waitFor: 0, timeout: 1000 },
    invalid: { waitFor: 501, timeout: 1000 },
    at: '.waitFor',
    message: WAIT_FOR_TIMEOUT,
  },

  // timeout maximum (v2 only; a plain schema limit)
  {
    title: 'timeout 300001 (at most 300000)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'maximum',
    valid: { timeout: 300000 },
    invalid: { timeout: 300001 },
    at: '.timeout',
    message: 'must be <= 300000, not 300001',
  },

  // geolocationCountryCode (v1): the deprecated geolocation takes country codes only
  {
    title: "geolocation takes no 'US-generic' (location does); 'us' in any case is fine",
    kind: 'schema',
    versions: ['v1'],
    rule: 'geolocationCountryCode',
    valid: { geolocation: { country: 'us' }, location: { country: 'US-generic' } },
    invalid: { geolocation: { country: 'US-generic' } },
    at: '.geolocation.country',
    message: GEOLOCATION_COUNTRY,
  },

  // The newer v2 format kinds refuse keys they do not have; the older plain ones drop them (issue 14.2)
  {
    title: 'an unknown key in an images format object (a markdown one drops it)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'additionalProperties',
    valid: { formats: [{ type: 'markdown', fullPage: true }, { type: 'images' }] },
    invalid: { formats: [{ type: 'markdown' }, { type: 'images', fullPage: true }] },
    at: '.formats[1].fullPage',
    message: 'is not a known field here',
  },
  {
    title: 'an unknown key in a branding, product, menu, audio or video format object',
    kind: 'schema',
    versions: ['v2'],
    rule: 'additionalProperties',
    valid: { formats: ['branding', { type: 'product' }, { type: 'menu' }, { type: 'audio' }, { type: 'video' }, { type: 'links', x: 1 }] },
    invalid: { formats: [{ type: 'video', quality: 'hd' }] },
    at: '.formats[0].quality',
    message: 'is not a known field here',
  },

  // Fields the service accepts (issue 14.1): refused as unknown keys before, typed now.
  booleanField('onlyCleanContent is a boolean the service takes in v1 and v2', BOTH, 'onlyCleanContent', 'yes'),
  booleanField('v1 takes the deprecated __experimental_cache, a boolean', ['v1'], '__experimental_cache', 1),
  booleanField('v2 takes safeMode, a boolean', ['v2'], 'safeMode', 'on'),

  // jsonSchemaCompiles (v1): the schema is compiled as the service compiles it (draft-07)
  {
    title: 'a jsonOptions schema that does not compile (type "text")',
    kind: 'code',
    versions: ['v1'],
    rule: 'jsonSchemaCompiles',
    valid: { formats: ['json'], jsonOptions: { schema: PRODUCT_SCHEMA } },
    invalid: { formats: ['json'], jsonOptions: { schema: { type: 'object', properties: { title: { type: 'text' } } } } },
    at: '.jsonOptions.schema',
    message: INVALID_SCHEMA,
  },
  {
    title: 'a changeTrackingOptions schema whose required is not a list',
    kind: 'code',
    versions: ['v1'],
    rule: 'jsonSchemaCompiles',
    valid: { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { schema: { ...PRODUCT_SCHEMA, required: ['title'] } } },
    invalid: { formats: ['markdown', 'changeTracking'], changeTrackingOptions: { schema: { ...PRODUCT_SCHEMA, required: 'title' } } },
    at: '.changeTrackingOptions.schema',
    message: INVALID_SCHEMA,
  },
  {
    title: 'a schema naming draft 2020-12 does not compile where the service compiles draft-07; one naming draft-07 does',
    kind: 'code',
    versions: ['v1'],
    rule: 'jsonSchemaCompiles',
    valid: { formats: ['extract'], extract: { schema: { $schema: 'http://json-schema.org/draft-07/schema#', ...PRODUCT_SCHEMA } } },
    invalid: { formats: ['extract'], extract: { schema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...PRODUCT_SCHEMA } } },
    at: '.extract.schema',
    message: INVALID_SCHEMA,
  },
  {
    title: 'a schema pattern that is no regular expression (compiled, never run)',
    kind: 'code',
    versions: ['v1'],
    rule: 'jsonSchemaCompiles',
    valid: { formats: ['json'], jsonOptions: { schema: { type: 'object', properties: { sku: { type: 'string', pattern: '^(a+)+$' } } } } },
    invalid: { formats: ['json'], jsonOptions: { schema: { type: 'object', properties: { sku: { type: 'string', pattern: '(' } } } } },
    at: '.jsonOptions.schema',
    message: INVALID_SCHEMA,
  },

  // jsonSchemaNotFreeForm (the newer service, v1 and v2)
  {
    title: 'an object allowing any property but naming none, in a jsonOptions schema (a map of strings is fine)',
    kind: 'code',
    versions: ['v1'],
    rule: 'jsonSchemaNotFreeForm',
    valid: { formats: ['json'], jsonOptions: { schema: withMeta({ type: 'object', additionalProperties: { type: 'string' } }) } },
    invalid: { formats: ['json'], jsonOptions: { schema: withMeta({ type: 'object', additionalProperties: true }) } },
    at: '.jsonOptions.schema',
    message: FREE_FORM('/properties/meta'),
  },
  {
    title: 'an object allowing any property but naming none, in a json format (with patternProperties it is fine)',
    kind: 'code',
    versions: ['v2'],
    rule: 'jsonSchemaNotFreeForm',
    valid: {
      formats: [{ type: 'json', schema: withMeta({ type: 'object', patternProperties: { '^x-': {} }, additionalProperties: true }) }],
    },
    invalid: { formats: [{ type: 'json', schema: withMeta({ type: 'object', additionalProperties: true }) }] },
    at: '.formats[0].schema',
    message: FREE_FORM('/properties/meta'),
  },
  {
    title: 'v2 leaves an object holding $ref alone, and does not compile the schema (type "text" is taken)',
    kind: 'code',
    versions: ['v2'],
    rule: 'jsonSchemaNotFreeForm',
    valid: {
      formats: [
        'markdown',
        { type: 'changeTracking', schema: withMeta({ $ref: '#/$defs/meta', type: 'object', additionalProperties: true }) },
        { type: 'json', schema: { type: 'text' } },
      ],
    },
    invalid: { formats: ['markdown', { type: 'changeTracking', schema: { type: 'object', additionalProperties: true } }] },
    at: '.formats[1].schema',
    message: FREE_FORM('the root'),
  },

  // countryCode
  {
    title: "country 'UK' (Great Britain is GB); 'de' in any case",
    kind: 'schema',
    versions: BOTH,
    rule: 'countryCode',
    valid: { location: { country: 'de' } },
    invalid: { location: { country: 'UK' } },
    at: '.location.country',
    message: COUNTRY,
  },
  {
    title: "country 'US-generic' is a proxy pool the service takes; 'US-gen' is not",
    kind: 'schema',
    versions: BOTH,
    rule: 'countryCode',
    valid: { location: { country: 'US-generic' } },
    invalid: { location: { country: 'US-gen' } },
    at: '.location.country',
    message: COUNTRY,
  },
  {
    title: "country 'us-whitelist' is valid; 'usa' is not",
    kind: 'schema',
    versions: BOTH,
    rule: 'countryCode',
    valid: { location: { country: 'us-whitelist', languages: ['en-US'] } },
    invalid: { location: { country: 'usa', languages: ['en-US'] } },
    at: '.location.country',
    message: COUNTRY,
  },
];

/** The three places scrape options stand, for each version. */
const PLACEMENTS = [
  { schema: 'ScrapeOptions', base: '$', place: (o: Record<string, unknown>): unknown => o },
  { schema: 'CrawlRequest', base: '$.scrapeOptions', place: (o: Record<string, unknown>): unknown => ({ url: URL, scrapeOptions: o }) },
  { schema: 'BatchScrapeRequest', base: '$', place: (o: Record<string, unknown>): unknown => ({ urls: [URL], ...o }) },
] as const;

const placed: RuleCase[] = OPTION_CASES.flatMap((c) =>
  c.versions.flatMap((version) =>
    PLACEMENTS.map(({ schema, base, place }): RuleCase => ({
      title: `${c.rule}: ${c.title}`,
      kind: c.kind,
      version,
      schema,
      valid: place(c.valid),
      invalid: place(c.invalid),
      issues: [{ path: `${base}${c.at}`, rule: c.rule, message: c.message }],
    })),
  ),
);

const crawl = (fields: Record<string, unknown>) => ({ url: URL, ...fields });
const onBoth = (make: (version: Version) => RuleCase): RuleCase[] => BOTH.map(make);
/** A crawl URL rule case, in both versions: `valid` and `invalid` start URLs, and the message for the invalid one. */
const crawlUrlCases = (title: string, valid: string, invalid: string, message = HOST): RuleCase[] =>
  onBoth((version) => ({
    title: `crawlUrl: ${title}`,
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: { url: valid },
    invalid: { url: invalid },
    issues: [{ path: '$.url', rule: 'crawlUrl', message }],
  }));

const requestCases: RuleCase[] = [
  // urlDepthWithinMaxDepth (v1 only)
  {
    title: 'urlDepthWithinMaxDepth: /a/b/c is depth 3 > maxDepth 2; /blog/category is depth 2',
    kind: 'code',
    version: 'v1',
    schema: 'CrawlRequest',
    valid: { url: 'https://example.com/blog/category', maxDepth: 2 },
    invalid: { url: 'https://example.com/a/b/c', maxDepth: 2 },
    issues: [{ path: '$.url', rule: 'urlDepthWithinMaxDepth', message: URL_DEPTH }],
  },
  {
    title: 'urlDepthWithinMaxDepth: a trailing slash is not counted (/a/b/ is depth 2; /a/b/c/ is 3)',
    kind: 'code',
    version: 'v1',
    schema: 'CrawlRequest',
    valid: { url: 'https://example.com/a/b/', maxDepth: 2 },
    invalid: { url: 'https://example.com/a/b/c/', maxDepth: 2 },
    issues: [{ path: '$.url', rule: 'urlDepthWithinMaxDepth', message: URL_DEPTH }],
  },
  {
    title: 'urlDepthWithinMaxDepth: without maxDepth the default is 10 (depth 10 fine, 11 not)',
    kind: 'code',
    version: 'v1',
    schema: 'CrawlRequest',
    valid: { url: 'https://example.com/1/2/3/4/5/6/7/8/9/10' },
    invalid: { url: 'https://example.com/1/2/3/4/5/6/7/8/9/10/11' },
    issues: [{ path: '$.url', rule: 'urlDepthWithinMaxDepth', message: URL_DEPTH }],
  },
  {
    title: 'urlDepthWithinMaxDepth: maxDepth 0 allows the root only (scheme-less shorthand too)',
    kind: 'code',
    version: 'v1',
    schema: 'CrawlRequest',
    valid: { url: 'example.com/', maxDepth: 0 },
    invalid: { url: 'example.com/docs', maxDepth: 0 },
    issues: [{ path: '$.url', rule: 'urlDepthWithinMaxDepth', message: URL_DEPTH }],
  },
  {
    title: 'v2 has no depth rule: maxDepth is an unknown key there, and a deep URL is fine',
    kind: 'schema',
    version: 'v2',
    schema: 'CrawlRequest',
    valid: { url: 'https://example.com/a/b/c/d/e/f/g/h/i/j/k/l' },
    invalid: { url: 'https://example.com/a/b/c', maxDepth: 2 },
    issues: [{ path: '$.maxDepth', rule: 'additionalProperties', message: 'is not a known field here' }],
  },

  // pathPatternsCompile
  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: includePaths "(" does not compile',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ includePaths: ['^/blog/.*$'] }),
    invalid: crawl({ includePaths: ['('] }),
    issues: [
      {
        path: '$.includePaths[0]',
        rule: 'pathPatternsCompile',
        message: `Invalid includePaths pattern "(": Invalid regular expression: /(/: Unterminated group. ${RE2('includePaths')}`,
      },
    ],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: excludePaths lookahead (?=x)',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ excludePaths: ['^/private$', '^/blog/.*$'] }),
    invalid: crawl({ excludePaths: ['^/private$', '(?=x)'] }),
    issues: [
      {
        path: '$.excludePaths[1]',
        rule: 'pathPatternsCompile',
        message: `Invalid excludePaths pattern "(?=x)": lookahead assertions are not supported. ${RE2('excludePaths')}`,
      },
    ],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: excludePaths backreference (a)\\1',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ excludePaths: ['^/private$', '(a)+'] }),
    invalid: crawl({ excludePaths: ['^/private$', '(a)\\1'] }),
    issues: [
      {
        path: '$.excludePaths[1]',
        rule: 'pathPatternsCompile',
        message: `Invalid excludePaths pattern "(a)\\\\1": backreferences are not supported. ${RE2('excludePaths')}`,
      },
    ],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: includePaths lookbehind (?<=x)',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ includePaths: ['^/blog/.*$'] }),
    invalid: crawl({ includePaths: ['(?<=/)blog'] }),
    issues: [
      {
        path: '$.includePaths[0]',
        rule: 'pathPatternsCompile',
        message: `Invalid includePaths pattern "(?<=/)blog": lookbehind assertions are not supported. ${RE2('includePaths')}`,
      },
    ],
  })),

  ...onBoth((version): RuleCase => ({
    title: 'pathPatternsCompile: together, at most 1000 patterns (999 are fine)',
    kind: 'code',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ includePaths: numbered('^/a', 500), excludePaths: numbered('^/b', 499) }),
    invalid: crawl({ includePaths: numbered('^/a', 501), excludePaths: numbered('^/b', 500) }),
    issues: [
      {
        path: '$',
        rule: 'pathPatternsCompile',
        message: `includePaths and excludePaths together hold 1001 patterns of ${[...numbered('^/a', 501), ...numbered('^/b', 500)].join('').length} characters; at most 1000 patterns and 100000 characters are allowed.`,
      },
    ],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatterns: each pattern at most 2000 characters',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ includePaths: [`^/${'a'.repeat(1998)}`] }),
    invalid: crawl({ includePaths: [`^/${'a'.repeat(1999)}`] }),
    issues: [{ path: '$.includePaths[0]', rule: 'maxLength', message: 'must have at most 2000 characters, not 2001' }],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'pathPatterns: at most 1000 patterns in a field',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ excludePaths: Array.from({ length: 1000 }, () => '^/x') }),
    invalid: crawl({ excludePaths: Array.from({ length: 1001 }, () => '^/x') }),
    issues: [
      { path: '$.excludePaths', rule: 'maxItems', message: 'must have at most 1000 items, not 1001' },
      // A body of more than REPORT_LIMIT values gets its first problem, and this note.
      {
        path: '$',
        rule: 'firstProblemOnly',
        message: 'only the first problem is reported: the body holds more than 500 values, too many to look for every problem in',
      },
    ],
  })),

  // crawlUrl
  ...crawlUrlCases(
    'a host label of 64 characters is longer than DNS allows (63 is fine)',
    `https://${'a'.repeat(63)}.example.com/`,
    `https://${'a'.repeat(64)}.example.com/`,
  ),
  ...crawlUrlCases(
    'an internationalised label of 64 characters too, refused before it is punycoded',
    `https://${'ü'.repeat(20)}.example.com/`,
    `https://${'ü'.repeat(64)}.example.com/`,
  ),
  ...crawlUrlCases(
    'ftp://example.com uses an unsupported protocol; example.com (no scheme) is fine',
    'example.com',
    'ftp://example.com',
    PROTOCOL,
  ),
  ...crawlUrlCases(
    'a bare file name is no host (image_0001.jpg: jpg is no top-level domain); a path may end in one',
    'https://images.example.com/image_0001.jpg',
    'image_0001.jpg',
  ),
  ...crawlUrlCases(
    'the top-level domain must be in the public suffix list (.zz is not; .museum is)',
    'https://docs.example.museum/guide',
    'https://docs.example.zz/guide',
  ),
  ...crawlUrlCases(
    'an internationalised top-level domain in the list (.рф) is fine; an unlisted one (.испытание, a test TLD) is not',
    'https://пример.рф/',
    'https://пример.испытание/',
  ),
  {
    title: 'batchUrls: v2 ignoring by default drops a bare file name; not ignoring, it fails at its index',
    kind: 'code',
    version: 'v2',
    schema: 'BatchScrapeRequest',
    valid: { urls: [URL, 'image_0001.jpg'] },
    invalid: { urls: [URL, 'image_0001.jpg'], ignoreInvalidURLs: false },
    issues: [{ path: '$.urls[1]', rule: 'batchUrls', message: HOST }],
  },
  ...crawlUrlCases('http://localhost has no top-level domain; http://127.0.0.1 is an IP address', 'http://127.0.0.1', 'http://localhost'),

  // batchUrls
  {
    title: 'batchUrls: v1 does not ignore invalid URLs by default; one invalid entry fails at its index',
    kind: 'code',
    version: 'v1',
    schema: 'BatchScrapeRequest',
    valid: { urls: [URL, 'example.com/b'] },
    invalid: { urls: [URL, 'ftp://example.com'] },
    issues: [{ path: '$.urls[1]', rule: 'batchUrls', message: PROTOCOL }],
  },
  {
    title: 'batchUrls: v1 with ignoreInvalidURLs true takes the same list',
    kind: 'code',
    version: 'v1',
    schema: 'BatchScrapeRequest',
    valid: { urls: [URL, 'ftp://example.com'], ignoreInvalidURLs: true },
    invalid: { urls: [URL, 'ftp://example.com'], ignoreInvalidURLs: false },
    issues: [{ path: '$.urls[1]', rule: 'batchUrls', message: PROTOCOL }],
  },
  {
    title: 'batchUrls: v2 ignores invalid URLs by default; with ignoreInvalidURLs false each invalid entry fails',
    kind: 'code',
    version: 'v2',
    schema: 'BatchScrapeRequest',
    valid: { urls: ['ftp://example.com', URL, 'http://localhost'] },
    invalid: { urls: ['ftp://example.com', URL, 'http://localhost'], ignoreInvalidURLs: false },
    issues: [
      { path: '$.urls[0]', rule: 'batchUrls', message: PROTOCOL },
      { path: '$.urls[2]', rule: 'batchUrls', message: HOST },
    ],
  },
  {
    title: 'batchUrls: v1 ignoring, but no valid URL is left',
    kind: 'code',
    version: 'v1',
    schema: 'BatchScrapeRequest',
    valid: { urls: ['ftp://example.com', URL], ignoreInvalidURLs: true },
    invalid: { urls: ['ftp://example.com', 'http://localhost'], ignoreInvalidURLs: true },
    issues: [{ path: '$.urls', rule: 'batchUrls', message: NO_VALID_URLS }],
  },
  {
    title: 'batchUrls: v2 ignoring by default, but no valid URL is left',
    kind: 'code',
    version: 'v2',
    schema: 'BatchScrapeRequest',
    valid: { urls: ['ftp://example.com', URL] },
    invalid: { urls: ['ftp://example.com', 'http://localhost'] },
    issues: [{ path: '$.urls', rule: 'batchUrls', message: NO_VALID_URLS }],
  },

  // webhookSignatureHeader
  ...(['CrawlRequest', 'BatchScrapeRequest'] as const).flatMap((schema) =>
    onBoth((version): RuleCase => ({
      title: 'webhookSignatureHeader: a webhook may not set X-Firecrawl-Signature, in any letter case (other headers are fine)',
      kind: 'code',
      version,
      schema,
      valid: {
        ...(schema === 'CrawlRequest' ? { url: URL } : { urls: [URL] }),
        webhook: { url: HOOK, headers: { 'X-Firecrawl-Token': 'a' } },
      },
      invalid: {
        ...(schema === 'CrawlRequest' ? { url: URL } : { urls: [URL] }),
        webhook: { url: HOOK, headers: { 'x-FIRECRAWL-signature': 'a' } },
      },
      issues: [{ path: '$.webhook.headers["x-FIRECRAWL-signature"]', rule: 'webhookSignatureHeader', message: SIGNATURE }],
    })),
  ),
  ...onBoth((version): RuleCase => ({
    title: 'webhookSignatureHeader: the Webhook definition itself, X-FIRECRAWL-SIGNATURE among other headers',
    kind: 'code',
    version,
    schema: 'Webhook',
    valid: { url: HOOK, headers: { Authorization: 'Bearer x', 'X-Signature': 'a' } },
    invalid: { url: HOOK, headers: { Authorization: 'Bearer x', 'X-FIRECRAWL-SIGNATURE': 'a' } },
    issues: [{ path: '$.headers["X-FIRECRAWL-SIGNATURE"]', rule: 'webhookSignatureHeader', message: SIGNATURE }],
  })),

  // delayAtMost60Seconds
  ...onBoth((version): RuleCase => ({
    title: 'delayAtMost60Seconds: delay 60.5 (60 is fine)',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ delay: 60 }),
    invalid: crawl({ delay: 60.5 }),
    issues: [{ path: '$.delay', rule: 'delayAtMost60Seconds', message: DELAY }],
  })),
  ...onBoth((version): RuleCase => ({
    title: 'delay 0 is not a delay (exclusiveMinimum 0; 0.5 is fine)',
    kind: 'schema',
    version,
    schema: 'CrawlRequest',
    valid: crawl({ delay: 0.5 }),
    invalid: crawl({ delay: 0 }),
    issues: [{ path: '$.delay', rule: 'exclusiveMinimum', message: 'must be > 0, not 0' }],
  })),
];

/** The status answer's `next`: a string, or absent (the service leaves the key out), never null. */
const statusCases: RuleCase[] = onBoth((version): RuleCase => ({
  title: 'next is absent on the last page, never null',
  kind: 'schema',
  version,
  schema: 'JobStatusResponse',
  valid: { success: true, status: 'completed', completed: 0, total: 0, creditsUsed: 0, expiresAt: '2026-11-23T10:00:00.000Z', data: [] },
  invalid: {
    success: true,
    status: 'completed',
    completed: 0,
    total: 0,
    creditsUsed: 0,
    expiresAt: '2026-11-23T10:00:00.000Z',
    data: [],
    next: null,
  },
  issues: [{ path: '$.next', rule: 'type', message: 'must be string, not null (null)' }],
}));

/** Location on its own definition, in both versions. */
const locationCases: RuleCase[] = onBoth((version): RuleCase => ({
  title: "countryCode: the Location definition itself, 'UK' vs 'GB'",
  kind: 'schema',
  version,
  schema: 'Location',
  valid: { country: 'GB' },
  invalid: { country: 'UK' },
  issues: [{ path: '$.country', rule: 'countryCode', message: COUNTRY }],
}));

export const RULE_CASES: readonly RuleCase[] = [...placed, ...requestCases, ...statusCases, ...locationCases];
