/**
 * The sections of the interface document the package cites, in the package's own words: a title and what the
 * section is about. The reference (generated/spec/reference.md and .html, scripts/emit/reference.ts) has one
 * part per section, with a stable anchor (`s2-4` for §2.4), and one for what the service fills in (`service`).
 */
import { INTERFACE_SECTIONS, type InterfaceSection } from '../../schemas/annotations.js';

export { INTERFACE_SECTIONS, type InterfaceSection };

export interface SectionText {
  readonly title: string;
  readonly about: string;
}

export const SECTIONS: Readonly<Record<InterfaceSection, SectionText>> = {
  '§1': {
    title: 'The service',
    about:
      'What the API is for: crawls from one address and batches of listed pages, each page in the formats asked for, started asynchronously (the start answer holds only the job and its address), with options for proxies, devices, locations, page actions, caching and PDFs.',
  },
  '§2.1': { title: 'Crawl request', about: 'The body that starts a crawl, in v1 and v2: its fields, their types, defaults and meanings.' },
  '§2.2': { title: 'Batch scrape request', about: 'The body that starts a batch scrape of listed addresses, in v1 and v2.' },
  '§2.3': {
    title: 'Scrape options, v1',
    about: 'How each page of a v1 job is scraped: nested under `scrapeOptions` in a v1 crawl, at the top of a v1 batch body.',
  },
  '§2.4': {
    title: 'Scrape options, v2',
    about: 'How each page of a v2 job is scraped: nested under `scrapeOptions` in a v2 crawl, at the top of a v2 batch body.',
  },
  '§2.5': { title: 'Location', about: 'The country and languages a scrape emulates.' },
  '§2.6': {
    title: 'What the shapes leave open',
    about:
      'The parts of the shapes the interface names without detailing (action fields beyond a few, the webhook object, format objects, parsers, change-tracking modes, the page records): the service fills them in, marked `service` below.',
  },
  '§4': {
    title: 'Endpoints',
    about: 'The four operations that start a job (crawl and batch, v1 and v2), what they take and answer, and the rule for `invalidURLs`.',
  },
  '§5': { title: 'Authentication', about: 'Every request carries `Authorization: Bearer <token>`.' },
  '§6': { title: 'Events', about: 'A crawl or a batch may carry a webhook; the kinds and shapes of its events are left to the service.' },
  '§7': {
    title: 'Errors',
    about: 'What an invalid address in a batch does, depending on `ignoreInvalidURLs`; statuses and error bodies are left to the service.',
  },
  '§8': { title: 'Limits', about: 'Defaults and bounds (pages, depth, timeouts, cache age) and what options cost.' },
  '§9': { title: 'Versions', about: 'The version is the first segment of the path; what differs between v1 and v2.' },
};

export const SERVICE_TITLE = 'What the service fills in';
export const SERVICE_ABOUT =
  'Where the interface says nothing (it marks the part "not shown"), the package follows the public service: these definitions, fields, bounds, defaults and rules carry the provenance `service`. An implementation that follows the interface to the letter is never held to them at the interface level.';
