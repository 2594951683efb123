/**
 * The crawl URL rule, clause by clause, from both sides: each example is its own test and names the message
 * the service gives for it. Then properties: nothing throws, ordinary web URLs pass, the two entry points
 * agree, and the shorthand expansion is idempotent. Runs: FC_RUNS (default 200) per property.
 */
import fc from 'fast-check';
import { parse as parseHost } from 'tldts';
import { describe, expect, it } from 'vitest';
import { batchUrlsUsable, partitionProblems } from '../schemas/codeRules/batchUrls.js';
import { urlDepth, writtenPath, writtenPathDepth } from '../schemas/codeRules/crawlUrl.js';
import {
  clauseProblem,
  crawlUrlProblem,
  isCrawlUrl,
  isPlainCrawlUrl,
  normalizeCrawlUrl,
  plainOriginEnd,
} from '../schemas/shared/crawlUrl.js';
import { isIcannTopLevel, isIcannTopLevelAt } from '../schemas/shared/topLevelDomains.js';
import { ICANN_TOP_LEVEL_DOMAINS } from '../generated/fast/topLevelDomains.js';
import { withCpuMs } from './support/cpuTime.js';

const numRuns = Number(process.env.FC_RUNS ?? 200);

const NOT_STRING = 'Expected string';
const INVALID = 'Invalid URL';
const PROTOCOL = 'URL uses unsupported protocol';
const HOST = 'URL must have a valid top-level domain or be an IP address';

type Case = readonly [input: unknown, expected: string | undefined];

/** Valid (`undefined`) and invalid examples, grouped by the clause they exercise. */
const CLAUSES: ReadonlyArray<readonly [clause: string, cases: readonly Case[]]> = [
  [
    '1. a string',
    [
      ['https://example.com', undefined],
      [null, NOT_STRING],
      [undefined, NOT_STRING],
      [42, NOT_STRING],
      [true, NOT_STRING],
      [{}, NOT_STRING],
      [[], NOT_STRING],
      [['https://example.com'], NOT_STRING],
      [new String('https://example.com'), NOT_STRING],
    ],
  ],
  [
    '2. scheme-less shorthand',
    [
      ['example.com', undefined],
      ['example.com/a?b=c', undefined],
      ['www.example.co.uk:8080/x', undefined],
      ['93.184.216.34/page', undefined],
      ['localhost:3000', HOST],
      ['mailto:a@example.com', INVALID],
      ['://example.com', INVALID],
    ],
  ],
  [
    '3. parses as a WHATWG URL',
    [
      ['http://example.com/a b', undefined],
      ['https://example.com:8443/', undefined],
      ['', INVALID],
      ['   ', INVALID],
      ['http://ex ample.com/', INVALID],
      ['http://', INVALID],
      ['http://example.com:65536/', INVALID],
      ['h_t://example.com', INVALID],
      ['http://exa%00mple.com', INVALID],
      ['\uD800', INVALID],
      ['http://a\uD800.com', INVALID],
      // WHATWG reads a host whose last label is a number as IPv4, and fails when it is not one.
      ['http://example.123', INVALID],
    ],
  ],
  [
    '4. http or https',
    [
      ['https://example.com', undefined],
      ['HTTP://Example.COM/Path?q=1#f', undefined],
      ['HtTpS://example.com', undefined],
      ['ftp://example.com', PROTOCOL],
      ['ws://example.com', PROTOCOL],
      ['file:///etc/passwd', PROTOCOL],
    ],
  ],
  [
    '5. no second scheme or password before the host',
    [
      ['http://example.com/http://example.com', undefined],
      ['http://example.com?next=http://example.org', undefined],
      ['https://example.com:8443/a:b', undefined],
      ['http://user@example.com', undefined],
      ['http://[::1]:3000/', undefined],
      ['http://http://example.com', INVALID],
      ['https://http://example.com', INVALID],
      ['http:/example.com', INVALID],
      ['http://user:pw@example.com', INVALID],
      ['http://localhost:/', INVALID],
    ],
  ],
  [
    '6. a top-level domain or an IP address',
    [
      ['http://93.184.216.34', undefined],
      ['http://8.8.8.8', undefined],
      ['http://8.8.8.8:80/', undefined],
      ['http://[::1]:3000/', undefined],
      ['http://[::1]', undefined],
      ['http://[2001:db8::1]/', undefined],
      ['https://xn--bcher-kva.de', undefined],
      ['https://bücher.de', undefined],
      ['https://пример.рф', undefined],
      ['https://example.XN--P1AI', undefined],
      ['https://a.b.example.co.uk', undefined],
      ['https://example.museum', undefined],
      // A top-level domain the list names only through a wildcard rule (`*.ck`).
      ['https://example.ck', undefined],
      ['https://EXAMPLE.COM', undefined],
      // The top-level domain must be in the ICANN section of the Public Suffix List.
      ['http://image_0001.jpg', HOST],
      ['image_0001.jpg', HOST],
      ['https://example.zz', HOST],
      ['https://bücher.example', HOST],
      ['http://intranet.local', HOST],
      ['https://crawlspec.test/', HOST],
      ['https://sub.crawlspec.localhost:8080/', HOST],
      ['https://пример.испытание', HOST],
      [`http://example.${'a'.repeat(63)}`, HOST],
      ['http://localhost:3000', HOST],
      ['http://localhost', HOST],
      ['http://example', HOST],
      ['http://.example.com', HOST],
      ['http://example..com', HOST],
      ['http://example.com.', HOST],
      ['http://example.com.:8080/', HOST],
      ['http://1.2.3.4.', HOST],
      ['http://1.2.3.4%2E', HOST],
      ['http://1.2.3.4\u3002', HOST],
      ['http://example.c', HOST],
      ['http://example.1a', HOST],
      [`http://example.${'a'.repeat(64)}`, HOST],
    ],
  ],
  [
    'WHATWG reading the rule inherits',
    [
      // Decimal, hexadecimal and shortened IPv4 forms are read as dotted addresses.
      ['http://134744072', undefined],
      ['http://127.1', undefined],
      // Hosts are percent-decoded and IDNA-mapped, tabs and newlines dropped, surrounding spaces trimmed.
      ['http://example%2Ecom', undefined],
      ['http://example\u3002com', undefined],
      ['http://exa\tmple.com', undefined],
      ['  https://example.com  ', undefined],
      // Extra slashes after a special scheme are skipped.
      ['//example.com', undefined],
    ],
  ],
];

