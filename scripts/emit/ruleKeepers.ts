/**
 * The rules written as code, composed per definition (`generated/fast/keepers.js`): for each definition that has
 * such rules, one function that asks every rule's `keeps` at its place, in the order of the definition's list,
 * reading the fields each place of the body needs in one walk over its keys (asking a rule with `triggers` only
 * when one of them is there, and handing a rule with `reads` the fields it reads), and
 * answers the index of the first rule whose cheap answer is no (-1 when the body keeps them all). `validate()` asks it of every body the fast path accepts; only when it names a rule
 * are the rules checked, from that one on (those before it kept).
 *
 * Why generated rather than a loop over `CODE_RULES`: a loop shares one call site among every rule of every
 * definition, which the engine cannot specialise (it calls each `keeps` through a generic, megamorphic call and
 * walks each rule's place from the top); here each call site calls one rule, and the body's places are read once.
 * On the typical v2 crawl that halves what the rules cost. The module imports nothing: it is given `CODE_RULES`
 * and codeRule.ts's `isRecord`, and picks the rules by their index in their definition's list, which
 * `npm run generate -- --check` keeps in step with schemas/codeRules/index.ts (and test/ruleKeepers.test.ts checks
 * the composition against the rules one by one).
 */
import { CODE_RULES, type PlacedRule } from '../../schemas/codeRules/index.js';
import type { SchemaName } from '../../schemas/validate.js';
import { keyDispatch } from './keyDispatch.js';

export const RULE_KEEPERS_FILE = 'keepers.js';

/** The rules placed at one object of the body, and the objects inside it that have rules, by field. */
interface Place {
  readonly rules: {
    readonly variable: string;
    readonly index: number;
    readonly triggers: readonly string[] | undefined;
    /** The fields its `keepsWith` is given (CodeRule.reads), when it has one. */
    readonly reads: readonly string[] | undefined;
  }[];
  readonly inner: Map<string, Place>;
}

const newPlace = (): Place => ({ rules: [], inner: new Map() });

/** The fields a place's walk reads: its rules' triggers and `reads`, and the fields holding its inner places. */
const neededFields = (place: Place): string[] => [
  ...new Set([...place.rules.flatMap(({ triggers, reads }) => [...(triggers ?? []), ...(reads ?? [])]), ...place.inner.keys()]),
];

/**
 * The definitions whose fast path (fastPath.ts) keeps the fields the composition reads at the top of a body, as its
 * own walk over the body's keys meets them, in `captured[name]` of this module: the composition asked right after
 * the fast path said yes, given that record, then reads them there instead of walking the keys a second time. The
 * request bodies: what a server validates, and whose keys are the most (the bench's mixed stream, a fresh process,
 * alternated: `validate()` 0.40-0.41x parse with the second walk, 0.35-0.40x without). Only the top of the body: a
 * nested definition's function may run more than once in one body, and what it kept would be the last one's. The
 * composition empties the record as it takes it; a body the fast path refused leaves what it kept of it there until
 * the next body of its kind (a few references, never more than one body's per kind).
 */
export const CAPTURED: readonly SchemaName[] = ['v1/BatchScrapeRequest', 'v1/CrawlRequest', 'v2/BatchScrapeRequest', 'v2/CrawlRequest'];

/** The places of a definition's rules, from the top of the body. */
function placesOf(name: keyof typeof CODE_RULES): Place {
  const placed: readonly PlacedRule[] = CODE_RULES[name] ?? [];
  const root = newPlace();
  placed.forEach(({ at, rule }, i) => {
    let place = root;
    for (const segment of at) {
      const key = String(segment);
      if (!place.inner.has(key)) place.inner.set(key, newPlace());
      place = place.inner.get(key)!;
    }
    place.rules.push({ variable: ruleVariable(name, i), index: i, triggers: rule.triggers, reads: rule.reads });
  });
  return root;
}

/** The fields the fast path of each CAPTURED definition keeps, by definition name. */
export function capturedFields(): ReadonlyMap<SchemaName, readonly string[]> {
  return new Map(CAPTURED.map((name) => [name, neededFields(placesOf(name))]));
}

const NAMES = (Object.keys(CODE_RULES) as (keyof typeof CODE_RULES)[]).sort();
const ruleVariable = (name: keyof typeof CODE_RULES, i: number) => `r${NAMES.indexOf(name)}_${i}`;

/**
 * The statements that check one place held in `variable` (already known to be an object). The fields its rules'
 * triggers and its inner places need are read in one walk over the keys the object has (keyDispatch.ts says
 * why), each into a local; a field the walk does not meet is absent.
 */
