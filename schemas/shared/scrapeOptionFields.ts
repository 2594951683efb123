/**
 * Scrape option fields whose meaning is the same in v1 and v2 (their defaults may differ by version, so
 * each is built for one version). The version-specific sets are assembled in `v1/scrapeOptions.ts` and
 * `v2/scrapeOptions.ts`.
 */
import { Type } from '@sinclair/typebox';
import {
  defaultUnless,
  fromInterface,
  extension,
  extensionValues,
  keywordSources,
  serviceDefault,
  serviceLevelDefault,
  serviceSince,
  use,
} from '../annotations.js';
import { Location } from './location.js';
import { StringMap } from './stringMap.js';

export function commonScrapeOptionFields(version: 'v1' | 'v2') {
  const section = version === 'v1' ? '§2.3' : '§2.4';
  const here = fromInterface(section);
  return {
    onlyMainContent: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Return only the main content of the page, without headers, navigation or footers.',
        ...here,
      }),
    ),
    includeTags: Type.Optional(
      Type.Array(Type.String(), {
        description: 'Tags (CSS selectors) to keep in the output.',
        examples: [['article', '.content']],
        ...here,
      }),
    ),
    excludeTags: Type.Optional(
      Type.Array(Type.String(), { description: 'Tags (CSS selectors) to remove from the output.', examples: [['nav', '#ads']], ...here }),
    ),
    maxAge: Type.Optional(
      Type.Integer({
        minimum: 0,
        default: version === 'v1' ? 0 : 172800000,
        description:
          version === 'v1'
            ? 'Cache rule, in milliseconds: a cached copy younger than this is returned, an older one is scraped again; 0 turns the cache off. The interface states the default 0; the service has defaulted to 86400000 (one day) since 2025-10-26.'
            : 'Cache rule, in milliseconds: a cached copy younger than this is returned, an older one is scraped again; 0 turns the cache off.',
        ...here,
        ...keywordSources({ minimum: 'service' }),
        // v1: the interface's default stays; the service's own is one day (service-facts §13).
        ...(version === 'v1' ? serviceLevelDefault({ value: 86400000, since: '2025-10-26' }) : {}),
      }),
    ),
    headers: Type.Optional(use(StringMap, { description: 'Headers to send with the request (cookies, user agent, ...).', ...here })),
    waitFor: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: 60000,
        default: 0,
        description:
          version === 'v1'
            ? 'Delay in milliseconds before the content is fetched.'
            : "Delay in milliseconds before the content is fetched, on top of the service's own adaptive wait.",
        ...here,
        ...keywordSources({ minimum: 'service', maximum: 'service' }),
      }),
    ),
    mobile: Type.Optional(Type.Boolean({ default: false, description: 'Emulate a mobile device.', ...here })),
    skipTlsVerification: Type.Optional(
      Type.Boolean({
        default: version === 'v2',
        description:
          "Do not verify the site's TLS certificate. The interface states the default; the service's own (since 2025-09-28, v1 and v2) is false when `headers` or `actions` is non-empty, else true.",
        ...here,
        ...serviceLevelDefault({ value: true, since: '2025-09-28', ifNonEmpty: { fields: ['headers', 'actions'], value: false } }),
      }),
    ),
    timeout: Type.Optional(
      Type.Integer({
        minimum: 1000,
        ...(version === 'v2' ? { maximum: 300000 } : {}),
        default: 30000,
        // The service has no crawl or batch timeout default, and compares a sent waitFor with a sent timeout only.
        ...defaultUnless(version === 'v2' ? 'Request timeout in milliseconds, at most 300000.' : 'Request timeout in milliseconds.', [
          'waitFor',
        ]),
        ...here,
        // The maximum is the interface's (§2.4, v2 only); the minimum of 1000 is the service's.
        ...keywordSources(version === 'v2' ? { minimum: 'service', maximum: 'interface §2.4' } : { minimum: 'service' }),
        ...serviceSince({ minimum: '2026-01-21' }),
      }),
    ),
    location: Type.Optional(use(Location, { description: 'Location to emulate.', ...here })),
    removeBase64Images: Type.Optional(
      Type.Boolean({
        default: true,
        description: 'Remove base64-encoded images from the output; their alt text stays and the image address becomes a placeholder.',
        ...here,
      }),
    ),
    blockAds: Type.Optional(Type.Boolean({ default: true, description: 'Block ads and cookie pop-ups.', ...here })),
    proxy: Type.Optional(
      Type.Union([Type.Literal('basic'), Type.Literal('stealth'), Type.Literal('auto'), Type.Literal('enhanced')], {
        default: version === 'v1' ? 'basic' : 'auto',
        description:
          'Proxy class: `basic` (regular cost), `stealth` (up to 5 credits a request), `auto` (basic first, then stealth if basic fails; 5 credits only when the stealth retry is what succeeded). `enhanced` is a service extension.',
        ...here,
        ...extensionValues(['enhanced']),
        ...serviceSince({ enum: { enhanced: '2026-01-29' } }),
      }),
    ),
    storeInCache: Type.Optional(
      Type.Boolean({
        default: true,
        description: "Store the page in the service's index and cache. The service forces it off when `actions` or `headers` are used.",
        ...here,
      }),
    ),
    onlyCleanContent: Type.Optional(
      Type.Boolean({
        ...serviceDefault(false),
        description: 'Remove boilerplate text from the main content.',
        ...extension(),
        ...serviceSince('2026-02-19'),
      }),
    ),
    fastMode: Type.Optional(Type.Boolean({ ...serviceDefault(false), description: 'Prefer speed over completeness.', ...extension() })),
    useMock: Type.Optional(
      Type.String({ description: 'Name of a recorded response to serve instead of fetching (testing).', ...extension() }),
    ),
  };
}
