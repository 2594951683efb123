/** Every example the OpenAPI documents publish is valid for the schema it illustrates. */
import { describe, expect, it } from 'vitest';
import { specExamples } from '../scripts/examples.js';
import { validate } from '../schemas/validate.js';

for (const version of ['v1', 'v2'] as const) {
  describe(`${version} examples`, async () => {
    const examples = await specExamples(version);

    it('cover the request body of every start endpoint and an answer of every operation', () => {
      const labels = examples.map((e) => e.label);
      for (const path of ['crawl', 'batch/scrape'])
        expect(labels.some((l) => l.startsWith(`${version} POST /${version}/${path} request`))).toBe(true);
      expect(labels.filter((l) => l.includes('→ 200')).length).toBeGreaterThanOrEqual(10);
    });

    for (const example of examples) {
      it(`${example.label} is a valid ${example.schema}`, () => {
        const result = validate(example.schema, example.value);
        expect(result.valid ? [] : result.errors).toEqual([]);
      });
    }
  });
}
