/**
 * The HTML report of a contract run (`crawlspec contract --html FILE`): one self-contained page to attach to a CI
 * run, as Schemathesis and Dredd users do. It loads nothing from elsewhere (a Content-Security-Policy in the page
 * allows only its own inline style and script), and says what the text report says, what a reader needs first
 * first: the verdict and its exit status, the totals, why the run is incomplete when it is (the in-scope checks
 * that did not run to a verdict, grouped by why), what kept the target from being tested as a whole, then every
 * check in a table that can be filtered by state and by name, the failing checks first (ROW_ORDER), each failure
 * with what was expected, what came back, the section (a link to the reference, reportLinks.ts) and the curl line
 * to send the request again, and for each crawl-behaviour check the test site drawn as a graph with the pages expected, returned, missing and extra marked
 * (crawlGraphSvg.ts). Without its script the table is still whole: the filter only hides rows.
 *
 * Laid out for a window of 1280 pixels and of 400 (issue 40): a check's name breaks only after a dot (`<wbr>`,
 * never inside a word), a block of text wraps inside its box, and below 720 pixels each row is a block of its
 * own, so that the page never scrolls sideways.
 */
import { coverageLines } from '../../coverage/lines.js';
import type { Coverage } from '../../coverage/schema.js';
import type { RunListener } from '../engine/events.js';
import { reportFile } from './reportFile.js';
import { exitCode, totals, verdict, type CheckResult, type ContractReport, type Failure } from '../report/report.js';
import { crawlGraphSvg, graphCounts } from './crawlGraphSvg.js';
import { cut, cutLines, DetailBudget, LINE_LIMIT, notShown, shownField } from '../wire/cut.js';
import { escapeHtml } from './escapeHtml.js';
import { citationLink, installedReference } from '../../reference/citationLink.js';
import { faultLines, incompleteSections, LABEL, leading } from './text.js';
import { knownLines, knownOnly } from './knownText.js';

