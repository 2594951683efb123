/**
 * Request bodies safe to send to a real, paid service: valid bodies generated from the definitions, then
 * forced to stay small and harmless. Every URL points at the one site the run is allowed to scrape; a crawl
 * stops after one page; a batch has one or two URLs; nothing is delivered elsewhere (no webhook), nothing
 * is appended to another job, no data-retention or browser-profile side effects, no browser actions, no
 * prompt for a model to turn into crawler options.
 */
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { definitions, type Version } from '../../schemas/registry.js';
import { objectOf } from '../../schemas/rule.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { arbitraryFor } from './arbitrary.js';
import { mutationsOf, type MutationKind, type Path } from './mutations.js';
import type { JobKind } from './spec.js';

export type Body = Record<string, unknown>;

/** Request fields dropped from generated bodies (where they stand: top level of either request). */
export const DROPPED_REQUEST_FIELDS = ['webhook', 'zeroDataRetention', 'appendToId', 'prompt'] as const;
/** Scrape options dropped (inside a crawl's `scrapeOptions`, at a batch's top level). */
export const DROPPED_SCRAPE_OPTIONS = ['actions', 'profile', 'useMock', 'threatProtection'] as const;

/** Paths below the site that generated requests address. */
export const SITE_PATHS = ['', '/', '/docs', '/blog/', '/about'] as const;

export const requestName = (kind: JobKind) => (kind === 'crawl' ? 'CrawlRequest' : 'BatchScrapeRequest');
export const requestSchema = (version: Version, kind: JobKind) => `${version}/${requestName(kind)}` as SchemaName;
const definitionOf = (version: Version, kind: JobKind): TSchema => definitions[version].get(requestName(kind))!;

const isObject = (value: unknown): value is Body => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `value` made safe: see the module comment. `urls` are the site URLs to use. */
export function makeSafe(kind: JobKind, value: Body, urls: readonly string[]): Body {
  const body: Body = { ...value };
  for (const key of DROPPED_REQUEST_FIELDS) delete body[key];
  const dropScrapeOptions = (options: Body) => {
    for (const key of DROPPED_SCRAPE_OPTIONS) delete options[key];
    return options;
  };
  if (kind === 'crawl') {
    body.url = urls[0];
    body.limit = 1;
    if (isObject(body.scrapeOptions)) body.scrapeOptions = dropScrapeOptions({ ...body.scrapeOptions });
    return body;
  }
  body.urls = [...urls];
  return dropScrapeOptions(body);
}

/** The smallest safe body of each kind: one page of the site. */
export function minimalRequest(kind: JobKind, siteUrl: string, path = ''): Body {
  return kind === 'crawl' ? { url: `${siteUrl}${path}`, limit: 1 } : { urls: [`${siteUrl}${path}`] };
}

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

const made = new Map<string, fc.Arbitrary<Body>>();

/** Valid, safe request bodies of `version` and `kind` (as a server receives them: after JSON). */
export function safeRequests(version: Version, kind: JobKind, siteUrl: string): fc.Arbitrary<Body> {
  const key = `${version} ${kind} ${siteUrl}`;
  const known = made.get(key);
  if (known) return known;
  const path = fc.constantFrom(...SITE_PATHS).map((p) => `${siteUrl}${p}`);
  const urls = kind === 'crawl' ? path.map((u) => [u]) : fc.array(path, { minLength: 1, maxLength: 2 });
  const schema = requestSchema(version, kind);
  const arbitrary = fc
    .tuple(arbitraryFor(definitionOf(version, kind), { rules: true, dropOptionalWhenShrinking: true }), urls)
    .map(([value, u]) => json(makeSafe(kind, value as Body, u)))
    .filter((body) => validate(schema, body).valid);
  made.set(key, arbitrary);
  return arbitrary;
}

export interface InvalidRequest {
  readonly body: unknown;
  /** Where the body is broken (the path an error should name). */
  readonly errorPath: Path;
  readonly description: string;
}

export type InvalidKind = MutationKind | 'otherVersionField';

const otherVersion = (version: Version): Version => (version === 'v1' ? 'v2' : 'v1');

/** Fields the other version's request of this kind has and this version's does not. */
export function otherVersionFields(version: Version, kind: JobKind): string[] {
  const own = objectOf(definitionOf(version, kind))!;
  const foreign = objectOf(definitionOf(otherVersion(version), kind))!;
  return Object.keys(foreign.properties).filter((k) => !(k in own.properties));
}

/** Safe bodies broken by one mutation of `mutation` kind: invalid by construction (and by `validate`). */
export function invalidRequests(version: Version, kind: JobKind, mutation: InvalidKind, siteUrl: string): fc.Arbitrary<InvalidRequest> {
  const schema = requestSchema(version, kind);
  const definition = definitionOf(version, kind);
  const valid = safeRequests(version, kind, siteUrl);
  let broken: fc.Arbitrary<InvalidRequest>;
  if (mutation === 'otherVersionField') {
    const foreign = objectOf(definitionOf(otherVersion(version), kind))!;
    const field = fc
      .constantFrom(...otherVersionFields(version, kind))
      .chain((key) => arbitraryFor(foreign.properties[key] as TSchema).map((v) => [key, json(v)] as const));
    broken = fc.tuple(valid, field).map(([body, [key, value]]) => ({
      body: { ...body, [key]: value },
      errorPath: [key],
      description: `${otherVersion(version)}-only field ${key}`,
    }));
  } else {
    broken = valid
      .filter((body) => mutationsOf(definition, body).some((m) => m.kind === mutation))
      .chain((body) =>
        fc
          .constantFrom(...mutationsOf(definition, body).filter((m) => m.kind === mutation))
          .map((m) => ({ body: json(m.apply(body)), errorPath: m.errorPath, description: m.description })),
      );
  }
  return broken.filter((c) => !validate(schema, c.body).valid);
}
