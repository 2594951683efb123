/**
 * What a conformance vector file is: the definitions that have one (in each version), and its groups and tests,
 * in the form of the JSON Schema Test Suite. `vectors.ts` writes the files.
 */
/** The request definitions: every property of each is covered. */
export const REQUEST_DEFINITIONS = ['CrawlRequest', 'BatchScrapeRequest', 'ScrapeOptions'] as const;
/** Every definition with a vector file, in each version. */
export const VECTOR_DEFINITIONS = [
  ...REQUEST_DEFINITIONS,
  'Location',
  'Webhook',
  'Action',
  'CrawlStartResponse',
  'BatchScrapeStartResponse',
  'JobStatusResponse',
] as const;

export interface VectorTest {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
  /** The code rule (rules.json) the answer depends on; a plain JSON Schema validator accepts `data`. */
  readonly rule?: string;
  /** The format whose assertion the answer depends on. */
  readonly format?: string;
}

export interface VectorGroup {
  readonly description: string;
  /** `v2/CrawlRequest`. */
  readonly schema: string;
  /** The JSON Schema file of `schema`, relative to the vector file. */
  readonly schemaFile: string;
  readonly tests: VectorTest[];
}
