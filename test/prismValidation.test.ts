/**
 * What Stoplight Prism 5.14 (`prism mock`, whose request validation is also `prism proxy`'s) makes of the shipped
 * OpenAPI documents: it must accept every body the package accepts, and refuse every body the package's JSON Schema
 * refuses. The bodies: every conformance vector of the request definitions (generated/vectors/), the vectors of their
 * parts (scrape options, an action, a webhook, a location) put where a crawl request holds them, and the benchmark's
 * corpus, which holds bodies the official JS SDK put on the wire (scripts/bench/corpus.ts). Each is sent to the
 * operation that takes it; Prism's verdict is its `sl-violations` header.
 *
 * Prism checks the JSON Schema only. The rules the package writes as code (schemas/codeRules/, generated/vectors/
 * rules.json), JSON Schema cannot say, so no tool reading the documents keeps them; Prism accepts a body that breaks
 * only those. They are, by kind (docs/publishing.md lists them too):
 *   - rules across fields: waits within the timeout and the total wait limit (`waitForWithinTimeout`,
 *     `totalWaitWithinLimit`), the URL's depth within `maxDepth` (`urlDepthWithinMaxDepth`, v1), invalid batch URLs
 *     dropped or refused as `ignoreInvalidURLs` says (`batchUrls`);
 *   - rules on what a string means: a crawl URL's host and top-level domain (`crawlUrl`), path patterns that compile
 *     as the service's regular expressions (`pathPatternsCompile`), a JSON Schema in a body that compiles within
 *     bounds or names its properties (`jsonSchemaCompiles`, `jsonSchemaNotFreeForm`);
 *   - a rule on a header name in any letter case (`webhookSignatureHeader`).
 * The test holds that list: a body Prism accepts and the package refuses must break only rules of it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARAMETER_EXAMPLES } from '../schemas/operations.js';
import { VERSIONS, type Version } from '../schemas/registry.js';
import { validate, validatorFor, type SchemaName } from '../schemas/validate.js';
import { corpus } from '../scripts/bench/corpus.js';
import type { VectorGroup } from '../scripts/emit/vectorFile.js';
import { prismViolations, startPrism, type Prism } from './support/prism.js';

/** The code rules Prism cannot keep (see above). */
const PRISM_CANNOT_EXPRESS = new Set([
  'waitForWithinTimeout',
  'totalWaitWithinLimit',
  'urlDepthWithinMaxDepth',
  'batchUrls',
  'crawlUrl',
  'pathPatternsCompile',
  'jsonSchemaCompiles',
  'jsonSchemaNotFreeForm',
  'webhookSignatureHeader',
]);

interface Sent {
  readonly name: string;
  readonly schema: SchemaName;
  readonly path: string;
  readonly body: unknown;
}

const URL_ = 'https://example.com';

/** Where each vector file's data goes: the request definition it is part of, the operation taking it, and how. */
const PLACES: Readonly<Record<string, readonly [definition: string, path: string, place: (data: unknown) => unknown]>> = {
  CrawlRequest: ['CrawlRequest', '/crawl', (data) => data],
  BatchScrapeRequest: ['BatchScrapeRequest', '/batch/scrape', (data) => data],
  ScrapeOptions: ['CrawlRequest', '/crawl', (data) => ({ url: URL_, scrapeOptions: data })],
  Action: ['CrawlRequest', '/crawl', (data) => ({ url: URL_, scrapeOptions: { actions: [data] } })],
  Location: ['CrawlRequest', '/crawl', (data) => ({ url: URL_, scrapeOptions: { location: data } })],
  Webhook: ['CrawlRequest', '/crawl', (data) => ({ url: URL_, webhook: data })],
};

function vectorBodies(version: Version): Sent[] {
  return Object.entries(PLACES).flatMap(([file, [definition, path, place]]) => {
    const groups = JSON.parse(
      readFileSync(fileURLToPath(new URL(`../generated/vectors/${version}/${file}.json`, import.meta.url)), 'utf8'),
    ) as VectorGroup[];
    return groups.flatMap((group) =>
      group.tests.map((test) => ({
        name: test.description,
        schema: `${version}/${definition}` as SchemaName,
        path: `/${version}${path}`,
        body: place(test.data),
      })),
    );
  });
}

const PATHS: Readonly<Record<string, string>> = { CrawlRequest: '/crawl', BatchScrapeRequest: '/batch/scrape' };

async function corpusBodies(version: Version): Promise<Sent[]> {
  return (await corpus())
    .filter(({ schema }) => schema.startsWith(`${version}/`))
    .map(({ name, schema, text }) => ({ name, schema, path: `/${version}${PATHS[schema.split('/')[1]!]!}`, body: JSON.parse(text) }));
}

