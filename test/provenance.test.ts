/**
 * Every field of every definition says what it means and where it comes from: a description, and an
 * `x-crawlspec-source` (on the field, or on the definition it refers to). Extension fields are marked.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { definitions, VERSIONS } from '../schemas/registry.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { refusal } from '../scripts/contract/engine/expect.js';
import { INTERFACE_SECTIONS } from './support/interfaceSections.js';

type Schema = Record<string, unknown>;
const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every property schema of `schema` and of the schemas nested in it, with its path. */
function properties(schema: Schema, path: string): [string, Schema][] {
  const out: [string, Schema][] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isSchema(value)) {
      for (const [name, property] of Object.entries(value)) {
        if (!isSchema(property)) continue;
        out.push([`${path}.${name}`, property], ...properties(property, `${path}.${name}`));
      }
    } else if (['items', 'additionalProperties'].includes(key) && isSchema(value)) {
      out.push(...properties(value, `${path}[]`));
    } else if (['anyOf', 'oneOf'].includes(key) && Array.isArray(value)) {
      value.filter(isSchema).forEach((branch, i) => out.push(...properties(branch, `${path}|${i}`)));
    }
  }
  return out;
}

for (const version of VERSIONS) {
  describe(`${version}: every field has a description and a source`, () => {
    for (const name of definitions[version].keys()) {
      const file = JSON.parse(readFileSync(new URL(`../generated/schemas/${version}/${name}.json`, import.meta.url), 'utf8')) as Schema;
      const defs = (file.$defs ?? {}) as Record<string, Schema>;
      const resolve = (s: Schema): Schema => (typeof s.$ref === 'string' ? { ...defs[s.$ref.replace('#/$defs/', '')], ...s } : s);

      it(name, () => {
        expect(file.description, `${name} itself`).toEqual(expect.any(String));
        expect(file['x-crawlspec-source'], `${name} itself`).toMatch(/^(interface §\d+(\.\d+)?|service)$/);
        const missing = properties(file, name)
          .map(([path, property]) => [path, resolve(property)] as const)
          .filter(([, p]) => typeof p.description !== 'string' || typeof p['x-crawlspec-source'] !== 'string')
          .map(([path]) => path);
        expect(missing).toEqual([]);
      });
    }
  });
}

/** Keywords that constrain a value beyond its type, its enum values and its shape. */
const CONSTRAINT_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'required',
  'contains',
  'not',
];

/**
 * Every schema element below `schema` (not below a `$ref`, nor inside a rule written as a schema, which carries
 * its own source), with its path: the elements a validator can point an error at.
 */
function elements(schema: Schema, path: string): [string, Schema][] {
  if ('$ref' in schema || ('x-crawlspec-rules' in schema && !('x-crawlspec-source' in schema))) return [];
  const out: [string, Schema][] = [[path, schema]];
  for (const [key, value] of Object.entries(schema)) {
    if (['properties', 'patternProperties'].includes(key) && isSchema(value))
      for (const [name, member] of Object.entries(value)) if (isSchema(member)) out.push(...elements(member, `${path}.${name}`));
    if (['anyOf', 'oneOf', 'allOf'].includes(key) && Array.isArray(value))
      value.filter(isSchema).forEach((member, i) => out.push(...elements(member, `${path}/${key}${i}`)));
    if (['items', 'not', 'contains', 'additionalProperties'].includes(key) && isSchema(value))
      out.push(...elements(value, `${path}/${key}`));
  }
  return out;
}

/** The constraints of `element` whose source is not said: keywords, and for `required` the properties. */
function unsourced(element: Schema): string[] {
  const sources = isSchema(element['x-crawlspec-keyword-sources']) ? element['x-crawlspec-keyword-sources'] : {};
  // A keyword that stands for a rule has the rule's source.
  const ruled = new Set(Array.isArray(element['x-crawlspec-rules']) ? element['x-crawlspec-rules'].map((r: Schema) => r.keyword) : []);
  const present = CONSTRAINT_KEYWORDS.filter((k) => k in element && !ruled.has(k));
  if (element.additionalProperties === false) present.push('additionalProperties');
  return present.flatMap((keyword) => {
    const source = sources[keyword];
    if (typeof source === 'string') return [];
    if (keyword === 'required' && isSchema(source) && Array.isArray(element.required))
      return (element.required as string[]).filter((p) => typeof source[p] !== 'string').map((p) => `required ${p}`);
    return [keyword];
  });
}

