/**
 * v2 scrape options the service accepts beyond the interface, for privacy and safety: PII redaction,
 * threat protection, browser profiles, audit metadata and lockdown. All are service extensions.
 */
import { Type } from '@sinclair/typebox';
import { Named, extension, serviceDefault, serviceSince } from '../annotations.js';
import { Literals } from '../literals.js';

const literals = <const T extends readonly string[]>(values: T, description: string, defaultValue?: T[number]) =>
  Literals(values, { description, ...(defaultValue === undefined ? {} : serviceDefault(defaultValue)), ...extension() });

export const RedactPiiOptions = Named(
  'RedactPiiOptions',
  Type.Object(
    {
      mode: Type.Optional(literals(['accurate', 'aggressive', 'fast'], 'Detection mode.', 'accurate')),
      entities: Type.Optional(
        Type.Array(literals(['PERSON', 'EMAIL', 'PHONE', 'LOCATION', 'FINANCIAL', 'SECRET'], 'Kind of personal data.'), {
          description: 'Kinds of personal data to redact; all when absent.',
          ...extension(),
        }),
      ),
      replaceStyle: Type.Optional(literals(['tag', 'mask', 'remove'], 'How redacted text is replaced.', 'tag')),
    },
    { additionalProperties: false, description: 'How personal data is redacted.', ...extension() },
  ),
);

export const privacyOptionFields = {
  redactPII: Type.Optional(
    Type.Union([Type.Boolean(), RedactPiiOptions], {
      description: 'Redact personal data from the output; `true` uses the default options.',
      ...extension(),
      ...serviceSince('2026-06-01'),
    }),
  ),
  threatProtection: Type.Optional(
    Type.Object(
      {},
      { description: 'Screening of pages against known threats (enterprise).', ...extension(), ...serviceSince('2026-07-07') },
    ),
  ),
  profile: Type.Optional(
    Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 128, description: 'Name of the saved browser profile.', ...extension() }),
        saveChanges: Type.Optional(
          Type.Boolean({ ...serviceDefault(true), description: 'Save cookies and storage back to the profile.', ...extension() }),
        ),
      },
      {
        additionalProperties: false,
        description: 'Browser profile (cookies, storage) to scrape with.',
        ...extension(),
        ...serviceSince('2026-03-23'),
      },
    ),
  ),
  auditMetadata: Type.Optional(
    Type.Object({}, { description: 'Caller data recorded in the audit log.', ...extension(), ...serviceSince('2026-07-27') }),
  ),
  lockdown: Type.Optional(
    Type.Boolean({
      ...serviceDefault(false),
      description: 'Lockdown mode. When true and `maxAge` is absent, cached copies up to two years old are used.',
      ...extension(),
      ...serviceSince('2026-04-21'),
    }),
  ),
};