const show = (input: unknown) => (input instanceof String ? 'new String(…)' : input === undefined ? 'undefined' : JSON.stringify(input));

for (const [clause, cases] of CLAUSES) {
  describe(`crawl URL clause ${clause}`, () => {
    for (const [input, expected] of cases) {
      it(`${show(input)} → ${expected ?? 'valid'}`, () => {
        expect(crawlUrlProblem(input)).toBe(expected);
        expect(isCrawlUrl(input)).toBe(expected === undefined);
        // The clauses alone decide the same (a plain address skips them in crawlUrlProblem).
        if (typeof input === 'string') expect(clauseProblem(input)).toBe(expected);
      });
    }
  });
}

describe('normalizeCrawlUrl', () => {
  const EXPANSIONS: ReadonlyArray<readonly [string, string]> = [
    ['example.com/a', 'http://example.com/a'],
    ['localhost:3000', 'http://localhost:3000'],
    ['example.com:8080', 'http://example.com:8080'],
    ['mailto:a@example.com', 'http://mailto:a@example.com'],
    ['a.b://example.com', 'http://a.b://example.com'],
    ['://example.com', 'http://://example.com'],
    ['https://example.com', 'https://example.com'],
    ['HTTP://Example.COM', 'HTTP://Example.COM'],
    ['ftp://example.com', 'ftp://example.com'],
  ];
  for (const [input, expected] of EXPANSIONS) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      expect(normalizeCrawlUrl(input)).toBe(expected);
    });
  }
});

describe('huge inputs return quickly', () => {
  const MB = 1 << 20;
  const HUGE: ReadonlyArray<readonly [string, string]> = [
    ['letters', 'a'.repeat(MB)],
    ['a long path', `http://example.com/${'a'.repeat(MB)}`],
    ['colons', ':'.repeat(MB)],
    ['dots', '.'.repeat(MB)],
    ['slashes', '/'.repeat(MB)],
    ['brackets', `http://${'['.repeat(MB)}`],
    ['labels', `http://${'a.'.repeat(MB / 2)}`],
    ['a long top-level domain', `http://a.${'x'.repeat(MB)}`],
    ['trailing dots after an IPv4 address', `http://1.2.3.4${'.'.repeat(MB)}`],
    ['user info before an IPv4 address', `http://${'@'.repeat(MB)}1.2.3.4.`],
    ['ports', `http://x${':1'.repeat(MB / 2)}`],
    ['lone surrogates', '\uD800'.repeat(MB)],
  ];
  for (const [what, input] of HUGE) {
    it(`1 MB of ${what}`, () => {
      // CPU time, not the clock: a loaded machine does not lengthen it.
      const [problem, ms] = withCpuMs(() => crawlUrlProblem(input));
      expect(ms).toBeLessThan(1000);
      expect(problem === undefined || typeof problem === 'string').toBe(true);
    });
  }
});