for (const version of VERSIONS) {
  describe(`${version}: every constraint on what the interface states says where it comes from`, () => {
    for (const name of definitions[version].keys()) {
      const file = JSON.parse(readFileSync(new URL(`../generated/schemas/${version}/${name}.json`, import.meta.url), 'utf8')) as Schema;
      it(name, () => {
        const defs = Object.entries((file.$defs ?? {}) as Record<string, Schema>);
        const missing = [[name, file] as const, ...defs]
          .flatMap(([root, schema]) => elements({ ...schema, $defs: undefined }, root))
          .filter(
            ([, element]) => typeof element['x-crawlspec-source'] === 'string' && element['x-crawlspec-source'].startsWith('interface'),
          )
          .flatMap(([path, element]) => unsourced(element).map((keyword) => `${path}: ${keyword}`));
        expect(missing).toEqual([]);
      });
    }
  });
}

describe('sources are sections of the interface, or the service', () => {
  it('every x-crawlspec-keyword-sources entry and rule source is well formed', () => {
    const text = readFileSync(new URL('../generated/openapi/openapi.json', import.meta.url), 'utf8');
    const named = [...text.matchAll(/"(?:x-crawlspec-source|source|[A-Za-z]+)": "((?:interface|service)[^"]*)"/g)].map((m) => m[1]!);
    expect(named.length).toBeGreaterThan(50);
    for (const source of named) expect(source).toMatch(/^(interface §\d+(\.\d+)?|service)$/);
  });
});

/**
 * What each schema cites from the interface, as words the cited section must state: the name of a field cited
 * from a section, and the figure of a bound whose keyword is cited from one (v2 `timeout`'s `maximum` 300000
 * from §2.4). A bound the section does not give is the service's, and must say so.
 */
function citations(schema: unknown, path: string, out: { at: string; section: string; word: string }[] = []) {
  if (!isSchema(schema)) return out;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && isSchema(value))
      for (const [name, property] of Object.entries(value)) {
        if (!isSchema(property)) continue;
        const section = /^interface (§\S+)$/.exec(String(property['x-crawlspec-source']))?.[1];
        if (section !== undefined) out.push({ at: `${path}.${name}`, section, word: name });
        const sources = isSchema(property['x-crawlspec-keyword-sources']) ? property['x-crawlspec-keyword-sources'] : {};
        for (const [keyword, source] of Object.entries(sources)) {
          const bound = /^interface (§\S+)$/.exec(String(source))?.[1];
          if (bound !== undefined && typeof property[keyword] === 'number')
            out.push({ at: `${path}.${name} ${keyword}`, section: bound, word: String(property[keyword]) });
        }
        citations(property, `${path}.${name}`, out);
      }
    else if (typeof value === 'object' && value !== null) citations(value, `${path}/${key}`, out);
  }
  return out;
}

describe('a field or bound cited from the interface is one the cited section states', () => {
  const document = JSON.parse(readFileSync(new URL('../generated/openapi/openapi.json', import.meta.url), 'utf8')) as Schema;
  const found = citations((document.components as Schema).schemas, '');

  it('the documents cite fields and bounds', () => {
    expect(found.length).toBeGreaterThan(100);
    expect(found).toContainEqual({ at: '/V2ScrapeOptions.timeout maximum', section: '§2.4', word: '300000' });
  });

  it('no citation names a section that does not say it', () => {
    const untrue = found.filter((c) => !(INTERFACE_SECTIONS[c.section] ?? []).includes(c.word)).map((c) => `${c.at}: ${c.section}`);
    expect(untrue).toEqual([]);
  });

  it('v2 wait action: type and milliseconds from §2.4, selector from §2.6 (§2.4 names the wait for an element, not its field)', () => {
    const wait = found.filter((c) => c.at.startsWith('/V2WaitAction.')).map((c) => `${c.word} ${c.section}`);
    expect(wait).toEqual(['type §2.4', 'milliseconds §2.4', 'selector §2.6']);
    expect(found.filter((c) => c.at.startsWith('/V1WaitAction.')).map((c) => `${c.word} ${c.section}`)).toEqual([
      'type §2.3',
      'milliseconds §2.3',
      'selector §2.3',
    ]);
  });
});

