import { Type } from '@sinclair/typebox';
import { Named, fromInterface } from '../annotations.js';

/** An object whose values are all strings: HTTP headers, webhook metadata. */
export const StringMap = Named(
  'StringMap',
  Type.Record(Type.String(), Type.String(), {
    description: 'Object with string values.',
    ...fromInterface('§2.3'),
  }),
);
