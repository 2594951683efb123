import { Type } from '@sinclair/typebox';
import { Named, fromInterface } from '../annotations.js';

/** A page address to crawl or scrape (crawl `url`, each batch `urls` entry). */
export const Url = Named(
  'Url',
  Type.String({
    minLength: 1,
    description: 'Address of a web page (http or https).',
    ...fromInterface('§2.1'),
  }),
);
