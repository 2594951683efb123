/**
 * withDefaults fills in the interface's defaults (from the definitions' `default` annotations) and nothing
 * else: examples of both versions, no mutation of the input, hostile keys kept as plain own properties, and
 * properties over generated request bodies (idempotent, input kept, validity kept, never throws).
 * Runs: FC_RUNS (default 200) per property and definition.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withDefaults } from '../schemas/defaults.js';
import { definitions, type Version } from '../schemas/registry.js';
import { validate, type SchemaName } from '../schemas/validate.js';
import { arbitraryFor } from '../scripts/contract/generation/arbitrary.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);
const url = 'https://example.com/docs';

type Obj = Record<string, unknown>;
const asObj = (value: unknown): Obj => {
  expect(typeof value === 'object' && value !== null && !Array.isArray(value), `expected an object, got ${JSON.stringify(value)}`).toBe(
    true,
  );
  return value as Obj;
};

function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next !== 'object' || next === null || Object.isFrozen(next)) continue;
    Object.freeze(next);
    for (const key of Object.keys(next)) stack.push((next as Obj)[key]);
  }
  return value;
}

/** Every key/value of `input` is in `output`, at every object level (arrays item by item). */
function isSubset(input: unknown, output: unknown): boolean {
  if (Array.isArray(input)) {
    return Array.isArray(output) && input.length === output.length && input.every((item, i) => isSubset(item, output[i]));
  }
  if (typeof input === 'object' && input !== null) {
    if (typeof output !== 'object' || output === null || Array.isArray(output)) return false;
    return Object.keys(input).every((key) => Object.hasOwn(output, key) && isSubset((input as Obj)[key], (output as Obj)[key]));
  }
  return Object.is(input, output);
}

const V1_SCRAPE_DEFAULTS = {
  maxAge: 0,
  skipTlsVerification: false,
  proxy: 'basic',
  timeout: 30000,
  waitFor: 0,
  onlyMainContent: true,
  parsePDF: true,
  formats: ['markdown'],
  removeBase64Images: true,
  blockAds: true,
  mobile: false,
  storeInCache: true,
};

const V2_SCRAPE_DEFAULTS = {
  maxAge: 172800000,
  skipTlsVerification: true,
  proxy: 'auto',
  timeout: 30000,
  waitFor: 0,
  onlyMainContent: true,
  parsers: ['pdf'],
  formats: ['markdown'],
  removeBase64Images: true,
  blockAds: true,
  mobile: false,
  storeInCache: true,
};

const CRAWL_DEFAULTS = {
  limit: 10000,
  ignoreQueryParameters: false,
  crawlEntireDomain: false,
  allowExternalLinks: false,
  allowSubdomains: false,
  zeroDataRetention: false,
  includePaths: [],
  excludePaths: [],
};

const CRAWL_EXTENSIONS = ['origin', 'deduplicateSimilarURLs', 'ignoreRobotsTxt', 'regexOnFullURL'];
const SCRAPE_EXTENSIONS = ['fastMode', 'onlyCleanContent', 'lockdown'];

