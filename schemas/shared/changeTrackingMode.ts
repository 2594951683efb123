import { Type } from '@sinclair/typebox';
import { Named, fromInterface, fromService } from '../annotations.js';

/**
 * The interface names `git-diff` as a mode used (§2.3) and shows no other (§2.6); the service also knows `json`
 * and decides which values are allowed, so the union is the service's and only the `git-diff` value the interface's.
 */
export const ChangeTrackingMode = Named(
  'ChangeTrackingMode',
  Type.Union([Type.Literal('git-diff', fromInterface('§2.3')), Type.Literal('json')], {
    description: 'Change tracking mode: `git-diff` (a diff of the markdown) or `json` (compare extracted data).',
    ...fromService(),
  }),
);
