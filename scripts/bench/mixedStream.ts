/**
 * The mixed stream: what validation costs on what a server sees, bodies of many shapes one after another, not one
 * body validated many times in a row. The stream is every body of the corpus and GENERATED_PER_SCHEMA valid bodies
 * of each request schema drawn from the definitions (fast-check, fixed seed: rules included, so scrape options,
 * webhooks and actions of every form), interleaved in a fixed order. Each pass takes the bodies in that order and,
 * as a server does, parses each body's text and validates what it parsed at once, each step timed on its own; the
 * figure is the median over the passes of validate time over parse time, once the engine has settled (a server
 * validates for hours: the first passes, while V8 is still optimising the functions a new shape reaches, are
 * reported apart, as the first pass's ratio). Then, after that mix, each corpus body alone (the tail): a body V8
 * has seen among many shapes, as a busy server sees it.
 *
 * Why each body is validated right after its own parse. Validating values parsed long before (the whole stream
 * parsed once, then validated pass after pass) reads some 800 KB of JSON's objects that have left the CPU's
 * caches since: on the machine docs/speed.md names, that cost validate a tenth more (0.35-0.37 against 0.31-0.33
 * in one process each way) for reads no server makes. The clock is read around each step (performance.now(), some
 * 40 ns a reading on that machine): the same small amount added to both times, which raises their ratio a little,
 * never lowers it.
 */
import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { lookup } from '../../schemas/registry.js';
import { validate, type SchemaName } from '../../schemas/validate.js';
import { arbitraryFor } from '../contract/generation/arbitrary.js';
import type { BenchBody } from './corpus.js';
import { median, nsPerCall, type MeasureOptions } from './measure.js';

export const REQUEST_SCHEMAS: readonly SchemaName[] = [
  'v1/CrawlRequest',
  'v1/BatchScrapeRequest',
  'v2/CrawlRequest',
  'v2/BatchScrapeRequest',
];
/** Valid bodies drawn per request schema: 520 in all. */
export const GENERATED_PER_SCHEMA = 130;
const SEED = 20261127;

/** `GENERATED_PER_SCHEMA` valid bodies of each request schema, as JSON text (the rules hold: `validate` says valid). */
export function generatedBodies(perSchema = GENERATED_PER_SCHEMA): BenchBody[] {
  return REQUEST_SCHEMAS.flatMap((schema, k) => {
    const texts = arbitraryFor(lookup(schema)!, { rules: true })
      .map((value) => JSON.stringify(value))
      .filter((text) => validate(schema, JSON.parse(text)).valid);
    return fc.sample(texts, { numRuns: perSchema, seed: SEED + k }).map((text, i) => ({ name: `${schema} drawn #${i + 1}`, schema, text }));
  });
}

/** `bodies` in a fixed interleaved order (a permutation drawn with the seed). */
export function interleaved(bodies: readonly BenchBody[]): BenchBody[] {
  const order = fc.sample(fc.shuffledSubarray([...bodies.keys()], { minLength: bodies.length, maxLength: bodies.length }), {
    numRuns: 1,
    seed: SEED,
  })[0]!;
  return order.map((i) => bodies[i]!);
}

export interface StreamFigures {
  readonly bodies: number;
  readonly drawn: number;
  readonly passes: number;
  /** Unmeasured passes before them, while the engine settles. */
  readonly warmPasses: number;
  /** Validate time over parse time in the first pass of the process over the stream: the engine not yet settled. */
  readonly firstPassOverParse: number;
  /** Median over the passes of the time to parse, then to validate, every body once, in milliseconds. */
  readonly parseMs: number;
  readonly validateMs: number;
  /** Median over the passes of validate time over parse time. */
  readonly validateOverParse: number;
}

// Kept so that no call is optimised away.
let sink: unknown;

/**
 * One pass over `stream`: each body's text parsed, then what it parsed validated, each step timed; the sums of
 * both, in milliseconds. `check`: throw on a body validate refuses (the first pass checks every body once).
 */
function pass(stream: readonly BenchBody[], check: boolean): { parseMs: number; validateMs: number } {
  let parseMs = 0;
  let validateMs = 0;
  for (const body of stream) {
    const begun = performance.now();
    const value: unknown = JSON.parse(body.text);
    const parsed = performance.now();
    const result = validate(body.schema, value);
    validateMs += performance.now() - parsed;
    parseMs += parsed - begun;
    if (check && !result.valid) throw new Error(`bench mixed stream: validate refuses "${body.name}"`);
    sink = result;
  }
  return { parseMs, validateMs };
}

/** Times `passes` passes over `stream` after `warmPasses` unmeasured ones (the first one's ratio kept); every body must be valid. */
export function measureStream(stream: readonly BenchBody[], drawn: number, passes: number, warmPasses: number): StreamFigures {
  const first = pass(stream, true);
  for (let warm = 1; warm < warmPasses; warm++) pass(stream, false);
  const parse: number[] = [];
  const valid: number[] = [];
  const ratios: number[] = [];
  for (let n = 0; n < passes; n++) {
    const { parseMs, validateMs } = pass(stream, false);
    parse.push(parseMs);
    valid.push(validateMs);
    ratios.push(validateMs / parseMs);
  }
  if (sink === Symbol.for('never')) console.log(sink);
  return {
    bodies: stream.length,
    drawn,
    passes,
    warmPasses,
    firstPassOverParse: first.validateMs / first.parseMs,
    parseMs: median(parse),
    validateMs: median(valid),
    validateOverParse: median(ratios),
  };
}

export interface TailFigure {
  readonly name: string;
  readonly bytes: number;
  readonly ns: { readonly parse: number; readonly validate: number };
  readonly validateOverParse: number;
}

/** Each body alone, measured as the corpus is (measure.ts), in a process that has just validated the mixed stream. */
export async function measureTail(bodies: readonly BenchBody[], options: MeasureOptions): Promise<TailFigure[]> {
  const tail: TailFigure[] = [];
  for (const body of bodies) {
    const value = JSON.parse(body.text) as unknown;
    const ns = await nsPerCall({ parse: () => JSON.parse(body.text), validate: () => validate(body.schema, value) }, options);
    tail.push({ name: body.name, bytes: Buffer.byteLength(body.text), ns, validateOverParse: ns.validate / ns.parse });
  }
  return tail;
}