describe('validate() tells where each broken constraint comes from, per keyword', () => {
  const sourceOf = (name: SchemaName, body: unknown, path: string) => {
    const result = validate(name, body);
    return result.valid ? 'valid' : result.errors.find((e) => e.path === path)?.source;
  };
  const crawl = (scrapeOptions: Record<string, unknown>) => ({ url: 'https://example.com', scrapeOptions });
  it.each([
    ['v2 timeout above the maximum', 'v2/CrawlRequest', crawl({ timeout: 300001 }), '$.scrapeOptions.timeout', 'interface §2.4'],
    ['v2 timeout below the minimum', 'v2/CrawlRequest', crawl({ timeout: 999 }), '$.scrapeOptions.timeout', 'service'],
    ['v1 timeout of the wrong type', 'v1/CrawlRequest', crawl({ timeout: 'x' }), '$.scrapeOptions.timeout', 'interface §2.3'],
    ['delay above 60 (a rule)', 'v2/CrawlRequest', { url: 'https://example.com', delay: 61 }, '$.delay', 'service'],
    ['limit that is not an integer', 'v1/CrawlRequest', { url: 'https://example.com', limit: 1.5 }, '$.limit', 'interface §2.1'],
    ['crawl without url', 'v2/CrawlRequest', {}, '$.url', 'interface §2.1'],
    ['unknown key', 'v2/CrawlRequest', { url: 'https://example.com', nope: 1 }, '$.nope', 'service'],
    ['sitemap outside its values', 'v2/CrawlRequest', { url: 'https://example.com', sitemap: 'never' }, '$.sitemap', 'interface §2.1'],
    ['crawl url that is no URL at all', 'v2/CrawlRequest', { url: 'not a url' }, '$.url', 'interface §2.1'],
    ['crawl url with an ftp scheme', 'v2/CrawlRequest', { url: 'ftp://example.com/a' }, '$.url', 'service'],
    ['batch entry that is no URL at all', 'v1/BatchScrapeRequest', { urls: ['not a url'] }, '$.urls[0]', 'interface §4'],
    ['batch entry without a top-level domain', 'v1/BatchScrapeRequest', { urls: ['http://localhost'] }, '$.urls[0]', 'service'],
    [
      'v1 changeTracking without markdown',
      'v1/CrawlRequest',
      crawl({ formats: ['changeTracking'] }),
      '$.scrapeOptions.formats',
      'interface §2.3',
    ],
    ['v2 changeTracking without markdown', 'v2/CrawlRequest', crawl({ formats: ['changeTracking'] }), '$.scrapeOptions.formats', 'service'],
    ['click action without selector', 'v2/ScrapeOptions', { actions: [{ type: 'click' }] }, '$.actions[0].selector', 'service'],
    ['action without type', 'v2/ScrapeOptions', { actions: [{ milliseconds: 5 }] }, '$.actions[0].type', 'interface §2.4'],
    ['an include tag of the wrong type', 'v1/ScrapeOptions', { includeTags: ['main', 5] }, '$.includeTags[1]', 'interface §2.3'],
    ['start answer without id', 'v2/CrawlStartResponse', { success: true, url: 'https://example.com/v2/crawl/x' }, '$.id', 'interface §4'],
  ] as const)('%s', (_title, name, body, path, source) => {
    expect(sourceOf(name as SchemaName, body, path)).toBe(source);
  });
});

