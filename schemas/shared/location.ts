import { Type } from '@sinclair/typebox';
import { Named, fromInterface } from '../annotations.js';

/**
 * Location emulation. The service ignores unknown keys here, so the object is open.
 */
export const Location = Named(
  'Location',
  Type.Object(
    {
      country: Type.Optional(
        Type.String({
          description: 'Country to emulate, as a country code. Without a location object the service emulates the US.',
          default: 'US',
          examples: ['US', 'DE'],
          ...fromInterface('§2.5'),
        }),
      ),
      languages: Type.Optional(
        Type.Array(Type.String({ examples: ['en-US'] }), {
          description: 'Languages to emulate, as language tags in order of preference.',
          ...fromInterface('§2.5'),
        }),
      ),
    },
    {
      description:
        'Location to emulate. A matching proxy is used when one is available, along with the language and time zone of that place.',
      ...fromInterface('§2.5'),
    },
  ),
);
