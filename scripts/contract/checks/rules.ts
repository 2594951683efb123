/**
 * One check per cross-field rule and version (`v2.rule.changeTrackingNeedsMarkdown`): each rule case's
 * invalid crawl or batch body must be refused with 400 and the error envelope. Plain schema limits that
 * the cases also cover are named after the field and keyword (`v2.rule.timeout.maximum`).
 */
import type { Version } from '../../../schemas/registry.js';
import { validate, type SchemaName } from '../../../schemas/validate.js';
import { simpleCheck, type Check } from '../check.js';
import { RULE_CASES, type RuleCase } from '../ruleCases.js';
import { sourceAt, type JobKind } from '../spec.js';

const SCHEMA_KEYWORDS = new Set([
  'type',
  'required',
  'additionalProperties',
  'enum',
  'const',
  'maximum',
  'minimum',
  'exclusiveMaximum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'maxItems',
  'minItems',
  'format',
  'pattern',
]);

const KIND_OF: Record<string, JobKind> = { CrawlRequest: 'crawl', BatchScrapeRequest: 'batch' };

/** The check's name part for a case: the rule id, or `field.keyword` for a plain schema limit. */
export function ruleName(c: RuleCase): string {
  const issue = c.issues[0]!;
  if (!SCHEMA_KEYWORDS.has(issue.rule)) return issue.rule;
  // The last name in the path, e.g. `formats` in `$.scrapeOptions.formats[0]`; tried only where a name can start
  // (`(?<![\w$])`), so the search stays linear in the path's length.
  const field = /(?<![\w$])([A-Za-z_$][\w$]*)(?:\[\d+\])*$/.exec(issue.path)?.[1] ?? 'body';
  return `${field}.${issue.rule}`;
}

/** `https://example.com...` in a case, pointed at the run's site (when the case still breaks its rule). */
function onSite(c: RuleCase, siteUrl: string): unknown {
  const moved = JSON.parse(JSON.stringify(c.invalid).replaceAll('"https://example.com', `"${siteUrl}`)) as unknown;
  const result = validate(`${c.version}/${c.schema}` as SchemaName, moved);
  const rules = result.valid ? [] : result.errors.map((e) => e.rule);
  return c.issues.every((i) => rules.includes(i.rule)) ? moved : c.invalid;
}

export function ruleChecks(version: Version): Check[] {
  const groups = new Map<string, RuleCase[]>();
  for (const c of RULE_CASES) {
    if (c.version !== version || !(c.schema in KIND_OF)) continue;
    const name = `${version}.rule.${ruleName(c)}`;
    groups.set(name, [...(groups.get(name) ?? []), c]);
  }
  return [...groups].map(([name, cases]) =>
    simpleCheck(name, { startsJob: false }, async (attempt) => {
      for (const c of cases) {
        const kind = KIND_OF[c.schema]!;
        const body = onSite(c, attempt.options.siteUrl);
        const issue = c.issues[0]!;
        const result = validate(`${version}/${c.schema}` as SchemaName, body);
        const segments = result.valid ? [] : (result.errors.find((e) => e.rule === issue.rule)?.segments ?? []);
        await attempt.start(
          version,
          kind,
          { json: body },
          {
            status: 400,
            expected: `400 with a body valid as ${version}/ErrorResponse (success: false): ${c.title}; ${c.issues
              .map((i) => `${i.path}: ${i.message}`)
              .join('; ')}`,
            section: sourceAt(version, c.schema, segments),
          },
        );
      }
    }),
  );
}
