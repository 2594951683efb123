/**
 * The contract kit's rooms (scripts/contract/, issue 42), bottom first: a file may import from its own room and
 * from the rooms below it, never from one above. So each room can be read, tested and changed knowing only what is
 * below it: the engine knows no check and no output format, a reporter never reaches into a check, and adding an
 * output touches no file of the engine. docs/development.md draws them.
 */
export const KIT = 'scripts/contract/';

export const ROOMS = [
  'spec', // levels, citations, expectations, what the spec says of answers
  'wire', // the HTTP client and what bounds it: budgets, time limit, redaction, cutting, curl lines, jobs
  'report', // the report model: its schema, verdict, causes
  'known', // known deviations: a run's faults held against a file of them (--baseline)
  'generation', // request bodies: arbitraries, mutations, rule cases
  'engine', // a run, a check's attempt, expectations held, refusal bases, preflight, the run's events
  'checks', // what is proven: requests, lifecycle, webhooks, crawl, scrape and batch behaviour
  'reporters', // outputs: progress, text, JSON, JUnit, HTML, Markdown, the HAR recording
  'replay', // sending a recording's failing exchanges again
  'index.ts', // the public entry
] as const;

/** The room of a file of the kit (its rank in ROOMS), or undefined for a file outside the kit. */
export function roomOf(file: string): number | undefined {
  if (!file.startsWith(KIT)) return undefined;
  const first = file.slice(KIT.length).split('/')[0]!;
  const rank = (ROOMS as readonly string[]).indexOf(first);
  if (rank < 0) throw new Error(`${file} is in no room of the kit: expected it under one of ${ROOMS.join(', ')} (scripts/build/kitRooms.ts)`);
  return rank;
}

/** The imports of the kit that go up a room: `from` imports `to`, which is in a room above its own. */
export function upwardImports(edges: Iterable<readonly [from: string, to: string]>): string[] {
  const out: string[] = [];
  for (const [from, to] of edges) {
    const a = roomOf(from);
    const b = roomOf(to);
    if (a !== undefined && b !== undefined && b > a) out.push(`${from} (${ROOMS[a]}) imports ${to} (${ROOMS[b]}, a room above)`);
  }
  return out;
}