function placeCode(place: Place, variable: string, indent: string, counter: { next: number }, captured?: string): string[] {
  const needed = neededFields(place);
  const locals = new Map(needed.map((name) => [name, `o${counter.next++}`]));
  const lines: string[] = [];
  if (needed.length > 0) {
    const key = `k${counter.next++}`;
    const cases = new Map(needed.map((name) => [name, [`${locals.get(name)!} = ${variable}[${key}];`]]));
    const walk = [`for (const ${key} in ${variable}) {`, ...keyDispatch(key, cases).map((line) => `  ${line}`), '}'];
    lines.push(
      `${indent}let ${[...locals.values()].join(', ')};`,
      ...(captured === undefined
        ? walk
        : [
            // What the fast path's walk over this object kept just before (CAPTURED), when given: no second walk.
            `if (${captured} !== undefined) {`,
            ...needed.map((name) => `  ${locals.get(name)!} = ${captured}[${JSON.stringify(name)}];`),
            // Taken: the record holds nothing of the body after it (a server's last request is not kept alive by it).
            `  ${needed.map((name) => `${captured}[${JSON.stringify(name)}]`).join(' = ')} = undefined;`,
            `} else {`,
            ...walk.map((line) => `  ${line}`),
            '}',
          ]
      ).map((line) => `${indent}${line}`),
    );
  }
  for (const { variable: rule, index, triggers, reads } of place.rules) {
    // A rule with triggers is asked only when the object holds one of them; one with `reads` is given those fields
    // as the walk read them (CodeRule.reads says why).
    const held = (triggers ?? []).map((name) => `${locals.get(name)!} !== undefined`);
    const guard = held.length === 0 ? '' : `${held.length === 1 ? held[0] : `(${held.join(' || ')})`} && `;
    const ask =
      reads === undefined
        ? `${rule}.keeps(${variable})`
        : `${rule}.keepsWith(${[variable, ...reads.map((name) => locals.get(name)!)].join(', ')})`;
    lines.push(`${indent}if (${guard}!${ask}) return ${index};`);
  }
  for (const [key, inner] of place.inner) {
    const name = locals.get(key)!;
    lines.push(`${indent}if (isRecord(${name})) {`, ...placeCode(inner, name, `${indent}  `, counter), `${indent}}`);
  }
  return lines;
}

export function ruleKeepersModule(): { js: string; dts: string } {
  const bindings: string[] = [];
  const functions: string[] = [];
  for (const name of NAMES) {
    const placed: readonly PlacedRule[] = CODE_RULES[name] ?? [];
    // The code asks place by place: it asks in the list's order only if each place's rules are listed together.
    const keys = placed.map(({ at }) => at.join('\u0000'));
    keys.forEach((key, i) => {
      if (i > 0 && key !== keys[i - 1] && keys.indexOf(key) < i)
        throw new Error(`${name}: the rules at "${key}" are not listed together in CODE_RULES; list each place's rules in a row`);
    });
    placed.forEach(({ at, rule }, i) => {
      bindings.push(
        `  const ${ruleVariable(name, i)} = placed[${JSON.stringify(name)}][${i}].rule; // ${rule.id}${at.length > 0 ? ` at ${at.join('.')}` : ''}`,
      );
      if ((rule.reads === undefined) !== (rule.keepsWith === undefined))
        throw new Error(`${name}: rule ${rule.id} has one of reads and keepsWith without the other`);
    });
    const root = placesOf(name);
    const kept = CAPTURED.includes(name) ? 'c' : undefined;
    functions.push(
      `    ${JSON.stringify(name)}(${kept === undefined ? 'x' : `x, ${kept}`}) {`,
      '      if (!isRecord(x)) return -1;',
      ...placeCode(root, 'x', '      ', { next: 1 }, kept),
      '      return -1;',
      '    },',
    );
  }
  const captured = [...capturedFields()].map(
    ([name, fields]) => `  ${JSON.stringify(name)}: { ${fields.map((field) => `${JSON.stringify(field)}: undefined`).join(', ')} },`,
  );
  const header = '// Generated by scripts/generate.ts from schemas/codeRules/index.ts: do not edit.\n';
  const doc = [
    '/**',
    ' * Per definition that has rules written as code, the index in its list of the first rule whose `keeps` says no at',
    ' * its place, or -1 when `x` keeps every one (a place that is not an object has nothing to keep). `placed` is',
    " * CODE_RULES; `isRecord` is codeRule.ts's. A request definition's takes `captured[name]` as a second argument",
    ' * right after its fast path said yes of `x`: the fields at the top of the body are then read there, not by a walk.',
    ' */',
  ];
  const capturedDoc = [
    '/**',
    " * Per request definition, the fields at the top of the body the composition reads, as the definition's fast path",
    " * (generated/fast/<version>.js) met them in its walk over the body's keys (undefined: the body has no such key).",
    ' */',
  ];
  const js = [
    header,
    ...capturedDoc,
    'export const captured = {',
    ...captured,
    '};',
    '',
    ...doc,
    'export function ruleKeepers(placed, isRecord) {',
    ...bindings,
    '  return {',
    ...functions,
    '  };',
    '}',
    '',
  ].join('\n');
  const placedType = [
    '  placed: Readonly<',
    '    Record<',
    '      string,',
    '      readonly {',
    '        readonly rule: {',
    '          keeps(object: Readonly<Record<string, unknown>>): boolean;',
    '          keepsWith?(object: Readonly<Record<string, unknown>>, ...fields: unknown[]): boolean;',
    '        };',
    '      }[]',
    '    >',
    '  >,',
    '  isRecord: (value: unknown) => value is Readonly<Record<string, unknown>>,',
  ];
  const dts = [
    header,
    ...capturedDoc,
    'export declare const captured: Readonly<Record<string, Record<string, unknown>>>;',
    '',
    ...doc,
    'export declare function ruleKeepers(',
    ...placedType,
    '): Readonly<Record<string, (x: unknown, captured?: Readonly<Record<string, unknown>>) => number>>;',
    '',
  ].join('\n');
  return { js, dts };
}
