import { Literals } from '../literals.js';
import { BY_SERVICE_STATE, Named, extensionValues, fromInterface, serviceSince } from '../annotations.js';

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
/**
 * Accepted by the service and sent by its v1 client (`extract` is the deprecated name of `json`), and the formats
 * v1 gained later (service-facts §13; only `rawBase64` is dated there).
 */
export const EXTENSION_FORMATS_V1 = ['extract', 'summary', 'rawBase64', 'branding', 'product', 'menu'] as const;

export const Format = Named(
  'Format',
  Literals([...INTERFACE_FORMATS_V1, ...EXTENSION_FORMATS_V1], {
    description:
      'An output format. `extract` (deprecated name of `json`, paired with the `extract` field), `summary`, `rawBase64` (the page as fetched, base64-encoded; the only format when requested), `branding`, `product` and `menu` are service extensions.',
    ...fromInterface('§2.3'),
    ...extensionValues(EXTENSION_FORMATS_V1),
    ...serviceSince({ enum: { rawBase64: '2026-08-21', branding: BY_SERVICE_STATE, product: BY_SERVICE_STATE, menu: BY_SERVICE_STATE } }),
  }),
);
