/**
 * A webhook may not set the header the service signs its deliveries with (`X-Firecrawl-Signature`: an HMAC of
 * the body, which a caller's value would forge or break). Header names carry no letter case, so neither does
 * the rule. Code rather than JSON Schema: JSON Schema could say it (`patternProperties` with a caseless pattern
 * mapped to `false`), but TypeBox only adds that to the webhook object as an intersection (`WithRules`), whose
 * values the kit's generator (scripts/contract/generation/arbitrary.ts) filters through TypeBox's checker, and that checker
 * refuses every webhook `url` (a `uri`) in a process that has not registered the TypeBox formats.
 */
import { BY_SERVICE_STATE } from '../annotations.js';
import { field, isRecord, NO_PROBLEMS, type CodeRule, type RuleProblem } from './codeRule.js';

export const SIGNATURE_HEADER = 'X-Firecrawl-Signature';
const LOWER = SIGNATURE_HEADER.toLowerCase();

export const webhookSignatureHeader: CodeRule = {
  id: 'webhookSignatureHeader',
  source: 'service',
  // The signature header dates from 2025-09-02; service-facts §13 lists its refusal undated.
  since: BY_SERVICE_STATE,
  fields: ['headers'],
  triggers: ['headers'],
  description: `The headers may not include \`${SIGNATURE_HEADER}\`, in any letter case: the service sets it to sign each delivery.`,
  check(webhook) {
    const headers = field(webhook, 'headers');
    if (!isRecord(headers)) return NO_PROBLEMS;
    let problems: RuleProblem[] | undefined;
    for (const name of Object.keys(headers)) {
      // Only a name of the right length is lower-cased: a map of many headers costs one pass and no copies.
      if (name.length === LOWER.length && name.toLowerCase() === LOWER)
        (problems ??= []).push({ at: ['headers', name], message: `The following headers are not allowed: ${LOWER}` });
    }
    return problems ?? NO_PROBLEMS;
  },
  keeps: (webhook) => headersKept(webhook.headers),
  reads: ['headers'],
  keepsWith: (_webhook, headers) => headersKept(headers),
};

/** As `check`, over the names where they stand (`for...in` and an own-property test: no array of names). */
function headersKept(headers: unknown): boolean {
  if (!isRecord(headers)) return true;
  for (const name in headers)
    if (Object.prototype.hasOwnProperty.call(headers, name) && name.length === LOWER.length && name.toLowerCase() === LOWER) return false;
  return true;
}
