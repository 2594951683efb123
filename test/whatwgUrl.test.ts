/**
 * A validator's verdict does not depend on how many addresses it has checked before: an internationalised
 * address stays valid after the crawl URL rule has run hot (schemas/shared/whatwgUrl.ts tells the Node 20 bug
 * this guards against: its `URL.canParse` turns wrong for such addresses once V8 optimises the call).
 */
import { describe, expect, it } from 'vitest';
import { crawlUrlProblem } from '../schemas/shared/crawlUrl.js';
import { parseUrl } from '../schemas/shared/whatwgUrl.js';
import { validate } from '../schemas/validate.js';

const IDN = ['https://üüüüüüüüüüüüüüüüüüüü.example.com/', 'https://пример.рф/', 'http://bücher.de/'];

describe('WHATWG parsing under a hot loop', () => {
  it('an internationalised address is read the same before and after 200,000 other addresses', () => {
    const before = IDN.map((u) => crawlUrlProblem(u));
    expect(before).toEqual([undefined, undefined, undefined]);
    // Addresses that are not plain (a port), so that each goes through WHATWG parsing, as a busy server's do.
    for (let i = 0; i < 200_000; i++) crawlUrlProblem(`https://example.com:${1000 + (i % 50)}/`);
    expect(IDN.map((u) => crawlUrlProblem(u))).toEqual(before);
    expect(IDN.map((u) => validate('v2/CrawlRequest', { url: u }).valid)).toEqual([true, true, true]);
  });

  it('parseUrl gives the URL where one parses, and nothing where none does', () => {
    expect(['https://ü.example.com/', 'http://exa mple.com/', 'not a url', 'https://[::1]:3000/'].map((t) => parseUrl(t)?.href)).toEqual([
      'https://xn--tda.example.com/',
      undefined,
      undefined,
      'https://[::1]:3000/',
    ]);
  });
});
