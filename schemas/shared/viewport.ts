import { Type } from '@sinclair/typebox';
import { Named, fromService } from '../annotations.js';

/** Browser viewport for a v2 screenshot (format object or action). */
export const Viewport = Named(
  'Viewport',
  Type.Object(
    {
      width: Type.Integer({ minimum: 1, maximum: 7680, description: 'Viewport width in pixels.', ...fromService() }),
      height: Type.Integer({ minimum: 1, maximum: 4320, description: 'Viewport height in pixels.', ...fromService() }),
    },
    { description: 'Viewport size for the screenshot.', ...fromService() },
  ),
);