describe("the kit's levels follow the keyword: a bound only the service has is never expected at interface level", () => {
  const url = 'https://example.com';
  const crawl = (scrapeOptions: Record<string, unknown>) => ({ url, scrapeOptions });
  it.each([
    ['v1 timeout below 1000', 'v1', 'CrawlRequest', crawl({ timeout: 999 })],
    ['v2 timeout below 1000', 'v2', 'CrawlRequest', crawl({ timeout: 999 })],
    ['v1 waitFor above 60000', 'v1', 'CrawlRequest', crawl({ waitFor: 60001 })],
    ['v2 waitFor above 60000', 'v2', 'BatchScrapeRequest', { urls: [url], waitFor: 60001 }],
    ['crawl maxConcurrency below 1', 'v2', 'CrawlRequest', { url, maxConcurrency: 0 }],
    ['batch maxConcurrency below 1', 'v1', 'BatchScrapeRequest', { urls: [url], maxConcurrency: 0 }],
    [
      'systemPrompt over 10000 characters',
      'v1',
      'CrawlRequest',
      crawl({ formats: ['json'], jsonOptions: { systemPrompt: 's'.repeat(10001) } }),
    ],
    ['delay above 60', 'v1', 'CrawlRequest', { url, delay: 61 }],
  ] as const)('%s: refused at service level only', (_title, version, schema, body) => {
    const result = validate(`${version}/${schema}`, body);
    expect([...new Set(result.valid ? [] : result.errors.map((e) => e.source))]).toEqual(['service']);
    const expectation = refusal(version, `${version}/${schema}`, body, 'the body');
    expect(expectation.service.status).toBe(400);
    expect(expectation.interface).toBeUndefined();
  });

  it('v2 timeout above 300000 is refused at interface level, citing §2.4', () => {
    const expectation = refusal('v2', 'v2/CrawlRequest', crawl({ timeout: 300001 }), 'the body');
    expect(expectation.interface).toMatchObject({ outcome: 'refused', section: 'interface §2.4' });
  });
});

/**
 * The service's dated history (issue 44): `x-crawlspec-service-since` dates only what is the service's, and
 * `x-crawlspec-service-default` stands beside an interface default it differs from, never in its place.
 */
