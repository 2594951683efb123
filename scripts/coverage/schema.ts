/**
 * The JSON form of spec coverage (model.ts): what a contract run (`crawlspec contract --json`, its `coverage`) or a
 * recording of traffic (`crawlspec check-traffic --json`) exercised of the spec. Published as
 * crawlspec/contract/coverage.schema.json; its types are inferred from here.
 */
import { Type, type Static, type TArray, type TString } from '@sinclair/typebox';

const closed = { additionalProperties: false } as const;
const count = (description: string) => Type.Integer({ minimum: 0, description });

/** The measures, in the order they are said. */
export const MEASURES = [
  'operations',
  'statuses',
  'checkedAnswers',
  'requestFields',
  'invalidFields',
  'enumValues',
  'rules',
  'answerFields',
] as const;
export type MeasureName = (typeof MEASURES)[number];

const MEASURE_WORDS: Record<MeasureName, string> = {
  operations: 'Operations that got at least one request.',
  statuses: 'Documented answers (an operation and a status it documents) seen at least once.',
  checkedAnswers: 'Documented answers whose body was checked against the definition of that status at least once.',
  requestFields: 'Fields of request bodies (a JSON path per definition) sent at least once with a valid value.',
  invalidFields: 'Fields of request bodies sent at least once with a value that breaks the spec there.',
  enumValues: 'Values of the enums and literal unions of request bodies (formats, parsers, action types, ...) sent at least once.',
  rules: 'Rules of request bodies (schema-marked and written as code) exercised both ways: kept by one body and broken by another.',
  answerFields: 'Fields of answer bodies (a JSON path per definition) observed at least once.',
};

export const MeasureSchema = Type.Object(
  {
    covered: count('How many were covered.'),
    total: count('How many there are.'),
    percent: Type.Number({ minimum: 0, maximum: 100, description: 'covered / total × 100, to one decimal (100 when there are none).' }),
  },
  closed,
);

const StatusSchema = Type.Object(
  {
    status: Type.Integer({ minimum: 100, maximum: 599 }),
    documented: Type.Boolean({ description: 'The operation documents this status (schemas/operations.ts).' }),
    seen: count('Answers with this status.'),
    checked: count('Of them, answers whose body was checked.'),
  },
  closed,
);

export const CoverageSchema = Type.Object(
  {
    exchanges: count('Exchanges fed to the coverage.'),
    outsideSpec: count('Exchanges that address no operation of the spec (another path, another method).'),
    overall: Type.Number({
      minimum: 0,
      maximum: 100,
      description: 'The mean of the percentages of the measures that have anything to cover (what `--min-coverage N` holds).',
    }),
    measures: Type.Object(
      Object.fromEntries(MEASURES.map((m) => [m, { ...MeasureSchema, description: MEASURE_WORDS[m] }])) as Record<
        MeasureName,
        typeof MeasureSchema
      >,
      closed,
    ),
    operations: Type.Array(
      Type.Object(
        {
          operation: Type.String({ description: 'Method and path template, e.g. `POST /v2/crawl`.' }),
          operationId: Type.String(),
          exchanges: count('Requests it got.'),
          statuses: Type.Array(StatusSchema, { description: 'Every status it documents, then those seen that it does not.' }),
        },
        closed,
      ),
    ),
    requestFields: Type.Array(
      Type.Object(
        {
          schema: Type.String({ description: 'The request definition, e.g. `v2/CrawlRequest`.' }),
          path: Type.String({ description: 'The field, as a JSON path (`[]`: any item).' }),
          valid: count('Bodies that sent it with a value that breaks nothing there.'),
          invalid: count('Bodies that sent it with a value that breaks the spec there (or inside it).'),
        },
        closed,
      ),
    ),
    enumValues: Type.Array(
      Type.Object({ schema: Type.String(), path: Type.String(), value: Type.String(), sent: count('Bodies that sent it there.') }, closed),
    ),
    rules: Type.Array(
      Type.Object(
        {
          rule: Type.String({ description: 'The rule id, as validate() reports it in an issue’s `rule`.' }),
          version: Type.Union([Type.Literal('v1'), Type.Literal('v2')]),
          satisfied: count('Bodies it applied to that kept it.'),
          broken: count('Bodies that broke it.'),
        },
        closed,
      ),
    ),
    answerFields: Type.Array(
      Type.Object(
        { schema: Type.String({ description: 'The answer definition, e.g. `v2/JobStatusResponse`.' }), path: Type.String(), observed: count('Answers that held it.') },
        closed,
      ),
    ),
    untouched: Type.Object(
      Object.fromEntries(
        MEASURES.map((m) => [m, Type.Array(Type.String(), { description: `What the measure ${m} did not cover, named.` })]),
      ) as Record<MeasureName, TArray<TString>>,
      { ...closed, description: 'What nothing covered, per measure.' },
    ),
  },
  { ...closed, title: 'crawlspec spec coverage', description: 'What a run or a recording of traffic exercised of the spec.' },
);

export type Coverage = Static<typeof CoverageSchema>;
export type Measure = Static<typeof MeasureSchema>;
