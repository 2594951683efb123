/**
 * What the TypeBox definitions say that `migrateToV2` (migrate.ts) needs: the v1 fields v2 renames, the defaults
 * v2 applies differently, the bounds v2 tightens, the fields the v2 format objects and actions lack. Read from
 * the definitions (`registry.ts`), not written a second time.
 */
import { CRAWL_RENAMES, SCRAPE_RENAMES, type Rename } from './v1Fields.js';
import type { TSchema } from '@sinclair/typebox';
import { definitions, type Version } from './registry.js';
import { objectOf } from './rule.js';
import { SERVICE_DEFAULT, type ServiceLevelDefault } from './annotations.js';
import { copy, deepEqual, has, isRecord, type Plain } from './migrateValues.js';

type Properties = Readonly<Record<string, Plain>>;

function propertiesOf(version: Version, name: string): Properties {
  const definition = definitions[version].get(name);
  const object = definition === undefined ? undefined : objectOf(definition);
  if (object === undefined) throw new Error(`migrate: ${version}/${name} is not an object definition`);
  return object.properties as unknown as Properties;
}

const defaultOf = (schema: Plain | undefined): { value: unknown } | undefined =>
  schema !== undefined && has(schema, 'default') ? { value: schema['default'] } : undefined;

/** A field set to its v1 default when the request leaves it absent. */
interface ExplicitDefault {
  readonly key: string;
  readonly value: unknown;
  /** v1 fields whose presence in the input means the default does not apply. */
  readonly unless: readonly string[];
  /** The service's own v1 default, where it differs from the interface's `value` (`x-crawlspec-service-default`). */
  readonly service?: ServiceLevelDefault;
}

/**
 * The defaults v2 would apply differently from v1: a field of both versions whose defaults differ (or that
 * has no v2 default), and a renamed field whose v1 default, mapped, differs from the v2 default.
 */
function explicitDefaults(v1: Properties, v2: Properties, renames: readonly Rename[]): ExplicitDefault[] {
  const found: ExplicitDefault[] = [];
  for (const key of Object.keys(v1)) {
    const before = defaultOf(v1[key]);
    if (before === undefined) continue;
    if (has(v2, key)) {
      const after = defaultOf(v2[key]);
      const service = v1[key]?.[SERVICE_DEFAULT] as ServiceLevelDefault | undefined;
      if (after === undefined || !deepEqual(before.value, after.value))
        found.push({ key, value: before.value, unless: [key], ...(service === undefined ? {} : { service }) });
      continue;
    }
    const rename = renames.find((r) => r.from === key);
    const mapped = rename?.convert(before.value);
    if (rename === undefined || mapped === undefined) continue;
    const after = defaultOf(v2[rename.to]);
    if (after === undefined || !deepEqual(mapped.value, after.value)) found.push({ key: rename.to, value: mapped.value, unless: [key] });
  }
  return found;
}

/** A numeric field that v2 bounds more tightly than v1. */
interface Bound {
  readonly key: string;
  readonly minimum: number | undefined;
  readonly maximum: number | undefined;
}

const numberOf = (schema: Plain | undefined, key: string): number | undefined => {
  const value = schema?.[key];
  return typeof value === 'number' ? value : undefined;
};

function tighterBounds(v1: Properties, v2: Properties): Bound[] {
  const found: Bound[] = [];
  for (const key of Object.keys(v1)) {
    if (!has(v2, key)) continue;
    const [min1, max1] = [numberOf(v1[key], 'minimum'), numberOf(v1[key], 'maximum')];
    const [min2, max2] = [numberOf(v2[key], 'minimum'), numberOf(v2[key], 'maximum')];
    const minimum = min2 !== undefined && (min1 === undefined || min1 < min2) ? min2 : undefined;
    const maximum = max2 !== undefined && (max1 === undefined || max1 > max2) ? max2 : undefined;
    if (minimum !== undefined || maximum !== undefined) found.push({ key, minimum, maximum });
  }
  return found;
}

/** Fields of `a` that `b` lacks. */
const onlyIn = (a: Properties, b: Properties): string[] => Object.keys(a).filter((key) => !has(b, key));

/** The `type` of each branch of a discriminated union of objects, with its properties. */
function branchesOf(version: Version, name: string): Map<string, Properties> {
  const union = definitions[version].get(name) as (TSchema & { anyOf?: TSchema[] }) | undefined;
  const found = new Map<string, Properties>();
  for (const branch of union?.anyOf ?? []) {
    const properties = objectOf(branch)?.properties as unknown as Properties | undefined;
    const tag = properties?.['type']?.['const'];
    if (typeof tag === 'string' && properties !== undefined) found.set(tag, properties);
  }
  if (found.size === 0) throw new Error(`migrate: ${version}/${name} is not a discriminated union`);
  return found;
}

/** Per action kind, the fields v2 reads and v1 does not know (v1 actions ignore unknown keys). */
export const ACTION_FIELDS_V1_IGNORES: ReadonlyMap<string, readonly string[]> = (() => {
  const v1 = branchesOf('v1', 'Action');
  const result = new Map<string, string[]>();
  for (const [tag, v2] of branchesOf('v2', 'Action')) {
    const fields = onlyIn(v2, v1.get(tag) ?? {});
    if (fields.length > 0) result.set(tag, fields);
  }
  return result;
})();

/** How the fields of one object of a request are migrated. */
export interface Level {
  readonly renames: readonly Rename[];
  readonly bounds: readonly Bound[];
  readonly defaults: readonly ExplicitDefault[];
  /** Whether the object holds scrape options (formats, their options, actions). */
  readonly scrapeOptions: boolean;
}

const level = (name: string, renames: readonly Rename[], scrapeOptions: boolean): Level => {
  const v1 = propertiesOf('v1', name);
  const v2 = propertiesOf('v2', name);
  return { renames, bounds: tighterBounds(v1, v2), defaults: explicitDefaults(v1, v2, renames), scrapeOptions };
};

export const CRAWL = level('CrawlRequest', CRAWL_RENAMES, false);
export const SCRAPE = level('ScrapeOptions', SCRAPE_RENAMES, true);
export const BATCH = level('BatchScrapeRequest', SCRAPE_RENAMES, true);

/** Fields of the v1 format options that the v2 format objects do not have. */
export const JSON_FIELDS_DROPPED = onlyIn(propertiesOf('v1', 'JsonOptions'), propertiesOf('v2', 'JsonFormat'));
export const CHANGE_TRACKING_FIELDS_DROPPED = onlyIn(
  propertiesOf('v1', 'ChangeTrackingOptions'),
  propertiesOf('v2', 'ChangeTrackingFormat'),
);
