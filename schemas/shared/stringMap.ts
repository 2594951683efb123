import { Type } from '@sinclair/typebox';
import { Named, fromInterface, fromService } from '../annotations.js';

/**
 * An object whose values are all strings: HTTP headers, webhook metadata. The interface says "object"
 * (§2.3 `headers`); that every value is a string is the service's.
 */
export const StringMap = Named(
  'StringMap',
  Type.Record(Type.String(), Type.String(fromService()), {
    description: 'Object with string values.',
    ...fromInterface('§2.3'),
  }),
);