describe('withDefaults: examples', () => {
  it('v1 crawl: crawler defaults, no scrapeOptions created, no extension defaults', () => {
    const out = asObj(withDefaults('v1/CrawlRequest', { url }));
    expect(out).toMatchObject({ url, ...CRAWL_DEFAULTS, maxDepth: 10, ignoreSitemap: false, allowBackwardLinks: false });
    expect(out).not.toHaveProperty('scrapeOptions');
    expect(out).not.toHaveProperty('webhook');
    for (const key of CRAWL_EXTENSIONS) expect(out, key).not.toHaveProperty(key);
  });

  it('v1 crawl with scrapeOptions: {} gets the v1 scrape defaults inside', () => {
    const out = asObj(withDefaults('v1/CrawlRequest', { url, scrapeOptions: {} }));
    const scrapeOptions = asObj(out.scrapeOptions);
    expect(scrapeOptions).toEqual(V1_SCRAPE_DEFAULTS);
    for (const key of SCRAPE_EXTENSIONS) expect(scrapeOptions, key).not.toHaveProperty(key);
  });

  it('v2 crawl: sitemap include, no maxDepth, v2 scrape defaults', () => {
    const out = asObj(withDefaults('v2/CrawlRequest', { url, scrapeOptions: {} }));
    expect(out).toMatchObject({ url, ...CRAWL_DEFAULTS, sitemap: 'include' });
    for (const key of ['maxDepth', 'ignoreSitemap', 'allowBackwardLinks', ...CRAWL_EXTENSIONS]) expect(out, key).not.toHaveProperty(key);
    const scrapeOptions = asObj(out.scrapeOptions);
    expect(scrapeOptions).toEqual(V2_SCRAPE_DEFAULTS);
    for (const key of SCRAPE_EXTENSIONS) expect(scrapeOptions, key).not.toHaveProperty(key);
  });

  it('v2 scrape options on their own', () => {
    expect(withDefaults('v2/ScrapeOptions', {})).toEqual(V2_SCRAPE_DEFAULTS);
    expect(withDefaults('v1/ScrapeOptions', {})).toEqual(V1_SCRAPE_DEFAULTS);
  });

  it('batch: ignoreInvalidURLs differs by version, scrape defaults at top level', () => {
    const urls = ['https://example.com/a'];
    const v1 = asObj(withDefaults('v1/BatchScrapeRequest', { urls }));
    expect(v1).toEqual({ urls, ignoreInvalidURLs: false, zeroDataRetention: false, ...V1_SCRAPE_DEFAULTS });
    const v2 = asObj(withDefaults('v2/BatchScrapeRequest', { urls }));
    expect(v2).toEqual({ urls, ignoreInvalidURLs: true, zeroDataRetention: false, ...V2_SCRAPE_DEFAULTS });
    for (const key of ['origin', 'appendToId', ...SCRAPE_EXTENSIONS]) {
      expect(v1, key).not.toHaveProperty(key);
      expect(v2, key).not.toHaveProperty(key);
    }
  });

  it('nested: location, actions', () => {
    for (const version of ['v1', 'v2'] as const) {
      const out = asObj(
        withDefaults(`${version}/ScrapeOptions`, {
          location: {},
          actions: [{ type: 'scroll' }, { type: 'pdf' }, { type: 'click', selector: 'a' }, { type: 'wait', milliseconds: 5 }],
        }),
      );
      expect(out.location).toEqual({ country: 'US' });
      expect(out.actions).toEqual([
        { type: 'scroll', direction: 'down' },
        { type: 'pdf', format: 'Letter', landscape: false, scale: 1 },
        { type: 'click', selector: 'a', all: false },
        { type: 'wait', milliseconds: 5 },
      ]);
    }
  });

  it('webhook: an object gets its defaults, a string stays a string', () => {
    const hook = 'https://hooks.example.com/crawl';
    for (const name of ['v1/CrawlRequest', 'v2/CrawlRequest'] as const) {
      const object = asObj(withDefaults(name, { url, webhook: { url: hook } }));
      expect(object.webhook).toEqual({ url: hook, headers: {}, metadata: {}, events: ['completed', 'failed', 'page', 'started'] });
      const string = asObj(withDefaults(name, { url, webhook: hook }));
      expect(string.webhook).toBe(hook);
    }
    const batch = asObj(withDefaults('v2/BatchScrapeRequest', { urls: [url], webhook: { url: hook, events: ['page'] } }));
    expect(batch.webhook).toEqual({ url: hook, headers: {}, metadata: {}, events: ['page'] });
  });

  it('explicit values are never overwritten (false, 0, null, [])', () => {
    const body = {
      url,
      limit: 0,
      allowExternalLinks: true,
      crawlEntireDomain: false,
      includePaths: [],
      excludePaths: ['^/x'],
      sitemap: 'skip',
      scrapeOptions: {
        onlyMainContent: false,
        maxAge: 0,
        skipTlsVerification: false,
        parsers: [],
        formats: [],
        proxy: 'stealth',
        location: { country: 'DE' },
        actions: [{ type: 'scroll', direction: 'up' }],
        removeBase64Images: null,
      },
    };
    const out = asObj(withDefaults('v2/CrawlRequest', body));
    expect(out).toMatchObject(body);
    expect(asObj(out.scrapeOptions).removeBase64Images).toBeNull();
    const tagged = asObj(withDefaults('v1/ScrapeOptions', { changeTrackingOptions: { tag: 'x' } }));
    expect(tagged.changeTrackingOptions).toEqual({ tag: 'x', modes: [] });
    const nullTag = asObj(withDefaults('v1/ScrapeOptions', { changeTrackingOptions: {} }));
    expect(nullTag.changeTrackingOptions).toEqual({ tag: null, modes: [] });
  });

  it('values of the wrong type are copied unchanged', () => {
    expect(withDefaults('v2/CrawlRequest', null)).toBeNull();
    expect(withDefaults('v2/CrawlRequest', 'https://example.com')).toBe('https://example.com');
    expect(withDefaults('v2/CrawlRequest', [1, { a: 2 }])).toEqual([1, { a: 2 }]);
    expect(withDefaults('v1/CrawlRequest', { url, scrapeOptions: 'fast' })).toMatchObject({ scrapeOptions: 'fast' });
    expect(withDefaults('v1/CrawlRequest', { url, scrapeOptions: null })).toMatchObject({ scrapeOptions: null });
  });

  it('defaults are fresh copies, never shared between outputs', () => {
    const a = asObj(withDefaults('v1/CrawlRequest', { url }));
    const b = asObj(withDefaults('v1/CrawlRequest', { url }));
    expect(a.includePaths).not.toBe(b.includePaths);
    (a.includePaths as unknown[]).push('^/changed');
    expect(withDefaults('v1/CrawlRequest', { url })).toMatchObject({ includePaths: [] });
  });

  it('v1 crawl: a sent allowBackwardLinks is not overridden by a filled-in crawlEntireDomain (the service takes crawlEntireDomain ?? allowBackwardLinks)', () => {
    for (const allowBackwardLinks of [true, false]) {
      const out = asObj(withDefaults('v1/CrawlRequest', { url, allowBackwardLinks }));
      expect(out).toMatchObject({ url, allowBackwardLinks, allowExternalLinks: false, limit: 10000 });
      expect(out, 'crawlEntireDomain').not.toHaveProperty('crawlEntireDomain');
    }
    expect(withDefaults('v1/CrawlRequest', { url, allowBackwardLinks: true, crawlEntireDomain: false })).toMatchObject({
      allowBackwardLinks: true,
      crawlEntireDomain: false,
    });
    expect(withDefaults('v1/CrawlRequest', { url })).toMatchObject({ allowBackwardLinks: false, crawlEntireDomain: false });
    // v2 has no allowBackwardLinks: its crawlEntireDomain default is unconditional.
    expect(withDefaults('v2/CrawlRequest', { url })).toMatchObject({ crawlEntireDomain: false });
  });

  it('a sent waitFor gets no filled-in timeout: the service has no crawl or batch timeout default, so the body stays valid', () => {
    for (const name of ['v1/ScrapeOptions', 'v2/ScrapeOptions', 'v1/BatchScrapeRequest', 'v2/BatchScrapeRequest'] as const) {
      const body = name.endsWith('ScrapeOptions') ? { waitFor: 20000 } : { urls: [url], waitFor: 20000 };
      const out = asObj(withDefaults(name, body));
      expect(out, name).not.toHaveProperty('timeout');
      expect(validate(name, out), name).toEqual({ valid: true });
      expect(withDefaults(name, { ...body, timeout: 60000 }), name).toMatchObject({ waitFor: 20000, timeout: 60000 });
    }
    expect(withDefaults('v2/ScrapeOptions', {})).toMatchObject({ timeout: 30000, waitFor: 0 });
  });

  it('an unknown name is a RangeError', () => {
    expect(() => withDefaults('v3/CrawlRequest' as SchemaName, {})).toThrow(RangeError);
    expect(() => withDefaults('v1/Nope' as SchemaName, {})).toThrow(RangeError);
  });
});