export const REPORT_CONTENT_SECURITY_POLICY =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; padding: 16px 24px; color: #1b1f24; }
h1 { font-size: 22px; margin: 0 0 4px; }
.verdict { display: inline-block; padding: 2px 10px; border-radius: 4px; color: #fff; font-weight: 600; }
.verdict.conformant { background: #1a7f37; } .verdict.deviations-found { background: #cf222e; }
.verdict.unreachable, .verdict.incomplete { background: #9a6700; }
.verdict.known-deviations-only { background: #57606a; } .verdict.known-deviations-out-of-date { background: #cf222e; }
.meta { color: #57606a; margin: 6px 0 12px; }
.totals span { margin-right: 14px; white-space: nowrap; display: inline-block; }
.notice { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 4px; padding: 8px 12px; margin: 8px 0; white-space: pre-wrap; overflow-wrap: break-word; }
.notice.coverage { background: #f6f8fa; border-color: #d0d7de; }
.meta { overflow-wrap: break-word; }
.filters { margin: 14px 0 8px; display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.filters input[type=search] { flex: 1; min-width: 220px; padding: 4px 8px; }
table { border-collapse: collapse; width: 100%; table-layout: fixed; }
th.name { width: 26%; } th.state { width: 104px; } th.level { width: 104px; } th.requests { width: 76px; } th.time { width: 56px; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #d0d7de; vertical-align: top; }
th { background: #f6f8fa; position: sticky; top: 0; }
td.name { font-family: ui-monospace, monospace; word-break: keep-all; overflow-wrap: normal; }
td.found { overflow-wrap: break-word; min-width: 0; }
.unit { display: none; }
.state { font-weight: 600; white-space: nowrap; }
.state-fail { color: #cf222e; } .state-pass { color: #1a7f37; } .state-inconclusive, .state-notJudged, .state-differs { color: #9a6700; } .state-skipped { color: #57606a; }
details { margin: 4px 0; } summary { cursor: pointer; }
.failure { border-left: 3px solid #cf222e; padding: 2px 0 2px 10px; margin: 6px 0; }
.difference { border-left-color: #9a6700; }
.failure dt { font-weight: 600; color: #57606a; } .failure dd { margin: 0 0 4px 0; }
figure { margin: 8px 0; } figcaption { font-weight: 600; } .crawl-graph { display: block; max-width: 100%; height: auto; } .legend { white-space: nowrap; }
pre { background: #f6f8fa; padding: 6px 8px; overflow-x: auto; white-space: pre-wrap; word-break: break-all; margin: 2px 0; max-width: 100%; box-sizing: border-box; }
@media (max-width: 720px) {
  body { padding: 8px 10px; }
  table, tbody, tr, td { display: block; width: auto; }
  thead { display: none; }
  tr.check { border-bottom: 2px solid #d0d7de; padding: 6px 0; }
  td { border: none; padding: 2px 0; }
  td.state, td.level, td.requests, td.time { display: inline-block; margin-right: 12px; }
  .unit { display: inline; }
}
`;

/** The filter: the states ticked and the text typed hide the other rows. Nothing is fetched, nothing stored. */
const SCRIPT = `
const rows = [...document.querySelectorAll('tbody tr.check')];
const boxes = [...document.querySelectorAll('.filters input[type=checkbox]')];
const search = document.querySelector('.filters input[type=search]');
const shown = document.querySelector('.shown');
function apply() {
  const states = new Set(boxes.filter((b) => b.checked).map((b) => b.value));
  const text = search.value.trim().toLowerCase();
  let count = 0;
  for (const row of rows) {
    const visible = states.has(row.dataset.status) && (text === '' || row.dataset.search.includes(text));
    row.hidden = !visible;
    if (visible) count += 1;
  }
  shown.textContent = count + ' of ' + rows.length + ' checks shown';
}
for (const box of boxes) box.addEventListener('change', apply);
search.addEventListener('input', apply);
apply();
`;

const e = escapeHtml;

/** The order of the rows: what failed first, then what did not run to a verdict, then what informs, what passed last. */
const ROW_ORDER: readonly CheckResult['status'][] = ['fail', 'inconclusive', 'skipped', 'differs', 'notJudged', 'pass'];

/** Text escaped, that may break after a dot: a check's dotted name breaks there and nowhere else. */
const breakable = (text: string) => e(text).replace(/\./g, '.<wbr>');

/** A failure, each of its fields cut as in the text report (cut.ts `shownField`). */
function failureHtml(failure: Failure, difference: boolean): string {
  const parts = [
    `<dt>what</dt><dd>${e(shownField(failure.message))}${failure.count === undefined ? '' : ` <b>× ${failure.count}</b> (the smallest request shown)`}</dd>`,
    `<dt>expected</dt><dd>${e(shownField(failure.expected))}</dd>`,
    `<dt>got</dt><dd>${failure.got === undefined ? 'nothing to show' : `<pre>${e(shownField(`${failure.got.status ?? 'no answer'} ${failure.got.body}`))}</pre>`}</dd>`,
    `<dt>source</dt><dd>${sectionHtml(failure.section)} (${e(failure.level)} level, ${e(failure.kind)})</dd>`,
  ];
  if (failure.request !== undefined) parts.push(`<dt>request</dt><dd><pre>${e(shownField(failure.request))}</pre></dd>`);
  if (failure.counterexample !== undefined) {
    const { seed, path, shrinks } = failure.counterexample;
    parts.push(`<dt>replay</dt><dd>--seed ${seed} (path ${e(path)}, shrunk ${shrinks} times)</dd>`);
  }
  return `<dl class="failure${difference ? ' difference' : ''}">${parts.join('')}</dl>`;
}

/** The entries of `failures`, as many as `budget` leaves room for, then how many are not shown. */
function entriesHtml(failures: readonly Failure[], difference: boolean, budget: DetailBudget): string[] {
  const { shown, hidden } = budget.take(failures, (f) => failureHtml(f, difference));
  return [...shown, ...(hidden > 0 ? [`<p>${e(notShown(hidden))}</p>`] : [])];
}

function checkRow(check: CheckResult, budget: DetailBudget, known: boolean): string {
  const entries = [
    ...entriesHtml(check.failures, false, budget),
    ...(check.differences.length === 0
      ? []
      : [`<p>differs from the service (does not decide the verdict):</p>`, ...entriesHtml(check.differences, true, budget)]),
    ...(check.notes ?? []).map((note) => `<p>not judged above the run's level: ${e(cut(note, LINE_LIMIT))}</p>`),
  ];
  const detail = check.detail === undefined ? '' : `<div>${e(cut(check.detail, LINE_LIMIT))}</div>`;
  const graphs = (check.crawls ?? []).map((graph) => {
    const { missing, extra } = graphCounts(graph);
    return `<figure><figcaption>${e(graph.title)} (from ${e(graph.start)}): ${missing} missing, ${extra} extra</figcaption>${crawlGraphSvg(graph)}</figure>`;
  });
  const pictures =
    graphs.length === 0
      ? ''
      : `<details class="graphs"${check.status === 'fail' ? ' open' : ''}><summary>the test site and what ${graphs.length === 1 ? 'the crawl' : `each of the ${graphs.length} crawls`} returned</summary>${graphs.join('')}</details>`;
  const body =
    (entries.length === 0
      ? detail
      : `${detail}<details${check.status === 'fail' ? ' open' : ''}><summary>${check.failures.length} failure(s), ${check.differences.length} difference(s)</summary>${entries.join('')}</details>`) +
    pictures;
  // What the filter matches: the name, the state, the level and the beginnings of the first failures' messages.
  const messages = check.failures.slice(0, 8).map((f) => f.message.slice(0, 200));
  const search = cut(`${check.name} ${check.status} ${check.level} ${messages.join(' ')}`, LINE_LIMIT).toLowerCase();
  return [
    `<tr class="check" data-status="${check.status}" data-search="${e(search)}">`,
    `<td class="name">${breakable(check.name)}</td>`,
    `<td class="state state-${check.status}">${LABEL[check.status]}${known ? ' (known)' : ''}</td>`,
    `<td class="level">${check.level}${check.inScope ? '' : ' (informs)'}</td>`,
    `<td class="requests">${check.requests}<span class="unit"> ${check.requests === 1 ? 'request' : 'requests'}</span></td>`,
    `<td class="time">${(check.durationMs / 1000).toFixed(1)} s</td>`,
    `<td class="found">${body}</td>`,
    '</tr>',
  ].join('');
}

/** The page. */
export function formatHtml(report: ContractReport, coverage?: Coverage): string {
  const result = verdict(report);
  const count = totals(report);
  const states = (Object.keys(LABEL) as CheckResult['status'][]).filter((s) => report.checks.some((c) => c.status === s));
  const title = `crawlspec contract: ${result} (${report.target})`;
  const budget = new DetailBudget();
  const rows = [...report.checks].sort((a, b) => ROW_ORDER.indexOf(a.status) - ROW_ORDER.indexOf(b.status));
  // The checks that failed only for known deviations (--baseline): marked so, they do not fail the run.
  const knownFailing = knownOnly(report);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>crawlspec contract <span class="verdict ${result.replace(/ /g, '-')}">${e(result)}</span></h1>
<div class="meta">target ${e(report.target)} · level ${report.level} · versions ${report.versions.join(', ')} · seed ${report.seed} · ${report.runs} generated request(s) per check · exit status ${exitCode(report)}</div>
<div class="totals"><span>passed ${count.passed}</span><span>failed ${count.failed}</span><span>inconclusive ${count.inconclusive}</span><span>skipped ${count.skipped}</span><span>differs ${count.differs}</span><span>not judged ${count.notJudged}</span></div>
${[faultLines(report), knownLines(report), ...incompleteSections(report), ...leading(report)]
  .filter((lines) => lines.length > 0)
  .map((lines) => `<div class="notice">${breakable(cutLines(lines.join('\n')))}</div>`)
  .join('\n')}${coverage === undefined ? '' : `\n<div class="notice coverage">${e(coverageLines(coverage).join('\n'))}</div>`}
<div class="filters">${states
    .map(
      (s) =>
        `<label><input type="checkbox" value="${s}" checked> ${LABEL[s]} (${report.checks.filter((c) => c.status === s).length})</label>`,
    )
    .join(
      ' ',
    )}<input type="search" placeholder="filter by name or message" aria-label="filter by name or message"><span class="shown"></span></div>
<table>
<thead><tr><th class="name">check</th><th class="state">state</th><th class="level">level</th><th class="requests">requests</th><th class="time">time</th><th>what it found</th></tr></thead>
<tbody>
${rows.map((check) => checkRow(check, budget, knownFailing.has(check.name))).join('\n')}
</tbody>
</table>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** `--html FILE`: the HTML report written as the run ends; with `coverage` (reporters/coverage.ts), the spec coverage. */
export const htmlReporter = (path: string, coverage: () => Coverage | undefined = () => undefined): RunListener =>
  reportFile(path, 'the HTML report', (report) => formatHtml(report, coverage()));

/** A citation as HTML: a link to its section of the installed reference (the report is a page that stands alone). */
export function sectionHtml(section: string): string {
  const href = citationLink(section, installedReference());
  return href === undefined ? escapeHtml(section) : `<a href="${escapeHtml(href)}">${escapeHtml(section)}</a>`;
}
