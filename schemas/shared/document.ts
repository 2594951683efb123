/**
 * The scraped page record: an item of a job's `data`, and of a page event's `data`. The interface leaves
 * it "not shown"; its shape follows the service. Only the keys of the requested formats are present.
 * Records are open: the service adds keys over time, and a consumer must tolerate that.
 */
import { Type, type TProperties } from '@sinclair/typebox';
import { Named, fromService } from '../annotations.js';

const field = (description: string) => Type.String({ description, ...fromService() });
const text = (description: string) => Type.Optional(field(description));
const metaValue = (description: string) =>
  Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description, ...fromService() }));

export const DocumentMetadata = Named(
  'DocumentMetadata',
  Type.Object(
    {
      sourceURL: text('The address as the caller sent it (not normalised).'),
      url: text('The final address, after redirects.'),
      statusCode: Type.Integer({ description: 'HTTP status of the final response.', ...fromService() }),
      scrapeId: text('Identifier of this scrape.'),
      proxyUsed: Type.Optional(
        Type.Union([Type.Literal('basic'), Type.Literal('stealth')], {
          description: 'Proxy class that served the page.',
          ...fromService(),
        }),
      ),
      cacheState: Type.Optional(
        Type.Union([Type.Literal('hit'), Type.Literal('miss')], { description: 'Whether the page came from the cache.', ...fromService() }),
      ),
      cachedAt: text('When the cached copy was taken (ISO 8601).'),
      creditsUsed: Type.Optional(Type.Number({ description: 'Credits billed for this page.', ...fromService() })),
      contentType: text('Content type of the response.'),
      numPages: Type.Optional(Type.Integer({ description: 'Number of pages of a PDF.', ...fromService() })),
      error: text('Error text when the page could not be scraped cleanly.'),
      title: metaValue('Page title.'),
      description: metaValue('Page description.'),
      language: metaValue('Page language.'),
      keywords: metaValue('Page keywords.'),
      robots: metaValue('Robots meta tag.'),
    },
    {
      description:
        'Page metadata. Besides the listed keys, every other `<meta>` tag of the page appears as a string or an array of strings.',
      ...fromService(),
    },
  ),
);

export const ChangeTrackingResult = Named(
  'ChangeTrackingResult',
  Type.Object(
    {
      previousScrapeAt: Type.Union([Type.String(), Type.Null()], {
        description: 'When the page was scraped before (ISO 8601), or null the first time.',
        ...fromService(),
      }),
      changeStatus: Type.Union([Type.Literal('new'), Type.Literal('same'), Type.Literal('changed'), Type.Literal('removed')], {
        description: 'How the page changed since the previous scrape.',
        ...fromService(),
      }),
      visibility: Type.Union([Type.Literal('visible'), Type.Literal('hidden')], {
        description: 'Whether the page is still reachable by discovery.',
        ...fromService(),
      }),
      diff: Type.Optional(
        Type.Object(
          {
            text: Type.String({ description: 'Unified diff of the markdown.', ...fromService() }),
            json: Type.Object({}, { description: 'Structured diff.', ...fromService() }),
          },
          { description: 'Diff against the previous scrape (`git-diff` mode).', ...fromService() },
        ),
      ),
      json: Type.Optional(Type.Unknown({ description: 'Structured comparison (`json` mode).', ...fromService() })),
    },
    { description: 'Change tracking result.', ...fromService() },
  ),
);

export const ActionResults = Named(
  'ActionResults',
  Type.Object(
    {
      screenshots: Type.Optional(
        Type.Array(Type.String(), { description: 'Screenshot addresses, one per screenshot action.', ...fromService() }),
      ),
      scrapes: Type.Optional(
        Type.Array(Type.Object({ url: field('Address of the page when it was captured.'), html: field('HTML captured.') }), {
          description: 'Page content captured by scrape actions.',
          ...fromService(),
        }),
      ),
      javascriptReturns: Type.Optional(
        Type.Array(
          Type.Object({
            type: field('JavaScript type of the value.'),
            value: Type.Unknown({ description: 'The value the script returned.', ...fromService() }),
          }),
          {
            description: 'Values returned by executeJavascript actions.',
            ...fromService(),
          },
        ),
      ),
      pdfs: Type.Optional(Type.Array(Type.String(), { description: 'PDF addresses, one per pdf action.', ...fromService() })),
    },
    { description: 'Outputs of the page actions.', ...fromService() },
  ),
);

/** The page record of a version; `formatFields` are the keys of the formats only that version has. */
export function documentSchema<E extends TProperties>(formatFields: E) {
  return Named(
    'Document',
    Type.Object(
      {
        markdown: text('Page content as markdown.'),
        html: text('Cleaned HTML.'),
        rawHtml: text('HTML as received.'),
        links: Type.Optional(Type.Array(Type.String(), { description: 'Links found on the page.', ...fromService() })),
        screenshot: text('Address of the screenshot.'),
        ...formatFields,
        json: Type.Optional(Type.Unknown({ description: 'Structured data extracted by the json format.', ...fromService() })),
        summary: text('Summary of the page.'),
        changeTracking: Type.Optional(ChangeTrackingResult),
        actions: Type.Optional(ActionResults),
        warning: text('Warning about this page.'),
        metadata: DocumentMetadata,
      },
      { description: 'A scraped page.', ...fromService() },
    ),
  );
}