describe('withDefaults: the input is left alone', () => {
  it('does not mutate a deep-frozen input and returns new objects', () => {
    const body = {
      url,
      webhook: { url: 'https://hooks.example.com/x', metadata: { a: 'b' } },
      scrapeOptions: { location: {}, actions: [{ type: 'pdf' }], formats: ['markdown', { type: 'screenshot' }], headers: { x: 'y' } },
    };
    const before = structuredClone(body);
    const out = asObj(withDefaults('v2/CrawlRequest', deepFreeze(body)));
    expect(body).toEqual(before);
    expect(out).not.toBe(body);
    expect(out.webhook).not.toBe(body.webhook);
    expect(out.scrapeOptions).not.toBe(body.scrapeOptions);
    expect(asObj(out.scrapeOptions).headers).not.toBe(body.scrapeOptions.headers);
    expect(asObj(out.scrapeOptions).formats).not.toBe(body.scrapeOptions.formats);
  });

  it('hostile keys become ordinary own properties; no prototype changes', () => {
    const input = JSON.parse('{"url":"https://example.com","__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}') as Obj;
    for (const name of ['v1/CrawlRequest', 'v2/CrawlRequest'] as const) {
      const out = asObj(withDefaults(name, input));
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual({ polluted: true });
      expect(Object.getOwnPropertyDescriptor(out, 'constructor')?.value).toEqual({ prototype: { x: 1 } });
      expect(out.limit).toBe(10000);
      expect(({} as Obj).polluted).toBeUndefined();
      expect(({} as Obj).x).toBeUndefined();
    }
    // Keys that name Object.prototype members are not read through the prototype chain.
    const nested = asObj(
      withDefaults('v2/ScrapeOptions', JSON.parse('{"headers":{"__proto__":"a","toString":"b"},"location":{"__proto__":{}}}')),
    );
    expect(Object.getOwnPropertyDescriptor(nested.headers, '__proto__')?.value).toBe('a');
    expect(Object.getPrototypeOf(nested.headers)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(nested.location, '__proto__')?.value).toEqual({});
    expect(asObj(nested.location).country).toBe('US');
  });

  it('does not blow the stack on deep input', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 1000; i++) deep = { a: [deep] };
    const out = asObj(withDefaults('v2/CrawlRequest', { url, scrapeOptions: { headers: {} }, extra: deep }));
    expect(out.extra).toEqual(deep);
    expect(out.extra).not.toBe(deep);
  });
});