describe('dates of the service: only the service part of an element is dated, with a date of its history', () => {
  const document = JSON.parse(readFileSync(new URL('../generated/openapi/openapi.json', import.meta.url), 'utf8')) as Schema;
  /** Every schema element of the components holding `keyword`, with its path. */
  const holding = (keyword: string): [string, Schema][] => {
    const out: [string, Schema][] = [];
    const walk = (value: unknown, path: string): void => {
      if (Array.isArray(value)) value.forEach((item, i) => walk(item, `${path}/${i}`));
      else if (isSchema(value)) {
        if (keyword in value) out.push([path, value]);
        for (const [key, member] of Object.entries(value)) if (!key.startsWith('x-crawlspec')) walk(member, `${path}/${key}`);
      }
    };
    walk((document.components as Schema).schemas, '');
    return out;
  };
  // From B (2025-08-25) to the state of the service's main branch that its dated history describes.
  const DATE = /^(?:by 2026-08-21|(2025-(?:08-(?:2[5-9]|3[01])|09-\d\d|1[0-2]-\d\d)|2026-(?:0[1-7]-\d\d|08-(?:[01]\d|2[01]))))$/;
  const sourceOf = (element: Schema, keyword: string): unknown => {
    const sources = isSchema(element['x-crawlspec-keyword-sources']) ? element['x-crawlspec-keyword-sources'] : {};
    return sources[keyword] ?? element['x-crawlspec-source'];
  };
  /** What is wrong with the date of `element` (an empty list when nothing). */
  function misdated(path: string, element: Schema): string[] {
    const since = element['x-crawlspec-service-since'];
    if (typeof since === 'string')
      return [
        ...(DATE.test(since) ? [] : [`${path}: ${since} is no date of the service's history`]),
        ...(element['x-crawlspec-source'] === 'service'
          ? []
          : [`${path}: dated as a whole, but its source is ${String(element['x-crawlspec-source'])}`]),
      ];
    if (!isSchema(since)) return [`${path}: neither a date nor an object`];
    return Object.entries(since).flatMap(([keyword, date]) => {
      if (keyword === 'enum' && isSchema(date)) {
        const extensionValues = (element['x-crawlspec-extension-values'] ?? []) as unknown[];
        const ownValues = (element.enum ?? []) as unknown[];
        return Object.entries(date).flatMap(([value, d]) => [
          ...(typeof d === 'string' && DATE.test(d) ? [] : [`${path} enum ${value}: ${String(d)} is no date`]),
          ...(ownValues.includes(value) ? [] : [`${path}: dates ${value}, which is not one of its values`]),
          ...(element['x-crawlspec-source'] === 'service' || extensionValues.includes(value)
            ? []
            : [`${path}: dates ${value}, a value the interface states`]),
        ]);
      }
      return [
        ...(typeof date === 'string' && DATE.test(date) ? [] : [`${path} ${keyword}: ${String(date)} is no date`]),
        ...(keyword === 'description' || keyword in element ? [] : [`${path}: dates ${keyword}, which it does not have`]),
        ...(sourceOf(element, keyword) === 'service'
          ? []
          : [`${path}: dates ${keyword}, whose source is ${String(sourceOf(element, keyword))}`]),
      ];
    });
  }

  it('each dated element dates the service part of it, with a date from 2025-08-25 to 2026-08-21', () => {
    const dated = holding('x-crawlspec-service-since');
    expect(dated.length).toBeGreaterThan(40);
    expect(dated.flatMap(([path, element]) => misdated(path, element))).toEqual([]);
  });

  it('a dated enum value the interface states is refused (the check can fail)', () => {
    const element = { enum: ['basic', 'enhanced'], 'x-crawlspec-source': 'interface §2.4', 'x-crawlspec-extension-values': ['enhanced'] };
    expect(misdated('/p', { ...element, 'x-crawlspec-service-since': { enum: { enhanced: '2026-01-29' } } })).toEqual([]);
    expect(misdated('/p', { ...element, 'x-crawlspec-service-since': { enum: { basic: '2026-01-29' } } })).toEqual([
      '/p: dates basic, a value the interface states',
    ]);
    expect(misdated('/p', { ...element, 'x-crawlspec-service-since': { maximum: '2026-01-29' } })).toHaveLength(2);
    expect(misdated('/p', { 'x-crawlspec-source': 'service', 'x-crawlspec-service-since': '2025-06-01' })).toHaveLength(1);
  });

  it('the changes of the history are dated where they stand', () => {
    const at = Object.fromEntries(holding('x-crawlspec-service-since').map(([path, e]) => [path, e['x-crawlspec-service-since']]));
    expect(at['/V2PlainFormat']).toEqual({ additionalProperties: '2025-12-03' });
    expect(at['/V1ScrapeOptions/properties/timeout']).toEqual({ minimum: '2026-01-21' });
    expect(at['/V2CrawlRequest/properties/delay']).toEqual({ maximum: '2026-06-03' });
    expect(at['/V2BatchScrapeRequest/properties/urls']).toEqual({ minItems: '2025-10-10' });
    expect(at['/V2DeterministicJsonFormat']).toBe('2026-06-04');
  });

  it("each rule with a date is the service's, and the rules the history added are dated", () => {
    const rules = holding('x-crawlspec-rules').flatMap(([, e]) => e['x-crawlspec-rules'] as Schema[]);
    const dated = rules.filter((r) => r.since !== undefined);
    expect(dated.filter((r) => r.source !== 'service' || !DATE.test(String(r.since)))).toEqual([]);
    expect(Object.fromEntries(dated.map((r) => [r.id, r.since]))).toMatchObject({
      rawBase64Alone: '2026-08-21',
      jsonOrDeterministicJson: '2026-06-04',
      integrationName: '2025-09-03',
      delayAtMost60Seconds: '2026-06-03',
    });
  });

  it("a service default stands beside the interface's own and says something it does not", () => {
    const found = holding('x-crawlspec-service-default');
    expect(found.map(([path]) => path)).toContain('/V1ScrapeOptions/properties/maxAge');
    for (const [path, element] of found) {
      const d = element['x-crawlspec-service-default'] as Schema;
      expect(DATE.test(String(d.since)), path).toBe(true);
      expect(element.default, `${path}: the interface's default stays`).toBeDefined();
      expect(typeof d.value, path).toBe(typeof element.default);
      // Else it would say nothing the interface's default does not: it differs, depends on other fields, or is in flux.
      expect(d.value !== element.default || d.ifNonEmpty !== undefined || typeof d.inFlux === 'string', path).toBe(true);
    }
    const maxAge = found.find(([path]) => path === '/V1ScrapeOptions/properties/maxAge')![1];
    expect([maxAge.default, (maxAge['x-crawlspec-service-default'] as Schema).value]).toEqual([0, 86400000]);
  });
});
