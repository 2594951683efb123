/**
 * One check per cross-field rule and version (`v2.rule.changeTrackingNeedsMarkdown`): each rule case's
 * invalid crawl or batch body must be refused. Plain schema limits that the cases also cover are named after
 * the field and keyword (`v2.rule.timeout.maximum`). A rule the interface states (v2 `timeout` at most
 * 300000, v1 change tracking needing markdown) is held at interface level: refused, a 4xx and no job; the
 * others (the service's: delay at most 60, RE2 path patterns, ...) at service level; the service answers 400
 * with the error envelope either way.
 */
import { RULES } from '../../../schemas/annotations.js';
import { definitions, type Version } from '../../../schemas/registry.js';
import type { RuleSpec } from '../../../schemas/rule.js';
import { validate, type SchemaName } from '../../../schemas/validate.js';
import { simpleCheck, START, type Check, type Citation } from '../check.js';
import { refusal } from '../expect.js';
import { levelOf, lowest, type Level } from '../levels.js';
import { RULE_CASES, type RuleCase } from '../ruleCases.js';
import type { JobKind } from '../spec.js';

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

/** The last name in a JSON path, e.g. `formats` in `$.scrapeOptions.formats[0]` (`body` for `$`). */
function lastName(path: string): string {
  // Tried only where a name can start (`(?<![\w$])`), so the search stays linear in the path's length.
  return /(?<![\w$])([A-Za-z_$][\w$]*)(?:\[\d+\])*$/.exec(path)?.[1] ?? 'body';
}

/** The check's name part for a case: the rule id, or `field.keyword` for a plain schema limit. */
export function ruleName(c: RuleCase): string {
  const issue = c.issues[0]!;
  return SCHEMA_KEYWORDS.has(issue.rule) ? `${lastName(issue.path)}.${issue.rule}` : issue.rule;
}

/** `https://example.com...` in a case, pointed at the run's site (when the case still breaks its rule). */
function onSite(c: RuleCase, siteUrl: string): unknown {
  const moved = JSON.parse(JSON.stringify(c.invalid).replaceAll('"https://example.com', `"${siteUrl}`)) as unknown;
  const result = validate(`${c.version}/${c.schema}` as SchemaName, moved);
  const rules = result.valid ? [] : result.errors.map((e) => e.rule);
  return c.issues.every((i) => rules.includes(i.rule)) ? moved : c.invalid;
}

/** Where the case's rule comes from, as `validate` tells it. */
function caseSource(c: RuleCase): string {
  const result = validate(`${c.version}/${c.schema}` as SchemaName, c.invalid);
  const rule = c.issues[0]!.rule;
  return (result.valid ? undefined : result.errors.find((e) => e.rule === rule)?.source) ?? 'service';
}

/** The names a rule of `version` is stated with (`RuleSpec.stated`), found in the definitions' rule marks. */
function statedNames(version: Version, id: string): readonly string[] | undefined {
  let stated: readonly string[] | undefined;
  JSON.stringify([...definitions[version].values()], (key, value: unknown) => {
    if (key === RULES && Array.isArray(value)) stated ??= (value as RuleSpec[]).find((r) => r.id === id)?.stated;
    return value;
  });
  return stated;
}

export function ruleChecks(version: Version): Check[] {
  const groups = new Map<string, RuleCase[]>();
  for (const c of RULE_CASES) {
    if (c.version !== version || !(c.schema in KIND_OF)) continue;
    const name = `${version}.rule.${ruleName(c)}`;
    groups.set(name, [...(groups.get(name) ?? []), c]);
  }
  return [...groups].map(([name, cases]) => {
    const sources = [...new Set(cases.map(caseSource))];
    const level = sources.map(levelOf).reduce<Level>(lowest, 'service');
    const rule = name.slice(`${version}.rule.`.length);
    // An interface citation names what the section states the rule with (else the fields); the service's, the rule.
    const fields = statedNames(version, rule) ?? [...new Set(cases.map((c) => lastName(c.issues[0]!.path)))];
    const cites: Citation[] = sources.map((source) => ({ source, names: source === 'service' ? [rule] : fields }));
    return simpleCheck(
      {
        name,
        level,
        proves: `Each ${version} request breaking ${rule} (${cases.length} case${cases.length === 1 ? '' : 's'}) is refused and starts no job${level === 'interface' ? ' (the interface states the rule)' : ''}; the service answers 400 with the error envelope.`,
        cites,
        startsJob: false,
        cost: cases.length * START,
      },
      async (attempt) => {
        for (const c of cases) {
          const body = onSite(c, attempt.options.siteUrl);
          const what = `${c.title}; ${c.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`;
          await attempt.start(version, KIND_OF[c.schema]!, { json: body }, refusal(version, `${version}/${c.schema}` as SchemaName, body, what));
        }
      },
    );
  });
}
