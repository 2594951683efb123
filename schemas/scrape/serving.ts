/**
 * What the way a page is served shows (page.ts `dynamic`), for the scrape oracle (oracle.ts):
 *
 *   - a page slower than `timeout`, or served with a self-signed certificate while `skipTlsVerification` is
 *     false, makes the scrape fail (interface §2.3, §2.4); otherwise the page is returned;
 *   - a page that shows the request headers it received shows `headers` (interface §2.3), and the service's
 *     user agent of `mobile` and Accept-Language of `location.languages` (service);
 *   - a page that counts its fetches, scraped after an earlier scrape of it, shows whether it was fetched again:
 *     `maxAge` 0 and nothing stored (`storeInCache` false, or forced false by headers or actions) mean it is
 *     (interface §2.3); a stored page younger than `maxAge` is answered from the cache (service).
 */
import { serviceCite, type ScrapeCitation } from './constraint.js';
import { defaultNote, isRecord, type Context } from './context.js';
import { echoLine } from './page.js';
import { scrapeSettings } from './settings.js';
import { placeVerdict } from './verdicts.js';

/** Headers an HTTP client sets itself, or that do not pass from hop to hop: what a page receives of them is not the option's. */
const NOT_SENT_AS_GIVEN = new Set([
  'host',
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'content-length',
]);
/** What marks a mobile browser's user agent (Mobile Safari, Chrome Mobile...). */
const MOBILE_AGENT = 'Mobi';
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** Canonical JSON (object keys sorted), to compare two sets of options. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (isRecord(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}

/** The options as a cache entry is told apart: all but the cache's own. */
function cacheKey(options: unknown): string {
  if (!isRecord(options)) return canonical(options);
  const { maxAge: _maxAge, storeInCache: _storeInCache, ...rest } = options;
  return canonical(rest);
}

/** Why a scrape of the page must fail, if it must. */
function failureOf(c: Context): { option: string; cites: ScrapeCitation[]; why: string } | undefined {
  const { slowMs, selfSignedTls } = c.page.dynamic ?? {};
  if (slowMs !== undefined && c.s.timeout < slowMs)
    return {
      option: 'timeout',
      cites: c.out.option('timeout', false),
      why: `the page answers after ${slowMs} ms, later than timeout ${c.s.timeout} ms${defaultNote(c, 'timeout')}`,
    };
  if (selfSignedTls === true && !c.s.skipTlsVerification)
    return {
      option: 'skipTlsVerification',
      cites: c.out.option('skipTlsVerification', false),
      why: `the page's certificate is self-signed and skipTlsVerification is false${defaultNote(c, 'skipTlsVerification')}: verification fails`,
    };
  return undefined;
}

/** That the scrape returns the page: its first main text is in the record, wherever the options leave it. */
function succeeds(c: Context, option: string, cites: ScrapeCitation[], why: string): void {
  const first = c.page.texts.find((t) => t.region === 'main');
  if (first === undefined || placeVerdict(first.region, first.path, c.sel)?.decided.verdict !== 'must') return;
  c.out.add({ subject: 't0', option, field: 'record', kind: 'contains', text: first.text, cites, why });
}

/**
 * Whether a scrape returns the page at all. A page slower than the timeout, or whose self-signed certificate
 * is verified, gets the constraints of a failed scrape (and false); one late but well within the timeout, or
 * whose certificate is not verified, the constraint that the page is returned.
 */
export function returnsPage(c: Context): boolean {
  const { out, s, page } = c;
  const failure = failureOf(c);
  if (failure !== undefined) {
    for (const [i, t] of page.texts.entries())
      out.add({
        subject: `t${i}`,
        option: failure.option,
        field: 'record',
        kind: 'lacks',
        text: t.text,
        cites: failure.cites,
        why: `${failure.why}, so the scrape fails`,
      });
    out.add({
      subject: 'page',
      option: failure.option,
      field: 'record',
      kind: 'absent',
      cites: serviceCite('data'),
      why: `${failure.why}; the service returns no record for a page that failed`,
    });
    return false;
  }
  const { slowMs, selfSignedTls } = page.dynamic ?? {};
  if (slowMs !== undefined) {
    if (s.timeout < 2 * slowMs)
      out.skip('timeout', `timeout ${s.timeout} ms leaves little beyond the page's ${slowMs} ms: the scrape may or may not fail`);
    else
      succeeds(
        c,
        'timeout',
        out.option('timeout', false),
        `the page answers after ${slowMs} ms, well within timeout ${s.timeout} ms${defaultNote(c, 'timeout')}`,
      );
  } else if (c.given['timeout'] !== undefined) out.skip('timeout', 'this page answers at once');
  if (selfSignedTls === true)
    succeeds(
      c,
      'skipTlsVerification',
      out.option('skipTlsVerification', false),
      `skipTlsVerification is true${defaultNote(c, 'skipTlsVerification')}: the self-signed certificate is not verified, and the page is returned`,
    );
  else if (c.given['skipTlsVerification'] !== undefined)
    out.skip('skipTlsVerification', 'this page is not served over TLS with a self-signed certificate');
  emulated(c);
  return true;
}

/**
 * A page asked with `mobile` true or with a `location` is returned all the same (interface level): §1 names
 * emulating a mobile device and a location among what a scrape can do, and §2.5 makes every field of location
 * optional ("an appropriate proxy is used if available": the scrape does not hang on one). A target with no engine
 * for them fails such a page; this is the constraint its failure breaks, held on a job that changes that option
 * alone (the kit's scrapeJobs.ts), so that nothing else explains a page lost there.
 */
function emulated(c: Context): void {
  if (c.s.mobile && c.given['mobile'] !== undefined)
    succeeds(
      c,
      'mobile',
      [{ source: 'interface §1', names: ['emulate a mobile device'] }, ...c.out.option('mobile')],
      'a scrape can emulate a mobile device: a page asked with mobile true is returned',
    );
  if (c.given['location'] !== undefined)
    succeeds(
      c,
      'location',
      [
        { source: 'interface §1', names: ['emulate a location'] },
        { source: 'interface §2.5', names: ['country', 'languages'] },
      ],
      'a scrape can emulate a location, each field of which is optional (a proxy for it is used if available): a page asked with a location is returned',
    );
}

/** A page that shows the request headers it received: `headers`, and the service's `mobile` and `location.languages`. */
export function echo(c: Context): void {
  const { out, s } = c;
  const place = c.page.dynamic?.echoesHeaders;
  if (place === undefined) {
    if (Object.keys(s.headers).length > 0) out.skip('headers', 'this page does not show the request headers it receives');
    if (c.given['mobile'] !== undefined) out.skip('mobile', 'this page does not show the user agent it is fetched with');
    if (c.given['location'] !== undefined) out.skip('location', 'this page does not show the language it is asked in');
    return;
  }
  const verdict = placeVerdict(place.region, place.path, c.sel);
  if (verdict?.decided.verdict !== 'must') {
    out.skip('headers', 'the options remove, or may remove, the part of the page that shows the request headers');
    return;
  }
  const fields = [...c.contentFields, ...(c.asked('rawHtml') ? ['rawHtml'] : [])];
  const named = new Set(Object.keys(s.headers).map((n) => n.toLowerCase()));
  for (const [name, value] of Object.entries(s.headers)) {
    const lower = name.toLowerCase();
    if (NOT_SENT_AS_GIVEN.has(lower) || lower.startsWith('proxy-') || /[\r\n\0]/.test(value)) {
      out.skip('headers', `${name}: an HTTP client sets it itself, or it does not reach the page as given`);
      continue;
    }
    for (const field of fields)
      out.add({
        subject: lower,
        option: 'headers',
        field,
        kind: 'hasLine',
        text: echoLine(name, value.trim()),
        cites: verdict.level === 'interface' ? out.option('headers') : serviceCite('headers'),
        why: 'the page is asked for with the headers given, and it shows the headers it received',
      });
  }
  if (named.has('user-agent')) out.skip('mobile', 'headers names the User-Agent itself');
  else
    for (const field of fields)
      out.add({
        subject: 'user-agent',
        option: 'mobile',
        field,
        kind: s.mobile ? 'hasLineMatching' : 'noLineMatching',
        pattern: `^${escapeRegExp(echoLine('user-agent', ''))}.*${MOBILE_AGENT}`,
        cites: serviceCite('mobile', 'User-Agent'),
        why: s.mobile
          ? `mobile emulates a mobile device: the service sends a mobile browser's User-Agent, which names "${MOBILE_AGENT}"`
          : `without mobile the service sends a desktop browser's User-Agent, which does not name "${MOBILE_AGENT}"`,
      });
  const language = s.languages[0];
  if (language === undefined) return;
  if (named.has('accept-language')) out.skip('location', 'headers names the Accept-Language itself');
  else
    for (const field of fields)
      out.add({
        subject: 'accept-language',
        option: 'location',
        field,
        kind: 'hasLineMatching',
        pattern: `^${escapeRegExp(echoLine('accept-language', ''))}(.*[\\s,;])?${escapeRegExp(language)}([\\s,;].*)?$`,
        cites: serviceCite('location.languages', 'Accept-Language'),
        why: `location.languages asks for ${language}: the service sends it in Accept-Language`,
      });
}

/** A page that counts its fetches, scraped a second time: `maxAge` and `storeInCache`. */
export function counter(c: Context): void {
  const { out, s, request } = c;
  const { earlier } = request;
  if (c.page.dynamic?.countsFetches === undefined || earlier === undefined) {
    for (const option of ['maxAge', 'storeInCache'])
      if (c.given[option] !== undefined)
        out.skip(option, 'a cache shows only on a page that counts its fetches, scraped after an earlier scrape of it');
    return;
  }
  const before = scrapeSettings(s.version, earlier.options);
  const again = (option: string, why: string) =>
    out.add({
      subject: 'count',
      option,
      field: 'record',
      kind: 'fetchedAgain',
      earlierCount: earlier.count,
      cites: out.option(option),
      why,
    });
  if (s.maxAge === 0) again('maxAge', `maxAge 0${defaultNote(c, 'maxAge')} turns the cache off: the page is fetched again`);
  else if (!before.stores)
    again(
      'storeInCache',
      before.storeInCache
        ? 'the earlier scrape used headers or actions, which force storeInCache to false: nothing was cached, so the page is fetched again'
        : 'the earlier scrape had storeInCache false: nothing was cached, so the page is fetched again',
    );
  else if (!s.stores || cacheKey(earlier.options) !== cacheKey(request.options))
    out.skip(
      'maxAge',
      'the two scrapes differ in options other than maxAge and storeInCache: whether the cached page serves the second is the service’s choice',
    );
  else if (s.maxAge >= earlier.ageMs)
    out.add({
      subject: 'count',
      option: 'maxAge',
      field: 'record',
      kind: 'notFetchedAgain',
      earlierCount: earlier.count,
      cites: serviceCite('maxAge', 'storeInCache'),
      why: `the earlier scrape stored the page at most ${earlier.ageMs} ms ago, younger than maxAge ${s.maxAge}${defaultNote(c, 'maxAge')}: the service answers from its cache`,
    });
  else out.skip('maxAge', `the earlier scrape's answer may be older than maxAge ${s.maxAge} ms`);
}
