/**
 * Parsers (v2): how non-HTML documents are handled. The interface states only the value `pdf`; the object
 * form and the `image` parser follow the service.
 */
import { Type } from '@sinclair/typebox';
import { Named, fromInterface, fromService, extension, serviceDefault, serviceSince } from '../annotations.js';

export const PdfParser = Named(
  'PdfParser',
  Type.Object(
    {
      type: Type.Literal('pdf', { description: 'PDF parser.', ...fromService() }),
      mode: Type.Optional(
        Type.Union([Type.Literal('fast'), Type.Literal('auto'), Type.Literal('ocr')], {
          ...serviceDefault('auto'),
          description: 'How PDF text is obtained: `fast` (text layer only), `auto`, or `ocr`.',
          ...fromService(),
        }),
      ),
      maxPages: Type.Optional(
        Type.Integer({ minimum: 1, maximum: 10000, description: 'Parse at most this many pages.', ...fromService() }),
      ),
      pages: Type.Optional(
        Type.Boolean({ description: 'Also return the markdown of each page separately.', ...extension(), ...serviceSince('2026-08-19') }),
      ),
      pageMarkdown: Type.Optional(
        Type.Boolean({ deprecated: true, description: 'Deprecated name of `pages`.', ...extension(), ...serviceSince('2026-08-19') }),
      ),
      blocks: Type.Optional(
        Type.Boolean({ description: 'Also return the layout blocks of the document.', ...extension(), ...serviceSince('2026-08-19') }),
      ),
      pageMarkers: Type.Optional(
        Type.Boolean({ description: 'Mark page boundaries in the markdown.', ...extension(), ...serviceSince('2026-08-20') }),
      ),
    },
    { additionalProperties: false, description: 'PDF parser with options.', ...fromService(), ...serviceSince('2025-08-29') },
  ),
);

export const ImageParser = Named(
  'ImageParser',
  Type.Object(
    { type: Type.Literal('image', { description: 'Image parser.', ...extension() }) },
    { additionalProperties: false, description: 'Image parser.', ...extension() },
  ),
);

export const Parser = Named(
  'Parser',
  Type.Union(
    [
      Type.Literal('pdf', { description: 'Extract PDFs to markdown.', ...fromInterface('§2.4') }),
      PdfParser,
      Type.Literal('image', { description: 'Extract text from images.', ...extension() }),
      ImageParser,
    ],
    { description: 'A parser.', ...fromInterface('§2.4') },
  ),
);
