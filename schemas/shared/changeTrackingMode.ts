import { Type } from '@sinclair/typebox';
import { Named, fromService } from '../annotations.js';

/** The interface shows `git-diff`; the service also knows `json`. */
export const ChangeTrackingMode = Named(
  'ChangeTrackingMode',
  Type.Union([Type.Literal('git-diff'), Type.Literal('json')], {
    description: 'Change tracking mode: `git-diff` (a diff of the markdown) or `json` (compare extracted data).',
    ...fromService(),
  }),
);
