import { Type } from '@sinclair/typebox';
import { BY_SERVICE_STATE, Named, extension, fromInterface, keywordSources, serviceLevelDefault, serviceSince } from '../annotations.js';
import { ruleMarks } from '../rule.js';
import { COUNTRY_PATTERN, COUNTRY_RULE_MESSAGE, GEOLOCATION_COUNTRY_RULE_MESSAGE, ISO_COUNTRY_PATTERN } from './countries.js';

/**
 * Location emulation. The service ignores unknown keys here, so the object is open.
 */
export const Location = Named(
  'Location',
  Type.Object(
    {
      country: Type.Optional(
        Type.String({
          pattern: COUNTRY_PATTERN,
          // Interface §2.5 says "country code"; the list of codes accepted (ISO 3166-1 alpha-2, XK, us-generic) is the service's.
          ...ruleMarks({ id: 'countryCode', keyword: 'pattern', message: COUNTRY_RULE_MESSAGE, source: 'service' }),
          description:
            "Country to emulate: an ISO 3166-1 alpha-2 code (any letter case; `XK` included), or the service's `us-generic` or `us-whitelist`. Without a location object the service emulates the US. The service lower-cases the code it is given and, in a location without a country, uses `us-generic`.",
          default: 'US',
          examples: ['US', 'DE'],
          ...fromInterface('§2.5'),
          ...keywordSources({ pattern: 'service' }),
          ...serviceSince({ pattern: BY_SERVICE_STATE }),
          ...serviceLevelDefault({ value: 'us-generic', since: BY_SERVICE_STATE }),
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

/**
 * The deprecated v1 `geolocation`, the older name of `location`: the service takes country codes only there
 * (`US-generic` is what it fills in for an absent country, not a value a caller may send) and words its refusal
 * as it did before. Open, as `location` is.
 */
export const Geolocation = Named(
  'Geolocation',
  Type.Object(
    {
      country: Type.Optional(
        Type.String({
          pattern: ISO_COUNTRY_PATTERN,
          ...ruleMarks({ id: 'geolocationCountryCode', keyword: 'pattern', message: GEOLOCATION_COUNTRY_RULE_MESSAGE, source: 'service' }),
          description: 'Country to emulate: an ISO 3166-1 alpha-2 code, in any letter case (`XK` included).',
          examples: ['US', 'DE'],
          ...extension(),
        }),
      ),
      languages: Type.Optional(
        Type.Array(Type.String({ examples: ['en-US'] }), {
          description: 'Languages to emulate, as language tags in order of preference.',
          ...extension(),
        }),
      ),
    },
    { description: 'Location to emulate (the deprecated form of `location`).', ...extension() },
  ),
);
