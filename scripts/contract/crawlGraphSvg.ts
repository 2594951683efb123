/**
 * A crawl graph (crawlGraph.ts) drawn as inline SVG for the HTML report: the test site's pages in columns by the
 * depth of their path (other origins after), each marked with what the crawl oracle expected and what came back,
 * the links between them, and a legend. Nothing is loaded: the drawing is part of the page.
 */
import type { CrawlGraph } from './report.js';

type Mark = 'returned' | 'missing' | 'extra' | 'allowed' | 'notReturned' | 'keptOut';

/** How each page is marked, and what the legend says of it. */
const MARKS: Readonly<Record<Mark, { readonly fill: string; readonly stroke: string; readonly says: string }>> = {
  returned: { fill: '#1a7f37', stroke: '#1a7f37', says: 'returned, as it must be' },
  missing: { fill: '#ffffff', stroke: '#cf222e', says: 'missing: it must be returned' },
  extra: { fill: '#cf222e', stroke: '#cf222e', says: 'extra: returned, though a rule keeps it out' },
  allowed: { fill: '#4ac26b', stroke: '#4ac26b', says: 'returned, which the rules allow' },
  notReturned: { fill: '#ffffff', stroke: '#8c959f', says: 'not returned, which the rules (or the limit) allow' },
  keptOut: { fill: '#d0d7de', stroke: '#d0d7de', says: 'not returned, as it must not be' },
};

/** A page's mark: the judge's problem first; else what was expected and what came back. */
function markOf(page: CrawlGraph['pages'][number]): Mark {
  if (page.problem !== undefined) return page.problem;
  if (page.returned) return page.expected === 'must' ? 'returned' : 'allowed';
  return page.expected === 'mustNot' ? 'keptOut' : 'notReturned';
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const COLUMN = 210;
const ROW = 26;
const LABEL_LENGTH = 26;

/** A page's label: its path and query on the start's origin, else its host too. */
function label(url: string, origin: string): string {
  let text = url;
  try {
    const parsed = new URL(url);
    text = parsed.origin === origin ? `${parsed.pathname}${parsed.search}` : `${parsed.host}${parsed.pathname}${parsed.search}`;
  } catch {
    // shown as it is
  }
  return text.length > LABEL_LENGTH ? `${text.slice(0, LABEL_LENGTH - 1)}…` : text;
}

/** The column of a page: the depth of its path on the start's origin; pages of other origins after them all. */
function columnOf(url: string, origin: string, deepest: number): number {
  try {
    const parsed = new URL(url);
    const depth = parsed.pathname.split('/').filter(Boolean).length;
    return parsed.origin === origin ? depth : deepest + 1;
  } catch {
    return deepest + 1;
  }
}

/** The counts a caption gives: pages missing and extra. */
export function graphCounts(graph: CrawlGraph): { missing: number; extra: number } {
  const marks = graph.pages.map(markOf);
  return { missing: marks.filter((m) => m === 'missing').length, extra: marks.filter((m) => m === 'extra').length + graph.strayCount };
}

export function crawlGraphSvg(graph: CrawlGraph): string {
  let origin = '';
  try {
    origin = new URL(graph.start).origin;
  } catch {
    // no origin: every page in the last column
  }
  const depths = graph.pages.map((p) => {
    try {
      const parsed = new URL(p.url);
      return parsed.origin === origin ? parsed.pathname.split('/').filter(Boolean).length : 0;
    } catch {
      return 0;
    }
  });
  const deepest = Math.max(0, ...depths);
  const columns = new Map<number, number[]>();
  graph.pages.forEach((p, i) => {
    const column = columnOf(p.url, origin, deepest);
    columns.set(column, [...(columns.get(column) ?? []), i]);
  });
  const at: { x: number; y: number }[] = [];
  for (const [column, members] of columns) {
    members.sort((a, b) => graph.pages[a]!.url.localeCompare(graph.pages[b]!.url));
    members.forEach((i, row) => (at[i] = { x: 16 + column * COLUMN, y: 18 + row * ROW }));
  }
  const width = 16 + (Math.max(...columns.keys(), 0) + 1) * COLUMN;
  const height = 24 + Math.max(...[...columns.values()].map((m) => m.length), 1) * ROW;
  const edges = graph.links.flatMap(([from = -1, to = -1]) => {
    const [a, b] = [at[from], at[to]];
    return a === undefined || b === undefined
      ? []
      : [`<line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}" stroke="#d0d7de" stroke-width="1"/>`];
  });
  const startKey = graph.start;
  const nodes = graph.pages.map((page, i) => {
    const mark = MARKS[markOf(page)];
    const { x, y } = at[i]!;
    const isStart = page.url === startKey || page.url === `${startKey}/`;
    return [
      `<g><title>${escape(`${page.url}: ${mark.says}`)}</title>`,
      `<circle cx="${x}" cy="${y}" r="${isStart ? 8 : 6}" fill="${mark.fill}" stroke="${mark.stroke}" stroke-width="${isStart ? 3 : 2}"/>`,
      `<text x="${x + 12}" y="${y + 4}" font-size="12">${escape(label(page.url, origin))}</text></g>`,
    ].join('');
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" class="crawl-graph" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escape(`the test site and the crawl ${graph.title}`)}">${edges.join('')}${nodes.join('')}</svg>`;
  const legend = (Object.keys(MARKS) as Mark[])
    .filter((m) => graph.pages.some((p) => markOf(p) === m))
    .map(
      (m) =>
        `<span class="legend"><svg width="14" height="14"><circle cx="7" cy="7" r="5" fill="${MARKS[m].fill}" stroke="${MARKS[m].stroke}" stroke-width="2"/></svg> ${MARKS[m].says}</span>`,
    )
    .join(' ');
  const strays =
    graph.strayCount === 0
      ? ''
      : `<p>returned, but no page of the test site (${graph.strayCount}): ${graph.strays.map(escape).join(', ')}${graph.strayCount > graph.strays.length ? ', ...' : ''}</p>`;
  return `${svg}<div>${legend}; the start page is drawn larger</div>${strays}`;
}
