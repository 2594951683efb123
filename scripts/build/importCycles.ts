/**
 * `npm run cycles`: no import cycle of more than two files in the hand-written code (`schemas/`, `scripts/`),
 * type-only imports included (issue 42). The imports are read by dependency-cruiser (maintained, MIT; its 16.x line
 * is the last that runs on Node 20), which resolves the `.js` specifiers to the TypeScript sources through
 * tsconfig.json; this script only keeps the cycles it reports, once each, and judges their length.
 *
 * A cycle of two files (a module and the one it hands a callback or a type back to) is allowed: it reads as one
 * concept split for size. A longer one means that no file of it can be understood, or moved, without the others.
 * Exit 0 with none, 1 with each printed, the files in import order.
 *
 * The same imports say whether the contract kit's rooms (kitRooms.ts) import only downward: each import up a room
 * is printed, and fails the run too.
 */
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { upwardImports } from './kitRooms.js';

const ROOTS = ['schemas', 'scripts'];

const result = await cruise(ROOTS, {
  tsConfig: { fileName: 'tsconfig.json' },
  validate: true,
  tsPreCompilationDeps: true,
  doNotFollow: { path: 'node_modules' },
  exclude: { path: '^(generated|dist|node_modules)/' },
  ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
});
const output = result.output as ICruiseResult;

/** Each cycle once, whichever of its files it was reported from: rotated to start at its least name. */
const cycles = new Map<string, string[]>();
for (const violation of output.summary.violations) {
  const path = (violation.cycle ?? []).map((step) => (typeof step === 'string' ? step : step.name));
  if (path.length === 0) continue;
  const start = path.indexOf([...path].sort()[0]!);
  const rotated = [...path.slice(start), ...path.slice(0, start)];
  cycles.set(rotated.join(' → '), rotated);
}
const long = [...cycles.values()].filter((cycle) => cycle.length > 2);
const pairs = cycles.size - long.length;
console.log(
  `${output.summary.totalCruised} modules of ${ROOTS.join(' and ')} read: ${pairs} cycle(s) of two files (allowed), ${long.length} longer`,
);
for (const cycle of long) console.log(`  a cycle of ${cycle.length} files: ${[...cycle, cycle[0]].join(' → ')}`);
const upward = upwardImports(output.modules.flatMap((m) => m.dependencies.map((d) => [m.source, d.resolved] as const)));
console.log(`the kit's rooms: ${upward.length} import(s) up a room`);
for (const line of upward) console.log(`  ${line}`);
process.exitCode = long.length > 0 || upward.length > 0 ? 1 : 0;
