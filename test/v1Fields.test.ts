/**
 * A v1 field in a v2 body (issue 44): validate() says what v2 uses instead, from the table migrateToV2 converts
 * the renamed fields by (schemas/v1Fields.ts); the table names exactly fields v1 has and v2 lacks, and the v2 field
 * it points at exists; a field of neither version is still "not a known field here".
 */
import { describe, expect, it } from 'vitest';
import { migrateToV2 } from '../schemas/migrate.js';
import { definitions, type Version } from '../schemas/registry.js';
import { objectOf } from '../schemas/rule.js';
import { validate, type SchemaName, type ValidationIssue } from '../schemas/validate.js';
import { V1_FIELDS, type Rename, type V1Field } from '../schemas/v1Fields.js';

const url = 'https://example.com/docs';
const urls = ['https://example.com/a'];

const fieldsOf = (version: Version, name: string): string[] => Object.keys(objectOf(definitions[version].get(name)!)!.properties);

/** A v2 body holding `field` (with a value of the v1 type) where the definition `definition` is. */
function v2BodyWith(definition: string, field: string, value: unknown): { schema: SchemaName; body: unknown; path: string } {
  switch (definition) {
    case 'CrawlRequest':
      return { schema: 'v2/CrawlRequest', body: { url, [field]: value }, path: `$.${field}` };
    case 'ScrapeOptions':
      return { schema: 'v2/CrawlRequest', body: { url, scrapeOptions: { [field]: value } }, path: `$.scrapeOptions.${field}` };
    default:
      return { schema: 'v2/BatchScrapeRequest', body: { urls, [field]: value }, path: `$.${field}` };
  }
}

/** A value of the v1 field's type that v1 accepts on its own. */
const V1_VALUES: Readonly<Record<string, unknown>> = {
  ignoreSitemap: true,
  allowBackwardLinks: true,
  maxDepth: 3,
  parsePDF: false,
  geolocation: { country: 'DE' },
  jsonOptions: { prompt: 'the title' },
  extract: { prompt: 'the title' },
  changeTrackingOptions: { modes: ['git-diff'] },
  __experimental_cache: true,
};

const issueAt = (result: ReturnType<typeof validate>, path: string): ValidationIssue | undefined =>
  result.valid ? undefined : result.errors.find((issue) => issue.path === path);

describe('a v1 field in a v2 body', () => {
  it('parsePDF: says that v2 uses parsers', () => {
    const result = validate('v2/CrawlRequest', { url, scrapeOptions: { parsePDF: false } });
    expect(result).toEqual({
      valid: false,
      errors: [
        expect.objectContaining({
          path: '$.scrapeOptions.parsePDF',
          rule: 'additionalProperties',
          message: '`parsePDF` is v1; v2 uses `parsers` (["pdf"] for true, [] for false)',
        }),
      ],
    });
  });

  it('maxDepth: says that v2 has nothing like it, and why maxDiscoveryDepth is not it', () => {
    expect(issueAt(validate('v2/CrawlRequest', { url, maxDepth: 2 }), '$.maxDepth')?.message).toBe(
      '`maxDepth` is v1; v2 cannot limit a crawl by the depth of the URL path (`maxDiscoveryDepth` is a different measure: link hops in discovery order, the start page and sitemap pages at depth 0)',
    );
  });

  const cases = Object.entries(V1_FIELDS).flatMap(([definition, fields]) => fields.map((field) => ({ definition, from: field.from, field })));
  it.each(cases)('$from in $definition: v1 has it, v2 does not, and v2 says what it uses instead', ({ definition, field }) => {
    expect(fieldsOf('v1', definition)).toContain(field.from);
    expect(fieldsOf('v2', definition)).not.toContain(field.from);
    if ('to' in field) expect(fieldsOf('v2', definition)).toContain((field as Rename).to);

    const { schema, body, path } = v2BodyWith(definition, field.from, V1_VALUES[field.from]);
    expect(issueAt(validate(schema, body), path)?.message).toBe(`\`${field.from}\` is v1; v2 ${(field as V1Field).inV2}`);
    // In a v1 body the same field is known (v1's own rules on it aside: jsonOptions asks for a json format).
    expect(issueAt(validate(schema.replace('v2/', 'v1/') as SchemaName, body), path)).toBeUndefined();
  });

  it('a renamed field migrates to the field its message names', () => {
    for (const [definition, fields] of Object.entries(V1_FIELDS))
      for (const field of fields.filter((f): f is Rename => 'to' in f)) {
        const { body } = v2BodyWith(definition, field.from, V1_VALUES[field.from]);
        const migrated = migrateToV2(body).request!;
        const where = definition === 'ScrapeOptions' ? (migrated.scrapeOptions as Record<string, unknown>) : migrated;
        expect(where, `${definition}.${field.from}`).toHaveProperty(field.to, field.convert(V1_VALUES[field.from])!.value);
        expect(where).not.toHaveProperty(field.from);
      }
  });

  it('a field of neither version is still not a known field', () => {
    expect(issueAt(validate('v2/CrawlRequest', { url, scrapeOptions: { parsePdf: false } }), '$.scrapeOptions.parsePdf')?.message).toBe(
      'is not a known field here',
    );
    expect(issueAt(validate('v1/CrawlRequest', { url, sitemap: 'skip' }), '$.sitemap')?.message).toBe('is not a known field here');
  });
});
