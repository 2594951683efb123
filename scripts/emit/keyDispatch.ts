/**
 * Generated code that walks the keys an object has (`for...in`) and dispatches on each, for the fast path
 * (fastPath.ts) and the rules' keepers (ruleKeepers.ts). Reading each known property by name instead costs a
 * lookup per known property, present or not; on a stream of bodies of many shapes every such read site sees
 * many maps and goes megamorphic, and a lookup then often misses V8's cache of them. Measured on the bench's
 * mixed stream (the corpus and 520 drawn bodies, interleaved), after the engine has settled: the v1 and v2 fast
 * paths took 1.05-1.12x `JSON.parse` reading by name, 0.18x walking. On the corpus alone (14 shapes) the walk
 * costs a little more (0.135x against 0.105x). A small open object is read by name (fastPath.ts, NAMED_READS_UP_TO).
 *
 * The key is compared only with the cases of its length. A `switch` on the key compares it with each case in
 * turn; a Map from key to case number costs one hash lookup whatever the number of cases, and measured 0.23x
 * on the mixed stream and 0.20x on the corpus: the comparisons by length are cheaper on both.
 */

type Lines = string[];

const indent = (lines: Lines, depth: number): Lines => lines.map((line) => `${'  '.repeat(depth)}${line}`);

/**
 * Inside a `for...in` whose key is in `key`: the lines of the case the key names, when it names one, then on
 * with what follows the dispatch (a case that means to skip it ends in `continue`).
 */
export function keyDispatch(key: string, cases: ReadonlyMap<string, Lines>): Lines {
  if (cases.size === 0) return [];
  const byLength = new Map<number, string[]>();
  for (const k of cases.keys()) byLength.set(k.length, [...(byLength.get(k.length) ?? []), k]);
  const lengths = [...byLength]
    .sort(([a], [b]) => a - b)
    .flatMap(([length, keys]) => [
      `  case ${length}:`,
      ...keys.flatMap((k, i) => [`    ${i === 0 ? '' : '} else '}if (${key} === ${JSON.stringify(k)}) {`, ...indent(cases.get(k)!, 3)]),
      '    }',
      '    break;',
    ]);
  return [`switch (${key}.length) {`, ...lengths, '}'];
}