const REQUESTS = [
  ['v1', 'CrawlRequest'],
  ['v2', 'CrawlRequest'],
  ['v1', 'BatchScrapeRequest'],
  ['v2', 'BatchScrapeRequest'],
  ['v1', 'ScrapeOptions'],
  ['v2', 'ScrapeOptions'],
] as const satisfies readonly (readonly [Version, string])[];

describe('withDefaults: properties of generated request bodies', () => {
  for (const [version, definitionName] of REQUESTS) {
    const name = `${version}/${definitionName}` as SchemaName;
    const definition = definitions[version].get(definitionName);
    if (definition === undefined) throw new Error(`no definition ${name}`);
    const bodies = arbitraryFor(definition).map((v) => JSON.parse(JSON.stringify(v)) as unknown);

    it(`${name}: idempotent, never mutates, keeps the input`, () => {
      fc.assert(
        fc.property(bodies, (body) => {
          const before = structuredClone(body);
          const once = withDefaults(name, deepFreeze(body));
          expect(body).toEqual(before);
          expect(withDefaults(name, once)).toEqual(once);
          expect(isSubset(body, once)).toBe(true);
        }),
        { numRuns },
      );
    });

    it(`${name}: a valid body stays valid`, () => {
      fc.assert(
        fc.property(bodies, (body) => {
          fc.pre(validate(name, body).valid);
          const filled = withDefaults(name, body);
          const result = validate(name, filled);
          expect(result.valid ? [] : result.errors, JSON.stringify(filled)).toEqual([]);
        }),
        { numRuns },
      );
    });

    it(`${name}: never throws on anything`, () => {
      fc.assert(
        fc.property(fc.anything(), (value) => {
          const out = withDefaults(name, value);
          if (typeof value !== 'object' || value === null) expect(out).toBe(value);
        }),
        { numRuns },
      );
    });
  }
});

describe("withDefaults at service level: the service's own defaults as of 2026-08-21, the interface's elsewhere", () => {
  const options = (name: SchemaName, body: unknown, level?: 'interface' | 'service') =>
    asObj(asObj(withDefaults(name, body, level))['scrapeOptions']);

  it('v1 maxAge: 0 at interface level (interface §2.3), one day at service level (since 2025-10-26)', () => {
    expect(options('v1/CrawlRequest', { url, scrapeOptions: {} })['maxAge']).toBe(0);
    expect(options('v1/CrawlRequest', { url, scrapeOptions: {} }, 'service')['maxAge']).toBe(86400000);
    expect(asObj(withDefaults('v1/BatchScrapeRequest', { urls: [url] }, 'service'))['maxAge']).toBe(86400000);
    // v2 has no service default of its own: the interface's two days at both levels.
    expect(options('v2/CrawlRequest', { url, scrapeOptions: {} }, 'service')['maxAge']).toBe(172800000);
  });

  it('skipTlsVerification at service level follows headers and actions (since 2025-09-28), in both versions', () => {
    expect(options('v1/CrawlRequest', { url, scrapeOptions: {} })['skipTlsVerification']).toBe(false);
    expect(options('v1/CrawlRequest', { url, scrapeOptions: {} }, 'service')['skipTlsVerification']).toBe(true);
    expect(options('v2/CrawlRequest', { url, scrapeOptions: { headers: { Cookie: 'a=1' } } }, 'service')['skipTlsVerification']).toBe(
      false,
    );
    expect(options('v2/CrawlRequest', { url, scrapeOptions: { actions: [{ type: 'scrape' }] } }, 'service')['skipTlsVerification']).toBe(
      false,
    );
    // Empty headers and actions are nothing sent.
    expect(options('v2/CrawlRequest', { url, scrapeOptions: { headers: {}, actions: [] } }, 'service')['skipTlsVerification']).toBe(true);
    expect(options('v2/CrawlRequest', { url, scrapeOptions: { headers: { Cookie: 'a=1' } } })['skipTlsVerification']).toBe(true);
  });

  it("location.country: 'US' at interface level (§2.5), 'us-generic' at service level; a sent value stays", () => {
    expect(asObj(options('v2/CrawlRequest', { url, scrapeOptions: { location: {} } })['location'])['country']).toBe('US');
    expect(asObj(options('v2/CrawlRequest', { url, scrapeOptions: { location: {} } }, 'service')['location'])['country']).toBe(
      'us-generic',
    );
    const sent = { url, scrapeOptions: { location: { country: 'DE' }, maxAge: 5, skipTlsVerification: false } };
    expect(options('v1/CrawlRequest', sent, 'service')).toMatchObject(sent.scrapeOptions);
  });
});
