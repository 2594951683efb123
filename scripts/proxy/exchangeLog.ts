/**
 * One line of `crawlspec proxy --log FILE`: an exchange and its verdict as JSON (exchanges.ts; already cleaned of
 * the token), bounded as the contract kit bounds what it shows (../contract/wire/cut.ts): each body cut to BODY_LIMIT
 * bytes (600), every other string to LINE_LIMIT (1000), and at most LOGGED_PROBLEMS problems, the rest counted.
 * A line so holds at most 2 × 600 + 2 × 1000 + 10 × (4 × 1000 + 40) bytes of text (the bodies, the path and `why`,
 * four strings a problem and its `sectionUrl`): about 43 KB, up to six times that where JSON escapes control
 * characters, whatever the exchange.
 */
import { truncate } from '../contract/engine/context.js';
import { cut, LINE_LIMIT } from '../contract/wire/cut.js';
import { decides, type Level } from '../contract/spec/levels.js';
import type { Violation } from './exchangeChecks.js';
import type { ExchangeRecord } from './exchanges.js';
import { citationLink } from '../reference/citationLink.js';

export const LOGGED_PROBLEMS = 10;

const short = (text: string) => cut(text, LINE_LIMIT);

/** The section's part of the reference the package ships, by its path from the package root (at most 40 bytes). */
export function sectionUrl(section: string): { sectionUrl?: string } {
  const url = citationLink(section);
  return url === undefined ? {} : { sectionUrl: url };
}

function problem(v: Violation, level: Level) {
  return {
    side: v.side,
    at: short(v.at),
    message: short(v.message),
    expected: short(v.expected),
    level: v.level,
    section: short(v.section),
    ...sectionUrl(v.section),
    decides: decides(v.level, level),
  };
}

/** The record as one JSON line (with its newline); `level`: the run's, for each problem's `decides`. */
export function logLine(record: ExchangeRecord, level: Level): string {
  const more = record.problems.length - LOGGED_PROBLEMS;
  return `${JSON.stringify({
    method: short(record.method),
    path: short(record.path),
    status: record.status,
    verdict: record.verdict,
    problems: record.problems.slice(0, LOGGED_PROBLEMS).map((v) => problem(v, level)),
    ...(more > 0 ? { moreProblems: more } : {}),
    ...(record.why === undefined ? {} : { why: short(record.why) }),
    refused: record.refused,
    ...(record.requestBody === undefined ? {} : { requestBody: truncate(record.requestBody) }),
    ...(record.answerBody === undefined ? {} : { answerBody: truncate(record.answerBody) }),
  })}\n`;
}
