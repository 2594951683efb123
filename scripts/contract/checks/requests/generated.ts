/**
 * Generated requests (property.ts). Valid safe bodies must start a job (followed and cancelled): at
 * interface level bodies made of interface fields and values only (`vN.<kind>.start.valid`), at service level
 * bodies that may carry the service's extensions (`vN.<kind>.start.valid.service`). Bodies broken by one
 * mutation of each kind must be refused (`vN.<kind>.start.invalid.<kind>`): at interface level when the
 * broken constraint is the interface's, else at service level (expect.ts `refusal`). In a run at interface level
 * they are broken from bodies of interface fields and values only, so that an implementation refusing what the
 * interface does not list still shows each refusal against an accepted base (safeRequests.ts `invalidRequests`).
 *
 * Failures are put in classes so that each distinct problem is reported, shrunk on its own: a refused valid
 * body by its status and the reason the target gave (the paths of the error's details, else its message);
 * an invalid body let through by the path and rule it broke.
 */
import { definitions, type Version } from '../../../../schemas/registry.js';
import { jsonPath } from '../../../../schemas/issues.js';
import { startRefused } from '../../engine/baseline.js';
import { START, type Check } from '../../engine/check.js';
import { acceptance, refusal } from '../../engine/expect.js';
import { lowest, type Level } from '../../spec/levels.js';
import { mutationLevels } from '../../generation/mutationLevels.js';
import { MUTATION_KINDS } from '../../generation/mutations.js';
import { generatedCheck } from '../../engine/property.js';
import type { Failure } from '../../report/report.js';
import {
  DROPPED_REQUEST_FIELDS,
  DROPPED_SCRAPE_OPTIONS,
  invalidRequests,
  requestName,
  requestSchema,
  safeRequests,
  type InvalidKind,
  type InvalidRequest,
} from '../../generation/safeRequests.js';
import type { JobKind } from '../../spec/operations.js';
import { startFollowCancel } from '../../engine/follow.js';

export const INVALID_KINDS: readonly InvalidKind[] = [...MUTATION_KINDS, 'otherVersionField'];
const KINDS: readonly JobKind[] = ['crawl', 'batch'];
const DROPPED = new Set<string>([...DROPPED_REQUEST_FIELDS, ...DROPPED_SCRAPE_OPTIONS]);

const section = (kind: JobKind) => (kind === 'crawl' ? 'interface §2.1' : 'interface §2.2');
const optionsSection = (version: Version) => (version === 'v1' ? 'interface §2.3' : 'interface §2.4');

/** Indexes in a path made generic (`urls[3]` → `urls[]`). */
const generic = (path: string) => path.replace(/\[\d+\]/g, '[]');

/** What a refusal of a valid body says about why: the paths its error details name, else its message with the numbers left out. */
function refusalReason(failure: Failure): string {
  const body = failure.got?.body ?? '';
  try {
    const answer = JSON.parse(body) as { details?: { path?: unknown[] }[]; error?: unknown };
    const paths = Array.isArray(answer.details)
      ? answer.details.map((d) => (Array.isArray(d?.path) ? d.path.filter((s) => typeof s === 'string').join('.') : '')).filter(Boolean)
      : [];
    if (paths.length > 0) return [...new Set(paths)].sort().join(',');
    if (typeof answer.error === 'string') return answer.error.replace(/\d+/g, '#').slice(0, 120);
  } catch {
    // not JSON: the status says it
  }
  return '';
}

const validClass = (failure: Failure) => `${failure.level}|${failure.kind}|${failure.got?.status ?? 'none'}|${refusalReason(failure)}`;

export function validStartChecks(version: Version): Check[] {
  return KINDS.flatMap((kind) =>
    (['interface', 'service'] as const).map((level) =>
      generatedCheck({
        name: `${version}.${kind}.start.valid${level === 'service' ? '.service' : ''}`,
        level,
        proves:
          level === 'interface'
            ? `Generated ${version} ${kind} requests made of interface fields and values only are accepted (200) with a valid start answer; the status its url gives is read and held to the service's answer (service level).`
            : `Generated ${version} ${kind} requests that also carry the service's extension fields and values are accepted, with a valid start answer and status.`,
        cites:
          level === 'interface'
            ? [
                { source: section(kind), names: [kind === 'crawl' ? 'url' : 'urls'] },
                { source: optionsSection(version), names: ['formats', 'onlyMainContent'] },
                { source: 'interface §4', names: ['success', 'id', 'url'] },
              ]
            : [{ source: 'service', names: ['extension fields'] }],
        startsJob: true,
        perAttempt: START + 1,
        arbitrary: (env) => safeRequests(version, kind, env.options.siteUrl, level),
        body: (attempt, body) =>
          startFollowCancel(
            attempt,
            version,
            kind,
            body,
            acceptance(
              level,
              `a valid ${requestName(kind)}${level === 'interface' ? ' of interface fields and values' : ''}`,
              section(kind),
            ),
          ),
        classOf: validClass,
      }),
    ),
  );
}

export function invalidStartChecks(version: Version): Check[] {
  return KINDS.flatMap((kind) =>
    INVALID_KINDS.map((mutation) => {
      const definition = definitions[version].get(requestName(kind))!;
      const { levels, interfaceSites } = mutationLevels(definition, mutation, DROPPED);
      const level = [...levels].reduce<Level>(lowest, 'service');
      return generatedCheck<InvalidRequest>({
        name: `${version}.${kind}.start.invalid.${mutation}`,
        level,
        proves: `Generated ${version} ${kind} requests broken by one ${mutation} mutation are refused and start no job, where the valid body they were broken from is accepted${
          level === 'interface' ? ' (at interface level when the broken constraint is the interface’s)' : ''
        }; the service answers 400 with the error envelope.`,
        // The interface's constraints this kind of mutation breaks, by section (the fields whose type, bound,
        // enum or presence it states), then the service's answer.
        cites: [
          ...[...interfaceSites].sort(([a], [b]) => a.localeCompare(b)).map(([source, names]) => ({ source, names: [...names].sort() })),
          { source: 'service', names: ['400', 'ErrorResponse'] },
        ],
        // Its refusals are held against bases that start jobs (baseline.ts).
        startsJob: true,
        // The broken body, and its valid base when the broken one is refused (baseline.ts).
        perAttempt: 2 * START,
        arbitrary: (env) => invalidRequests(version, kind, mutation, env.options.siteUrl, env.options.level),
        body: async (attempt, invalid) => {
          const name = requestSchema(version, kind);
          const what = `the body is not a valid ${name} (${invalid.description} at ${jsonPath(invalid.errorPath)})`;
          await startRefused(attempt, version, kind, { json: invalid.body }, refusal(version, name, invalid.body, what), invalid.base);
        },
        classOf: (failure, invalid) => `${failure.level}|${failure.kind}|${generic(jsonPath(invalid.errorPath))}|${invalid.rule}`,
      });
    }),
  );
}