describe('top-level domains (topLevelDomains.ts)', () => {
  const tldts = (label: string) => parseHost(`x.${label}`, { allowPrivateDomains: false }).isIcann === true;

  it('every label of two or three letters has the verdict tldts gives it, in any letter case', () => {
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    let listed = 0;
    for (const a of letters)
      for (const b of letters)
        for (const c of ['', ...letters]) {
          const label = `${a}${b}${c}`;
          const icann = tldts(label);
          listed += icann ? 1 : 0;
          expect(isIcannTopLevel(label), label).toBe(icann);
          if (icann) expect(isIcannTopLevel(label.toUpperCase()), label).toBe(true);
        }
    expect(listed).toBeGreaterThan(400);
  });

  it('every listed domain is one tldts answers for, and labels one letter away from a listed one are not', () => {
    const listed = ICANN_TOP_LEVEL_DOMAINS.split(' ');
    for (const label of listed) {
      expect(tldts(label), label).toBe(true);
      expect(isIcannTopLevel(label), label).toBe(true);
      // ASCII letters in any case; other characters as WHATWG hands them over (lower case, or punycoded).
      expect(isIcannTopLevel(label.replace(/[a-z]/g, (c) => c.toUpperCase())), label).toBe(true);
      // Near misses: longer, shorter, changed in the last letter (the table's hash buckets must not confuse them).
      for (const near of [`${label}a`, label.slice(0, -1), `${label.slice(0, -1)}${label.endsWith('q') ? 'r' : 'q'}`, `q${label}`])
        if (near.length > 0) expect(isIcannTopLevel(near), near).toBe(tldts(near));
    }
    for (const made of ['zz', 'local', 'test', 'jpg', 'intranet', 'q1x', 'xn--zz', 'com-', '-com', 'c0m', 'рф1'])
      expect(isIcannTopLevel(made), made).toBe(tldts(made));
    for (const known of ['com', 'de', 'info', 'online', 'travel', 'museum', 'ck', 'xn--p1ai', 'photography', 'рф'])
      expect(isIcannTopLevel(known), known).toBe(true);
    expect(isIcannTopLevel('za'), 'a domain listed only for names under it').toBe(false);
  });

  it('a label is read where it stands, without being cut out: the same verdict as for the label alone', () => {
    const host = 'docs.Example.MUSEUM/path';
    expect(isIcannTopLevelAt(host, 13, 19)).toBe(true);
    expect(isIcannTopLevelAt(host, 5, 12)).toBe(false);
  });
});

