/**
 * Request bodies safe to send to a real, paid service: valid bodies generated from the definitions, then
 * forced to stay small and harmless. Every URL points at the one site the run is allowed to scrape; a crawl
 * stops after one page; a batch has one or two URLs; nothing is delivered elsewhere (no webhook), nothing
 * is appended to another job, no data-retention or browser-profile side effects, no browser actions, no
 * prompt for a model to turn into crawler options.
 *
 * Valid bodies come at two levels: `interface` ones are made of what the interface states only (no service
 * extension field, value or union branch, no key beyond the listed ones), so the interface itself requires
 * them accepted; `service` ones may carry the service's extensions too.
 */
import fc from 'fast-check';
import type { TSchema } from '@sinclair/typebox';
import { definitions, type Version } from '../../../schemas/registry.js';
import { objectOf } from '../../../schemas/rule.js';
import { jsonPath } from '../../../schemas/issues.js';
import { validate, type SchemaName } from '../../../schemas/validate.js';
import { arbitraryFor } from './arbitrary.js';
import { levelOf, type Level } from '../spec/levels.js';
import { mutationsOf, type MutationKind, type Path } from './mutations.js';
import type { JobKind } from '../spec/operations.js';

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

/** Valid, safe request bodies of `version` and `kind` at `level` (as a server receives them: after JSON). */
export function safeRequests(version: Version, kind: JobKind, siteUrl: string, level: Level = 'service'): fc.Arbitrary<Body> {
  const key = `${version} ${kind} ${siteUrl} ${level}`;
  const known = made.get(key);
  if (known) return known;
  const path = fc.constantFrom(...SITE_PATHS).map((p) => `${siteUrl}${p}`);
  const urls = kind === 'crawl' ? path.map((u) => [u]) : fc.array(path, { minLength: 1, maxLength: 2 });
  const schema = requestSchema(version, kind);
  const options = { rules: true, dropOptionalWhenShrinking: true, interfaceOnly: level === 'interface' };
  const arbitrary = fc
    .tuple(arbitraryFor(definitionOf(version, kind), options), urls)
    .map(([value, u]) => json(makeSafe(kind, value as Body, u)))
    .filter((body) => validate(schema, body).valid);
  made.set(key, arbitrary);
  return arbitrary;
}

export interface InvalidRequest {
  readonly body: unknown;
  /** The valid body it was broken from: what its refusal is held against (baseline.ts). */
  readonly base: unknown;
  /** Where the body is broken (the path an error should name). */
  readonly errorPath: Path;
  readonly description: string;
  /** The rule `validate` reports there (a JSON Schema keyword or a rule id). */
  readonly rule: string;
  /** The level of the broken constraint: `interface` when the interface itself refuses the body. */
  readonly level: Level;
}

export type InvalidKind = MutationKind | 'otherVersionField';

const otherVersion = (version: Version): Version => (version === 'v1' ? 'v2' : 'v1');

/** Fields the other version's request of this kind has and this version's does not. */
export function otherVersionFields(version: Version, kind: JobKind): string[] {
  const own = objectOf(definitionOf(version, kind))!;
  const foreign = objectOf(definitionOf(otherVersion(version), kind))!;
  return Object.keys(foreign.properties).filter((k) => !(k in own.properties));
}

/**
 * Safe bodies broken by one mutation of `mutation` kind: invalid by construction (and by `validate`), each broken
 * from a valid body of the run's `level` (its base, baseline.ts).
 */
export function invalidRequests(
  version: Version,
  kind: JobKind,
  mutation: InvalidKind,
  siteUrl: string,
  level: Level = 'service',
): fc.Arbitrary<InvalidRequest> {
  const schema = requestSchema(version, kind);
  const definition = definitionOf(version, kind);
  // At interface level, bodies of interface fields only: an implementation of the interface may refuse an extension
  // (a base it refuses proves nothing), and what breaks one is the service's to judge. At service level mostly
  // those, so that most mutations break what the interface states, and some with the service's extensions too, so
  // that their constraints are tried as well.
  const valid =
    level === 'interface'
      ? safeRequests(version, kind, siteUrl, 'interface')
      : fc.oneof(
          { weight: 2, arbitrary: safeRequests(version, kind, siteUrl, 'interface') },
          { weight: 1, arbitrary: safeRequests(version, kind, siteUrl, 'service') },
        );
  let broken: fc.Arbitrary<Omit<InvalidRequest, 'rule' | 'level'>>;
  if (mutation === 'otherVersionField') {
    const foreign = objectOf(definitionOf(otherVersion(version), kind))!;
    const field = fc
      .constantFrom(...otherVersionFields(version, kind))
      .chain((key) => arbitraryFor(foreign.properties[key] as TSchema).map((v) => [key, json(v)] as const));
    broken = fc.tuple(valid, field).map(([body, [key, value]]) => ({
      body: { ...body, [key]: value },
      base: body,
      errorPath: [key],
      description: `${otherVersion(version)}-only field ${key}`,
    }));
  } else {
    // The mutation is picked by rendezvous hashing: each of the body's mutations of this kind is scored by a
    // hash of a drawn number and the mutation's place, and the highest score wins. Every place is as likely
    // to be picked, and shrinking the body (dropping the fields around the broken one) keeps the same
    // mutation as long as its place is still there, where a choice chained on the body would jump elsewhere.
    // Most of the time only the mutations breaking a constraint the interface states take part.
    const ofKind = (body: Body, interfaceOnly: boolean) => {
      const all = mutationsOf(definition, body).filter((m) => m.kind === mutation);
      const stated = interfaceOnly ? all.filter((m) => brokenLevel(schema, m.apply(body)) === 'interface') : [];
      return stated.length > 0 ? stated : all;
    };
    broken = fc
      .tuple(
        valid.filter((body) => ofKind(body, false).length > 0),
        fc.constantFrom(true, true, false),
        fc.nat(),
      )
      .map(([body, interfaceOnly, draw]) => {
        const m = highestScore(ofKind(body, interfaceOnly), (c) => `${draw}|${c.errorPath.join('/')}|${c.description}`);
        return { body: json(m.apply(body)), base: body, errorPath: m.errorPath, description: m.description };
      });
  }
  return broken
    .map((c) => {
      const result = validate(schema, c.body);
      if (result.valid) return undefined;
      const at = result.errors.find((e) => e.path === jsonPath(c.errorPath)) ?? result.errors[0]!;
      return { ...c, rule: at.rule, level: brokenLevel(schema, c.body) };
    })
    .filter((c): c is InvalidRequest => c !== undefined);
}

/** FNV-1a, 32 bits: a fast, well-spread hash of a short text (nothing here needs a cryptographic one). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The candidate whose key hashes highest (rendezvous hashing); `candidates` is not empty. */
function highestScore<T>(candidates: readonly T[], key: (candidate: T) => string): T {
  let best = 0;
  let bestScore = -1;
  candidates.forEach((candidate, i) => {
    const score = fnv1a(key(candidate));
    if (score > bestScore) [best, bestScore] = [i, score];
  });
  return candidates[best]!;
}

/** `interface` when the interface itself refuses `body` (one of its problems breaks a constraint it states), else `service`. */
function brokenLevel(schema: SchemaName, body: unknown): Level {
  const result = validate(schema, body);
  return !result.valid && result.errors.some((e) => e.source !== undefined && levelOf(e.source) === 'interface') ? 'interface' : 'service';
}
