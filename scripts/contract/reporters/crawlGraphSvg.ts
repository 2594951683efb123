/**
 * A crawl graph (crawlGraph.ts) drawn as inline SVG for the HTML report: the test site's pages in columns by the
 * depth of their path (other origins after), each marked with what the crawl oracle expected and what came back,
 * the links between them, and a legend. Nothing is loaded: the drawing is part of the page.
 */
import { pageKey } from '../../../schemas/crawl/site.js';
import { escapeHtml } from './escapeHtml.js';
import type { CrawlGraph } from '../report/report.js';

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

const COLUMN = 210;
const ROW = 26;
const LABEL_LENGTH = 26;

/** Where a page is drawn from: its address read once, with its depth on the start's origin (undefined elsewhere). */
interface Placed {
  readonly label: string;
  readonly depth: number | undefined;
}

/** A page's label (its path and query on the start's origin, else its host too) and the depth of its path there. */
function place(url: string, origin: string): Placed {
  let text = url;
  let depth: number | undefined;
  try {
    const parsed = new URL(url);
    const local = parsed.origin === origin;
    text = `${local ? '' : parsed.host}${parsed.pathname}${parsed.search}`;
    depth = local ? parsed.pathname.split('/').filter(Boolean).length : undefined;
  } catch {
    // shown as it is, after the pages of the start's origin
  }
  return { label: text.length > LABEL_LENGTH ? `${text.slice(0, LABEL_LENGTH - 1)}…` : text, depth };
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
  // Columns by depth on the start's origin; the pages of other origins in one column after the deepest.
  const placed = graph.pages.map((p) => place(p.url, origin));
  const deepest = Math.max(0, ...placed.map((p) => p.depth ?? 0));
  const columns = new Map<number, number[]>();
  placed.forEach(({ depth }, i) => {
    const column = depth ?? deepest + 1;
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
  const start = pageKey(graph.start);
  const nodes = graph.pages.map((page, i) => {
    const mark = MARKS[markOf(page)];
    const { x, y } = at[i]!;
    const isStart = page.url === start;
    return [
      `<g><title>${escapeHtml(`${page.url}: ${mark.says}`)}</title>`,
      `<circle cx="${x}" cy="${y}" r="${isStart ? 8 : 6}" fill="${mark.fill}" stroke="${mark.stroke}" stroke-width="${isStart ? 3 : 2}"/>`,
      `<text x="${x + 12}" y="${y + 4}" font-size="12">${escapeHtml(placed[i]!.label)}</text></g>`,
    ].join('');
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" class="crawl-graph" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(`the test site and the crawl ${graph.title}`)}">${edges.join('')}${nodes.join('')}</svg>`;
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
      : `<p>returned, but no page of the test site (${graph.strayCount}): ${graph.strays.map(escapeHtml).join(', ')}${graph.strayCount > graph.strays.length ? ', ...' : ''}</p>`;
  return `${svg}<div>${legend}; the start page is drawn larger</div>${strays}`;
}
