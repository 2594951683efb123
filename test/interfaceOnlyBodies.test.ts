/**
 * The bodies the kit holds valid at interface level (`vN.<kind>.start.valid`) are made of what the interface
 * states only: every value in them stands where the definitions cite the interface, never in a form the service
 * fills in where the interface is silent (e.g. a parser object beside the interface's `pdf`), so that their refusal
 * can be called an interface deviation.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Version } from '../schemas/registry.js';
import { safeRequests, requestName } from '../scripts/contract/generation/safeRequests.js';
import { serviceOnlyPlaces, type JobKind } from '../scripts/contract/spec/operations.js';

describe('interface-only bodies', () => {
  for (const version of ['v1', 'v2'] as Version[])
    for (const kind of ['crawl', 'batch'] as JobKind[])
      it(`${version} ${kind}: every value stands where the interface is cited`, () => {
        const bodies = fc.sample(safeRequests(version, kind, 'https://example.com', 'interface'), { seed: 7, numRuns: 150 });
        const serviceOnly = new Set(bodies.flatMap((body) => serviceOnlyPlaces(version, requestName(kind), body)));
        expect([...serviceOnly]).toEqual([]);
      });

  it('what only the service states is found: an extension field, a parser object, the mode json, a format option', () => {
    const body = {
      url: 'https://example.com',
      origin: 'sdk',
      scrapeOptions: { parsers: ['pdf', { type: 'pdf' }], formats: [{ type: 'screenshot', fullPage: true }], headers: { 'x-a': 'b' } },
    };
    expect(serviceOnlyPlaces('v2', 'CrawlRequest', body)).toEqual([
      'origin (service)',
      'scrapeOptions.parsers.[].type (service)',
      'scrapeOptions.formats.[].fullPage (service)',
    ]);
    expect(
      serviceOnlyPlaces('v1', 'CrawlRequest', {
        url: 'https://example.com',
        scrapeOptions: { changeTrackingOptions: { modes: ['git-diff'] } },
      }),
    ).toEqual([]);
    expect(
      serviceOnlyPlaces('v1', 'CrawlRequest', {
        url: 'https://example.com',
        scrapeOptions: { changeTrackingOptions: { modes: ['json'] } },
      }),
    ).toEqual(['scrapeOptions.changeTrackingOptions.modes.[] (service)']);
  });

  it('a key no definition lists is found at any depth, but not inside free-form content (headers, a JSON Schema)', () => {
    const body = {
      url: 'https://example.com',
      note: 1,
      scrapeOptions: {
        location: { country: 'DE', region: 'BY' },
        formats: ['markdown', { type: 'json', schema: { type: 'object', properties: { title: { type: 'string' } } }, extra: true }],
        actions: [{ type: 'wait', milliseconds: 5, retry: 2 }],
        headers: { 'x-anything': 'goes' },
      },
    };
    expect(serviceOnlyPlaces('v2', 'CrawlRequest', body)).toEqual([
      'note (a key no definition lists)',
      'scrapeOptions.location.region (a key no definition lists)',
      'scrapeOptions.formats.[].extra (a key no definition lists)',
      'scrapeOptions.actions.[].retry (a key no definition lists)',
    ]);
  });
});