/** Prism's verdict on each body, a few requests at a time. */
async function verdicts(prism: Prism, bodies: readonly Sent[]): Promise<{ sent: Sent; refusedFor: string[] }[]> {
  const out: { sent: Sent; refusedFor: string[] }[] = [];
  for (let i = 0; i < bodies.length; i += 8) {
    const chunk = bodies.slice(i, i + 8);
    const answers = await Promise.all(chunk.map((sent) => prismViolations(prism, 'POST', sent.path, sent.body)));
    answers.forEach((violations, k) => out.push({ sent: chunk[k]!, refusedFor: violations.map((v) => v.message) }));
  }
  return out;
}

interface Operation {
  readonly parameters?: readonly { name: string; in: 'path' | 'query' | 'header'; example: unknown }[];
  readonly requestBody?: { content: { 'application/json': { examples?: Record<string, { value: unknown }> } } };
}

/** A request to `method template` with every parameter set to its example, and the body's first example. */
function exampleRequest(method: string, template: string, operation: Operation) {
  let path = template;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  for (const parameter of operation.parameters ?? []) {
    const value = String(parameter.example);
    if (parameter.in === 'path') path = path.replace(`{${parameter.name}}`, encodeURIComponent(value));
    else if (parameter.in === 'query') query.set(parameter.name, value);
    else headers[parameter.name] = value;
  }
  const examples = operation.requestBody?.content['application/json'].examples;
  const body = examples === undefined ? undefined : Object.values(examples)[0]?.value;
  return { method: method.toUpperCase(), path: query.size > 0 ? `${path}?${query}` : path, headers, body };
}

describe.each(VERSIONS)('Prism on generated/openapi/%s.json', (version) => {
  let prism: Prism;
  beforeAll(async () => {
    prism = await startPrism(fileURLToPath(new URL(`../generated/openapi/${version}.json`, import.meta.url)));
  }, 90_000);
  afterAll(async () => {
    await prism?.stop();
  });

  it('accepts every body the package accepts and refuses every body its JSON Schema refuses', async () => {
    const bodies = [...vectorBodies(version), ...(await corpusBodies(version))];
    const results = await verdicts(prism, bodies);
    const wrong = results.filter(({ sent, refusedFor }) => (refusedFor.length === 0) !== validatorFor(sent.schema)(sent.body));
    expect(wrong.map(({ sent, refusedFor }) => ({ name: sent.name, body: sent.body, refusedFor }))).toEqual([]);

    const accepted = results.filter(({ sent }) => validate(sent.schema, sent.body).valid);
    expect(accepted.length).toBeGreaterThan(100);
    expect(accepted.filter(({ refusedFor }) => refusedFor.length > 0)).toEqual([]);
    // The headline case: a v2 body with one screenshot format (the SDK sends it).
    if (version === 'v2')
      expect(accepted.some(({ sent }) => JSON.stringify(sent.body).includes('"type":"screenshot"') && sent.name.includes('(SDK)'))).toBe(
        true,
      );
  });

  it('accepts a request to every operation made of the document’s examples (parameters and body)', async () => {
    const doc = JSON.parse(readFileSync(fileURLToPath(new URL(`../generated/openapi/${version}.json`, import.meta.url)), 'utf8')) as {
      paths: Record<string, Record<string, Operation>>;
    };
    const requests = Object.entries(doc.paths).flatMap(([template, methods]) =>
      Object.entries(methods).map(([method, operation]) => exampleRequest(method, template, operation)),
    );
    expect(requests.filter(({ path }) => path.includes(String(PARAMETER_EXAMPLES.id))).length).toBeGreaterThan(0);
    const refused: { request: string; refusedFor: string[] }[] = [];
    for (const { method, path, headers, body } of requests) {
      const violations = await prismViolations(prism, method, path, body, headers);
      if (violations.length > 0) refused.push({ request: `${method} ${path}`, refusedFor: violations.map((v) => v.message) });
    }
    expect(refused).toEqual([]);
  });

  it('refuses every invalid body but those breaking only rules it cannot express', async () => {
    const invalid = [...vectorBodies(version)].filter((sent) => !validate(sent.schema, sent.body).valid);
    const results = await verdicts(prism, invalid);
    expect(results.filter(({ refusedFor }) => refusedFor.length > 0).length).toBeGreaterThan(100);
    const passed = results.filter(({ refusedFor }) => refusedFor.length === 0);
    const rulesBroken = passed.map(({ sent }) => {
      const result = validate(sent.schema, sent.body);
      return { name: sent.name, rules: result.valid ? [] : [...new Set(result.errors.map((issue) => issue.rule))] };
    });
    expect(rulesBroken.filter(({ rules }) => rules.length === 0 || rules.some((rule) => !PRISM_CANNOT_EXPRESS.has(rule)))).toEqual([]);
  });
});
