/**
 * `generated/vectors/rules.json`: the rules written as code (`schemas/codeRules/`), each with where it applies
 * (the definition, the object inside its body it looks at, the fields it concerns).
 */
import { CODE_RULES } from '../../schemas/codeRules/index.js';
import { pointerSegment } from '../../schemas/place.js';
import type { SchemaName } from '../../schemas/validate.js';

interface RuleUse {
  readonly schema: SchemaName;
  /** JSON Pointer of the object the rule looks at, inside a body of `schema` ('' for the body itself). */
  readonly at: string;
  readonly fields: readonly string[];
  readonly description: string;
}

/** When the service began applying each code rule as written (service-facts §13), by id. */
function ruleDates(): Map<string, string> {
  const dates = new Map<string, string>();
  for (const placed of Object.values(CODE_RULES))
    for (const { rule } of placed ?? []) if (rule.since !== undefined) dates.set(rule.id, rule.since);
  return dates;
}

const pointer = (segments: readonly (string | number)[]) => segments.map((s) => `/${pointerSegment(s)}`).join('');

function codeRuleUses(): Map<string, RuleUse[]> {
  const byId = new Map<string, RuleUse[]>();
  const names = (Object.keys(CODE_RULES) as SchemaName[]).sort();
  for (const schema of names) {
    for (const { at, rule } of CODE_RULES[schema] ?? []) {
      const uses = byId.get(rule.id) ?? [];
      uses.push({ schema, at: pointer(at), fields: [...rule.fields], description: rule.description });
      byId.set(rule.id, uses);
    }
  }
  return new Map([...byId].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function rulesDocument() {
  return {
    description:
      'The rules written as code (schemas/codeRules): JSON Schema cannot say them. A vector test with `rule` is decided by the JSON Schema and that rule; a runner with only a JSON Schema validator skips it (the validator accepts its data). Each use says the definition, the object inside its body the rule looks at (a JSON Pointer), the fields it concerns and what it requires there. `since`, where given, is when the service began applying the rule as written (the date of its change, or `by 2026-08-21` for a change in place by then).',
    rules: [...codeRuleUses()].map(([id, appliesTo]) => {
      const since = ruleDates().get(id);
      return { id, ...(since === undefined ? {} : { since }), appliesTo };
    }),
  };
}

export function codeRuleIds(): string[] {
  return [...codeRuleUses().keys()];
}
