import { Type } from '@sinclair/typebox';
import { Named, fromInterface } from '../annotations.js';

/**
 * A page address to crawl or scrape (crawl `url`, each batch `urls` entry). Which strings are valid
 * addresses is a rule written as code (`crawlUrl.ts`): the JSON Schema only says "a string".
 */
export const Url = Named(
  'Url',
  Type.String({
    description:
      'Address of a web page: http or https, or no scheme (meaning http); parseable as a URL; with an IP address or a host name that has a top-level domain.',
    ...fromInterface('§2.1'),
  }),
);