describe('properties', () => {
  const alphabeticTld = (url: string) => /^[a-z]{2,}$/.test(new URL(url).hostname.split('.').pop() ?? '');
  const isIp = (url: string) => /^(?:\[.*\]|[\d.]+)$/.test(new URL(url).hostname);

  it('crawlUrlProblem never throws on anything', () => {
    fc.assert(
      fc.property(fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withNullPrototype: true }), (x) => {
        const problem = crawlUrlProblem(x);
        return problem === undefined || typeof problem === 'string';
      }),
      { numRuns },
    );
  });

  it('crawlUrlProblem never throws on binary strings, bare or behind a scheme', () => {
    const binary = fc.string({ unit: 'binary' });
    fc.assert(
      fc.property(
        fc.oneof(
          binary,
          binary.map((s) => `http://${s}`),
          binary.map((s) => `https://a.${s}`),
        ),
        (s) => {
          const problem = crawlUrlProblem(s);
          return problem === undefined || typeof problem === 'string';
        },
      ),
      { numRuns },
    );
  });

  it('a web URL whose top-level domain is alphabetic (2+ letters) is accepted exactly when the ICANN section lists its public suffix', () => {
    const urls = fc.oneof(
      fc.webUrl(),
      fc.webUrl({ withQueryParameters: true, withFragments: true, authoritySettings: { withPort: true } }),
    );
    // tldts on the whole host, the other way round from the rule (which asks about the last label alone).
    const icann = (url: string) => parseHost(new URL(url).hostname, { allowPrivateDomains: false }).isIcann === true;
    const both = fc.oneof(
      urls.filter(alphabeticTld).filter(icann),
      urls.filter(alphabeticTld).filter((u) => !icann(u)),
    );
    fc.assert(
      fc.property(both, (url) => {
        expect(crawlUrlProblem(url)).toBe(icann(url) ? undefined : HOST);
      }),
      { numRuns },
    );
  });

  it('every web URL whose host is an IP address is accepted', () => {
    const urls = fc.webUrl({
      withQueryParameters: true,
      withFragments: true,
      authoritySettings: { withIPv4: true, withIPv4Extended: true, withIPv6: true, withPort: true },
    });
    fc.assert(
      fc.property(urls.filter(isIp), (url) => {
        expect(crawlUrlProblem(url)).toBeUndefined();
      }),
      { numRuns },
    );
  });

  /** Strings near the boundary: web URLs, with the scheme cut off, and arbitrary text. */
  const candidates = fc.oneof(
    fc.webUrl({ authoritySettings: { withIPv4: true, withIPv6: true, withPort: true, withUserInfo: true } }),
    fc.webUrl({ authoritySettings: { withPort: true } }).map((u) => u.replace(/^https?:\/\//, '')),
    fc.string(),
    fc.anything(),
  );

  it('isCrawlUrl(x) is crawlUrlProblem(x) === undefined', () => {
    fc.assert(
      fc.property(candidates, (x) => isCrawlUrl(x) === (crawlUrlProblem(x) === undefined)),
      { numRuns },
    );
  });

  /**
   * Strings shaped like plain addresses, with the characters that could make one not plain: punycode labels,
   * hyphens, digits, upper case, empty labels, ports, user info, escapes, spaces, non-ASCII.
   */
  const plainLike = fc
    .tuple(
      fc.constantFrom('http://', 'https://', 'HTTPS://', 'ftp://', ''),
      fc.array(fc.stringMatching(/^(?:xn--[a-z0-9]{1,4}|[a-zA-Z0-9-]{0,6}|[a-z]*[.%@:\[\] é。][a-z]*)$/), { minLength: 1, maxLength: 4 }),
      fc.constantFrom('com', 'ORG', 'xn--p1ai', 'c', '123', 'x'.repeat(64), 'de.', 'io:8080', 'com:99999'),
      fc.oneof(
        fc.constantFrom('', '/', '/a/b?c=d#e', '?q', '#f', '\\path', '/%zz', '/ space', '/é'),
        fc
          .tuple(
            fc.array(fc.constantFrom('a', '.', '..', '%2e', '.%2E', '%2E%2e', '%2e.', '%2f', '%41', '%', 'b.c', '', '\\', 'x?y', 'z#/w'), {
              maxLength: 5,
            }),
            fc.constantFrom('', '/'),
          )
          .map(([segments, end]) => `/${segments.join('/')}${end}`),
      ),
    )
    .map(([scheme, labels, tld, rest]) => `${scheme}${[...labels, tld].join('.')}${rest}`);

  it('a plain address (the fast path) is one the clauses accept', () => {
    fc.assert(
      fc.property(fc.oneof(plainLike, candidates), (x) => {
        if (typeof x === 'string' && isPlainCrawlUrl(x)) expect(clauseProblem(x)).toBeUndefined();
      }),
      { numRuns: numRuns * 10 },
    );
  });

  it('an address starting with a plain origin is one the clauses accept, whatever follows the origin', () => {
    const tails = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(':99999', '.evil', '@x', ' ', '\t\n', '\uD800'));
    fc.assert(
      fc.property(plainLike, tails, (x, tail) => {
        const end = plainOriginEnd(x);
        if (end < 0) return;
        expect(clauseProblem(x)).toBeUndefined();
        if ('/?#'.includes(x[end - 1]!)) expect(clauseProblem(`${x.slice(0, end)}${tail}`)).toBeUndefined();
      }),
      { numRuns: numRuns * 10 },
    );
  });

  it("the batch rule's shortcut (every entry plain) agrees with judging every entry", () => {
    // Entries often share an origin, as the pages of one site do.
    const sameSite = fc
      .tuple(fc.constantFrom('https://a.com/', 'HTTP://a.com?', 'https://a.com', 'https://a.com:'), fc.string())
      .map(([o, t]) => `${o}${t}`);
    const entries = fc.array(fc.oneof(plainLike, candidates, sameSite), { maxLength: 8 });
    fc.assert(
      fc.property(entries, fc.constantFrom('v1', 'v2'), fc.constantFrom(true, false, undefined), (urls, version, ignore) => {
        const request = { urls, ...(ignore === undefined ? {} : { ignoreInvalidURLs: ignore }) };
        expect(batchUrlsUsable(version).check(request)).toEqual(partitionProblems(version, request));
      }),
      { numRuns: numRuns * 10 },
    );
    for (const urls of [
      ['https://a.com', 'https://a.com:99999'],
      ['https://a.com', 'https://a.com.'],
      ['https://a.com/', 'https://a.com/ x', 'HTTPS://a.com?\uD800', 'https://a.com'],
    ]) {
      expect(batchUrlsUsable('v1').check({ urls }), JSON.stringify(urls)).toEqual(partitionProblems('v1', { urls }));
    }
    expect(batchUrlsUsable('v1').check({ urls: ['https://a.com', 'https://a.com:99999'] })).toHaveLength(1);
  });

  it("a plain address's path, read without parsing, has the slashes WHATWG's has", () => {
    const slashes = (path: string) => path.split('/').length - 1;
    fc.assert(
      fc.property(plainLike, (x) => {
        const path = writtenPath(x);
        if (path !== undefined) expect(slashes(path)).toBe(slashes(new URL(x).pathname));
        // The one-pass reading finds the same depth, and refuses the same addresses.
        const depth = writtenPathDepth(x);
        expect(depth).toBe(path === undefined ? -1 : slashes(path) - (path.endsWith('/') ? 1 : 0));
      }),
      { numRuns: numRuns * 10 },
    );
    expect(writtenPath('https://example.com/a/b/?q=/x')).toBe('/a/b/');
    expect(writtenPath('https://example.com/a/../b')).toBeUndefined();
    expect(urlDepth('https://example.com/a/../b/c')).toBe(2);
    expect(urlDepth('https://example.com/a/%2e%2e/b')).toBe(1);
    // A `%` that spells no dot is kept as written: the path is read without parsing.
    expect(writtenPath('https://example.com/caf%C3%A9/%41/x%2e')).toBe('/caf%C3%A9/%41/x%2e');
    expect(writtenPathDepth('https://example.com/caf%C3%A9/%41/x%2e')).toBe(3);
    for (const dots of ['%2e', '%2E', '.%2e', '%2e.', '%2E%2e']) expect(writtenPathDepth(`https://example.com/a/${dots}/b`), dots).toBe(-1);
  });

  it('ordinary addresses take the fast path', () => {
    for (const url of ['https://docs.example.com/guides', 'http://EXAMPLE.org', 'https://a-b.example.co.uk/x?y=1#z']) {
      expect(isPlainCrawlUrl(url)).toBe(true);
    }
    for (const url of ['https://xn--80ak6aa92e.com', 'http://localhost:3000', 'example.com', 'https://example.com:8080/']) {
      expect(isPlainCrawlUrl(url)).toBe(false);
    }
  });

  it('normalizeCrawlUrl is idempotent on valid input, and keeps it valid', () => {
    fc.assert(
      fc.property(
        candidates.filter((x): x is string => isCrawlUrl(x)),
        (url) => {
          const once = normalizeCrawlUrl(url);
          expect(normalizeCrawlUrl(once)).toBe(once);
          expect(crawlUrlProblem(once)).toBeUndefined();
        },
      ),
      { numRuns },
    );
  });
});

describe('hosts longer than DNS allows', () => {
  const label = (n: number, c = 'a') => c.repeat(n);
  it.each([
    [`https://${label(63)}.example.com/`, undefined],
    [`https://${label(64)}.example.com/`, 'URL must have a valid top-level domain or be an IP address'],
    [`https://${label(64, 'ü')}.example.com`, 'URL must have a valid top-level domain or be an IP address'],
    [`https://${Array.from({ length: 4 }, () => label(61)).join('.')}.com/`, undefined],
    [`https://${Array.from({ length: 4 }, () => label(62)).join('.')}.com/`, 'URL must have a valid top-level domain or be an IP address'],
    [`http://${label(64)}%2Eexample.com/`, 'URL must have a valid top-level domain or be an IP address'],
    ['http://[::1]:3000/', undefined],
  ])('%s → %s', (url, problem) => {
    expect(crawlUrlProblem(url)).toBe(problem);
  });

  it('a plain address and the clauses agree on every length', () => {
    for (let n = 60; n < 66; n++) {
      const url = `https://${label(n)}.example.com/`;
      expect(plainOriginEnd(url) >= 0, url).toBe(clauseProblem(url) === undefined);
    }
  });
});
