/**
 * The `crawlspec/typebox` entry point: everything the main entry (`crawlspec`, index.ts) exports, and the TypeBox
 * definitions of each version with the API built on them.
 *
 *   import { v2, withDefaults, migrateToV2, validate } from 'crawlspec/typebox';
 *
 *   v2.CrawlRequest                          → the TypeBox definition (a JSON Schema object), e.g. for Fastify
 *   withDefaults('v2/CrawlRequest', body)    → the body with the interface's defaults filled in
 *   migrateToV2(v1Body)                      → the v2 body asking for the same thing, with warnings
 *
 * `v1` and `v2` hold the definitions each version's module exports (request bodies, scrape options,
 * answers, events); `definitions` holds every named definition of each version (`WaitAction`, `Url`, ...),
 * and `lookup('v2/Url')` finds one by name. TypeBox checks a `format` only when its registry knows it:
 * importing this module registers the formats the definitions use (see `registerTypeBoxFormats`), so
 * `Value.Check(v2.CrawlRequest, body)` decides as the generated validators do.
 *
 * These load TypeBox and build every definition, which takes a good part of a second on a cold start: the main
 * entry leaves them out (see index.ts).
 */
export * from './index.js';
export * as v1 from './v1/index.js';
export * as v2 from './v2/index.js';
export { definitions, lookup } from './registry.js';
import { registerTypeBoxFormats } from './typeboxFormats.js';
export { registerTypeBoxFormats };
export { withDefaults, type DefaultsLevel } from './defaults.js';
export { migrateToV2, type Migrated, type MigrationKind, type MigrationResult, type NotMigrated } from './migrate.js';

// A side effect on purpose (this module is listed in `sideEffects`, so bundlers keep it): see above.
registerTypeBoxFormats();
