/**
 * The kit's catalogue: every check of a run over some versions, in the order they run (cheap, job-free checks
 * first), grouped as the folders are: requests, lifecycle, webhooks, crawl, scrape and batch behaviour.
 */
import type { Version } from '../../../schemas/registry.js';
import type { Check } from '../engine/check.js';
import { behaviourChecks } from './crawl/behaviour.js';
import { activeCheck, cancelCheck, distinctIdsChecks, errorsCheck, statusCheck } from './lifecycle/lifecycle.js';
import { paginationCheck } from './lifecycle/pagination.js';
import { authChecks } from './requests/auth.js';
import { fieldChecks } from './requests/fields.js';
import { invalidStartChecks, validStartChecks } from './requests/generated.js';
import { invalidUrlChecks } from './requests/invalidUrls.js';
import { malformedJsonCheck } from './requests/json.js';
import { ruleChecks } from './requests/rules.js';
import { undocumentedStatusCheck } from './requests/undocumented.js';
import { scrapeChecks } from './scrape/scrapeChecks.js';
import { webhookChecks } from './webhooks/webhooks.js';

/** Every check of a run over `versions`, in the order they run. */
export function contractChecks(versions: readonly Version[]): Check[] {
  const each = (make: (version: Version) => Check | Check[]) => versions.flatMap(make);
  return [
    ...authChecks(versions),
    malformedJsonCheck(versions),
    ...each(undocumentedStatusCheck),
    ...each(ruleChecks),
    ...each(invalidUrlChecks),
    ...each(statusCheck),
    ...each(paginationCheck),
    ...each(cancelCheck),
    ...each(errorsCheck),
    ...each(activeCheck),
    ...each(distinctIdsChecks),
    ...each(webhookChecks),
    ...each(fieldChecks),
    ...each(behaviourChecks),
    ...each(scrapeChecks),
    ...each(validStartChecks),
    ...each(invalidStartChecks),
  ];
}

/** The names of the checks a run over `versions` reports, in order. */
export const checkNames = (versions: readonly Version[]): string[] => contractChecks(versions).map((c) => c.name);
