import { Literals } from '../literals.js';
import { Named, extensionValues, fromInterface } from '../annotations.js';

/** v1 output formats: a list of names. */
export const INTERFACE_FORMATS_V1 = [
  'markdown',
  'html',
  'rawHtml',
  'links',
  'screenshot',
  'screenshot@fullPage',
  'json',
  'changeTracking',
] as const;
/** Accepted by the service and sent by its v1 client; `extract` is the deprecated name of `json`. */
export const EXTENSION_FORMATS_V1 = ['extract', 'summary'] as const;

export const Format = Named(
  'Format',
  Literals([...INTERFACE_FORMATS_V1, ...EXTENSION_FORMATS_V1], {
    description:
      'An output format. `extract` (deprecated name of `json`, paired with the `extract` field) and `summary` are service extensions.',
    ...fromInterface('§2.3'),
    ...extensionValues(EXTENSION_FORMATS_V1),
  }),
);
