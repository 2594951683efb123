/**
 * Interface-table conformance: every field, type, default, enum value and
 * limit that the interface document states in its tables (sections 2.1-2.5,
 * 4, 8 and 9) must appear, with that value, in the generated OpenAPI
 * documents `generated/openapi/v1.json` and `generated/openapi/v2.json`.
 *
 * The tables (test/support/interfaceTableFacts.ts) are an independent oracle: the facts were transcribed by
 * hand from the interface document (which is NOT read at run time). The
 * generated documents are the thing under test. Each oracle row becomes one
 * `it(...)`, so a failure names the exact field and the value that deviates; how a row is checked is in
 * test/support/openApiTableChecks.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  ABSENT,
  BATCH,
  BATCH_STARTED,
  BOTH_SCRAPE_OWNERS,
  CRAWL,
  CRAWL_STARTED,
  ENDPOINTS,
  LIMIT_ROWS,
  LOCATION,
  SCRAPE_V1,
  SCRAPE_V2,
  VERSIONS,
  VERSION_DEFAULT_ROWS,
  rowName,
  rows,
} from './support/interfaceTableFacts.js';
import { COMPONENT, DOCS, type Schema, hasProperty, isObj, suite } from './support/openApiTableChecks.js';

// ---------------------------------------------------------------------------
// Row sets
// ---------------------------------------------------------------------------

const CRAWL_ROWS = rows(VERSIONS, ['CrawlRequest'], CRAWL);
const BATCH_ROWS = rows(VERSIONS, ['BatchScrapeRequest'], BATCH);
// Scrape options: nested under the crawl's `scrapeOptions` (the ScrapeOptions component) and at the top level of
// the batch scrape body.
const SCRAPE_ROWS = [...rows(['v1'], BOTH_SCRAPE_OWNERS, SCRAPE_V1), ...rows(['v2'], BOTH_SCRAPE_OWNERS, SCRAPE_V2)];
const LOCATION_ROWS = rows(VERSIONS, ['Location'], LOCATION);
const RESPONSE_ROWS = [
  ...rows(VERSIONS, ['CrawlStartResponse'], CRAWL_STARTED),
  ...rows(VERSIONS, ['BatchScrapeStartResponse'], BATCH_STARTED),
];

// ---------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------

describe('interface tables vs generated OpenAPI', () => {
  it('the oracle names each row once per section', () => {
    const all = [CRAWL_ROWS, BATCH_ROWS, SCRAPE_ROWS, LOCATION_ROWS, RESPONSE_ROWS, LIMIT_ROWS, VERSION_DEFAULT_ROWS];
    for (const list of all) {
      const names = list.map(rowName);
      expect(new Set(names).size, names.join('\n')).toBe(names.length);
    }
  });

  suite('§2.1 crawl request', CRAWL_ROWS);
  suite('§2.2 batch scrape request', BATCH_ROWS);
  suite('§2.3/§2.4 scrape options (crawl scrapeOptions and batch top level)', SCRAPE_ROWS);
  suite('§2.5 location', LOCATION_ROWS);
  suite('§4 start responses', RESPONSE_ROWS);
  suite('§8 limits', LIMIT_ROWS);
  suite('§9 version defaults', VERSION_DEFAULT_ROWS);

  describe('§2.1/§2.3/§2.4/§4/§9 fields absent by version', () => {
    for (const [v, owner, field, why] of ABSENT) {
      it(`${v} ${owner}.${field}: absent (${why})`, () => {
        expect(hasProperty(DOCS[v], owner, field), `${v} ${owner} should not have "${field}"`).toBe(false);
      });
    }
  });

  describe('§4 endpoints', () => {
    for (const e of ENDPOINTS) {
      it(`${e.v} POST ${e.path}: application/json ${e.body} -> ${e.response}`, () => {
        const paths = DOCS[e.v].paths;
        const item = isObj(paths) ? paths[e.path] : undefined;
        const post = isObj(item) ? item.post : undefined;
        expect(isObj(post), `${e.v} ${e.path}: POST operation`).toBe(true);
        if (!isObj(post)) return;
        const body = isObj(post.requestBody) ? post.requestBody : {};
        const bodySchema = (body.content as Schema | undefined)?.['application/json'];
        expect(isObj(bodySchema) ? bodySchema.schema : undefined, `${e.path}: request body`).toEqual({ $ref: COMPONENT + e.body });
        const responses = isObj(post.responses) ? post.responses : {};
        const ok = Object.entries(responses).find(([code]) => /^2\d\d$/.test(code))?.[1];
        const okContent = isObj(ok) && isObj(ok.content) ? ok.content['application/json'] : undefined;
        expect(isObj(okContent) ? okContent.schema : undefined, `${e.path}: success response`).toEqual({ $ref: COMPONENT + e.response });
      });
    }
    for (const v of VERSIONS) {
      it(`${v}: every path starts with /${v}/ (§9: version is the first path segment)`, () => {
        const paths = Object.keys(isObj(DOCS[v].paths) ? DOCS[v].paths : {});
        expect(paths.length).toBeGreaterThan(0);
        expect(paths.filter((p) => !p.startsWith(`/${v}/`))).toEqual([]);
      });
    }
  });
});
