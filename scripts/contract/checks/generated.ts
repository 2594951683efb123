/**
 * Generated requests: valid safe bodies must start a job (followed and cancelled); bodies broken by one
 * mutation of each kind must be refused with 400 and the error envelope.
 */
import type { Version } from '../../../schemas/registry.js';
import type { Check } from '../check.js';
import { MUTATION_KINDS } from '../mutations.js';
import { generatedCheck } from '../property.js';
import { invalidRequests, requestSchema, safeRequests, type InvalidKind } from '../safeRequests.js';
import { sourceAt, type JobKind } from '../spec.js';
import { jsonPath } from '../../../schemas/issues.js';
import { startFollowCancel } from './follow.js';

export const INVALID_KINDS: readonly InvalidKind[] = [...MUTATION_KINDS, 'otherVersionField'];
const KINDS: readonly JobKind[] = ['crawl', 'batch'];

export function validStartChecks(version: Version): Check[] {
  return KINDS.map((kind) =>
    generatedCheck(
      `${version}.${kind}.start.valid`,
      { startsJob: true },
      (env) => safeRequests(version, kind, env.options.siteUrl),
      (attempt, body) => startFollowCancel(attempt, version, kind, body),
    ),
  );
}

export function invalidStartChecks(version: Version): Check[] {
  return KINDS.flatMap((kind) =>
    INVALID_KINDS.map((mutation) =>
      generatedCheck(
        `${version}.${kind}.start.invalid.${mutation}`,
        { startsJob: false },
        (env) => invalidRequests(version, kind, mutation, env.options.siteUrl),
        async (attempt, invalid) => {
          const name = requestSchema(version, kind);
          await attempt.start(
            version,
            kind,
            { json: invalid.body },
            {
              status: 400,
              expected: `400 with a body valid as ${version}/ErrorResponse (success: false): the body is not a valid ${name} (${invalid.description} at ${jsonPath(invalid.errorPath)})`,
              section: sourceAt(version, name.slice(3), invalid.errorPath),
            },
          );
        },
      ),
    ),
  );
}
