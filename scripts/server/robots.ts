/**
 * robots.txt as the reference server's crawler reads it (issue 22, findings 2 and 4): bounded in what it
 * keeps, and with the cost of judging an address against it known before the address is judged.
 *
 * The rules are robots-parser's, run by `CrawlRules` (the crawl oracle's rules: the server and the oracle
 * judge alike). robots-parser matches a pattern as Google's parser does: after a `*`, each character of the
 * pattern is tried at every position of the path it may have reached, so a rule costs about its length
 * times the path's; and each rule allocates an array as long as the path. A 300 KB rule and three links of
 * 1,500 characters held the server 8–11 s. So, before robots-parser sees it, a robots.txt is bounded:
 *   - it is read up to `MAX_ROBOTS_BYTES` (500 KiB, what Google's parser reads), its last line cut there
 *     dropped: what is past the bound is ignored, not the whole file (which would allow everything);
 *   - a line is cut at `MAX_ROBOTS_LINE_CHARS` (16,664 characters, Google's `kMaxLineLen`);
 *   - at most `MAX_ROBOTS_AGENTS` user agents name one group, and at most `MAX_ROBOTS_RULES` rules are read
 *     (a rule line counts once for each user agent of its group): further ones are ignored (a rule line
 *     past the bound is kept as an empty `Disallow:`, which adds no rule and still ends the group's agents);
 *   - a run of `*` in a pattern is written as one `*` (it matches the same).
 * `cost(url)` bounds the steps robots-parser takes to judge `url` (a step is about a nanosecond, measured:
 * 5,000 rules against a path of 2,000 characters take 8 ms, a 15,000-character wildcard rule 26 ms): the
 * crawler charges it to its budget before judging, and leaves an address out when the budget cannot pay
 * (`crawler.ts`). Per rule: `RULE_STEPS`, the path (the array), and the characters of the pattern before its
 * first `*` (at most the path's length of them are compared); and, when the path may begin with those
 * characters (it does, or they are not plain ASCII, which robots-parser encodes first), `STAR_STEPS` for
 * each character from the `*` on and each position of the path. Past a `*`, each other character moves the
 * shortest match on by one position at least, so at most twice the path's length of them are ever tried.
 */
/** Bytes of a robots.txt read (Google's parser reads 500 KiB). */
export const MAX_ROBOTS_BYTES = 500 * 1024;
/** Characters of a robots.txt line read (Google's parser: `kMaxLineLen`, 2083 × 8). */
export const MAX_ROBOTS_LINE_CHARS = 2083 * 8;
/** Rules read, each rule line counted once for each user agent of its group. */
export const MAX_ROBOTS_RULES = 5000;
/** User agents of one group read. */
export const MAX_ROBOTS_AGENTS = 32;

/** What robots-parser spends on each rule besides the path (a call and its bookkeeping), in steps. */
const RULE_STEPS = 100;
/** What robots-parser spends per path position per pattern character after a `*` (about three times a plain step, measured). */
const STAR_STEPS = 3;
/** What a rule takes in memory besides its pattern (robots-parser's object, in a list per user agent), in bytes. */
const RULE_BYTES = 200;

/** Characters `encodeURI` leaves as they are (but `%`): a pattern start made of them is compared as robots-parser compares it. */
const PLAIN = /^[A-Za-z0-9\-_.!~'()*;/?:@&=+$,#[\]]*$/;

interface WildRule {
  /** The pattern before its first `*`, when plain (else undefined: the path may begin with it). */
  readonly start: string | undefined;
  /** Characters from the first `*` on. */
  readonly tail: number;
}

export interface BoundedRobots {
  /** The robots.txt as robots-parser is given it. */
  readonly text: string;
  /** Its `Sitemap:` addresses (those robots-parser's `getSitemaps` gives). */
  readonly sitemaps: readonly string[];
  /** Bytes it holds once parsed (its text and its rules), counted in what the crawl holds. */
  readonly bytes: number;
  /** The steps robots-parser takes at most to judge `url` (absolute) against it. */
  cost(url: URL): number;
}

/** The directive of a robots.txt line and its value, as robots-parser reads them; undefined for a line it skips. */
function directiveOf(line: string): { readonly name: string; readonly value: string } | undefined {
  const comment = line.indexOf('#');
  const text = comment < 0 ? line : line.slice(0, comment);
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  const name = text.slice(0, colon).trim().toLowerCase();
  return name === '' ? undefined : { name, value: text.slice(colon + 1).trim() };
}

/** `text` (a robots.txt; `cut`: it was cut at MAX_ROBOTS_BYTES) bounded as the module comment says, and what judging against it costs. */
export function boundRobots(text: string, cut: boolean): BoundedRobots {
  const lines = text.split(/\r\n|\r|\n/);
  if (cut) lines.pop(); // the line the bound cut through
  const kept: string[] = [];
  const sitemaps: string[] = [];
  const wild: WildRule[] = [];
  let rules = 0;
  let patterns = 0;
  let agents = 0;
  let inAgents = false;
  for (const whole of lines) {
    let line = whole.length > MAX_ROBOTS_LINE_CHARS ? whole.slice(0, MAX_ROBOTS_LINE_CHARS) : whole;
    const directive = directiveOf(line);
    if (directive === undefined) {
      kept.push(line);
      continue;
    }
    if (directive.name === 'user-agent') {
      agents = inAgents ? agents + 1 : 1;
      inAgents = true;
      if (agents <= MAX_ROBOTS_AGENTS) kept.push(line);
      continue;
    }
    inAgents = false;
    // The sitemaps as robots-parser's `getSitemaps` gives them, read in the same pass rather than by parsing the file twice.
    if (directive.name === 'sitemap' && directive.value !== '') sitemaps.push(directive.value);
    if ((directive.name === 'allow' || directive.name === 'disallow') && directive.value !== '') {
      const entries = Math.min(agents, MAX_ROBOTS_AGENTS);
      if (rules + entries > MAX_ROBOTS_RULES) line = 'Disallow:';
      else {
        rules += entries;
        const pattern = directive.value.replace(/\*{2,}/g, '*');
        if (pattern !== directive.value) line = `${directive.name}: ${pattern}`;
        patterns += pattern.length * entries;
        const star = pattern.indexOf('*');
        if (star >= 0) {
          const start = pattern.slice(0, star);
          wild.push({ start: PLAIN.test(start) ? start : undefined, tail: pattern.length - star });
        }
      }
    }
    kept.push(line);
  }
  return {
    text: kept.join('\n'),
    sitemaps,
    bytes: 2 * patterns + RULE_BYTES * rules,
    cost(url) {
      const path = (url.pathname + url.search).replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
      const positions = path.length + 1;
      let steps = url.href.length + rules * (RULE_STEPS + positions) + Math.min(patterns, rules * positions);
      for (const rule of wild)
        if (rule.start === undefined || path.startsWith(rule.start))
          steps += STAR_STEPS * Math.min(rule.tail, 2 * positions + 1) * positions;
      return steps;
    },
  };
}
