/**
 * `__proto__` / `constructor` / `prototype` keys at every level of a body pollute nothing: `validate()`,
 * `withDefaults`, `migrateToV2` and `parseRequestBody` keep them as the plain keys they are, and no prototype
 * gains a property.
 */
import { describe, expect, it } from 'vitest';
import { withDefaults } from '../schemas/defaults.js';
import { validationErrorBody } from '../schemas/errorEnvelope.js';
import { migrateToV2 } from '../schemas/migrate.js';
import { validate } from '../schemas/validate.js';
import { deepFreeze, sharesContainers } from './support/hostileValues.js';
import { type Obj, type Version, brief, hook, issuesOf, url } from './support/hostileInputs.js';

// ---------------------------------------------------------------------------------------------------------
// __proto__, constructor, prototype

describe('__proto__, constructor and prototype keys at every level', () => {
  const KEYS = ['__proto__', 'constructor', 'prototype'];
  const objectKeys = KEYS.map((key) => `"${key}":{"polluted":"yes"}`).join(',');
  const stringKeys = KEYS.map((key) => `"${key}":"yes"`).join(',');
  const text = (version: Version) =>
    `{"url":"${url}",${objectKeys},"scrapeOptions":{${objectKeys},` +
    `"headers":{${stringKeys}},"location":{"country":"US",${objectKeys}},"actions":[{"type":"wait","milliseconds":1,${objectKeys}}],` +
    (version === 'v1'
      ? `"formats":["json"],"jsonOptions":{"schema":{${objectKeys},"properties":{${objectKeys}}}}},`
      : `"formats":[{"type":"json","schema":{${objectKeys},"properties":{${objectKeys}}}}]},`) +
    `"webhook":{"url":"${hook}","metadata":{${stringKeys}},${objectKeys}}}`;

  const unpolluted = () => {
    expect(({} as Obj)['polluted']).toBeUndefined();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('polluted');
  };

  for (const version of ['v1', 'v2'] as const) {
    it(`${version}: unknown keys of closed objects, at their paths; open objects take them; nothing is polluted`, () => {
      const body = deepFreeze(JSON.parse(text(version)) as Obj);
      expect(Object.keys(body)).toContain('__proto__');
      const result = validate(`${version}/CrawlRequest`, body);
      const places = ['$', '$.scrapeOptions', '$.webhook'];
      const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
      expect(brief(result).sort(byPath)).toEqual(
        places.flatMap((place) =>
          KEYS.map((key) => ({ path: `${place}.${key}`, rule: 'additionalProperties', message: 'is not a known field here' })),
        ),
      );
      expect(validationErrorBody(version, issuesOf(result)).details).toEqual(
        [[], ['webhook'], ['scrapeOptions']].map((path) => ({
          code: 'unrecognized_keys',
          message: `Unrecognized key in body -- please review the ${version} API documentation for request body changes`,
          path,
          keys: KEYS,
        })),
      );
      unpolluted();
    });

    it(`${version}: withDefaults and migrateToV2 keep them as ordinary own keys`, () => {
      const body = deepFreeze(JSON.parse(text(version)) as Obj);
      const outputs = [withDefaults(`${version}/CrawlRequest`, body), ...(version === 'v1' ? [migrateToV2(body).request] : [])];
      for (const output of outputs) {
        const out = output as Obj & { scrapeOptions: Obj & { headers: Obj } };
        expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
        expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toEqual(JSON.parse('{"polluted":"yes"}'));
        expect(Object.keys(out.scrapeOptions.headers)).toEqual(KEYS);
        expect(sharesContainers(body, out)).toBe(false);
      }
      unpolluted();
    });
  }
});
