/**
 * Whether the last label of a host name is a top-level domain of the ICANN section of the Public Suffix List:
 * the newer service requires a host to end in a public suffix, so a bare file name (`image_0001.jpg`), a made-up
 * suffix (`example.zz`) or a private-network name (`intranet.local`, `site.test`) is no crawl host.
 *
 * The list is tldts's, pinned to an exact version in package.json: its data is the list, so a new release can add
 * or withdraw top-level domains and with them change which addresses are valid; moving to a newer list is a
 * decision, taken by changing the pin, not something an install does. Only the ICANN section counts: its last
 * labels are the delegated top-level domains, while the private section lists names under them (`github.io`),
 * whose last label is already there. The generator writes the domains down from tldts
 * (`generated/fast/topLevelDomains.js`, scripts/emit/topLevelDomains.ts says how), so tldts is not loaded to
 * validate anything, and a browser bundle carries 11 KB of labels instead of its list and parser.
 *
 * `isIcannTopLevelAt` reads the label where it stands in the address and allocates nothing (the plain-address
 * path of crawlUrl.ts asks it for every address): a label of two or three ASCII letters, most of them, is one
 * index into a table of every such label; any other is hashed in place and compared with the labels of its hash.
 */
import { ICANN_TOP_LEVEL_DOMAINS } from '#generated/fast/topLevelDomains.js';

/** An ASCII letter as 1 to 26, in either case; 0 for anything else. */
function letterOf(c: number): number {
  const lower = c | 0x20;
  return lower >= 0x61 && lower <= 0x7a ? lower - 0x60 : 0;
}

/** The table slot of a label of two letters (`c` 0) or three: one slot for every such label. */
const slotOf = (a: number, b: number, c: number) => (a * 27 + b) * 27 + c;

/** ASCII letters lower-cased, everything else as it is (WHATWG hands hosts over lower-cased and punycoded). */
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c | 0x20 : c);

/** FNV-1a over the lower-cased UTF-16 units of `s[start, end)`. */
function hashOf(s: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ lower(s.charCodeAt(i)), 0x01000193);
  return hash;
}

/** 1 in the slot of each top-level domain of two or three letters. */
let SHORT: Uint8Array | undefined;
/** Every other top-level domain, by hash (labels sharing one listed together). */
const OTHERS = new Map<number, string[]>();

/**
 * The two tables, made on the first question (some milliseconds when the module is still being interpreted, which an
 * import of the main entry should not pay before a crawl URL is checked).
 */
function shortTable(): Uint8Array {
  if (SHORT !== undefined) return SHORT;
  const short = new Uint8Array(27 * 27 * 27);
  for (const label of ICANN_TOP_LEVEL_DOMAINS.split(' ')) {
    const n = label.length;
    const a = letterOf(label.charCodeAt(0));
    const b = letterOf(label.charCodeAt(1));
    const c = n === 3 ? letterOf(label.charCodeAt(2)) : 0;
    if ((n === 2 || n === 3) && a > 0 && b > 0 && (n === 2 || c > 0)) short[slotOf(a, b, c)] = 1;
    else {
      const hash = hashOf(label, 0, n);
      const same = OTHERS.get(hash);
      if (same === undefined) OTHERS.set(hash, [label]);
      else same.push(label);
    }
  }
  return (SHORT = short);
}

function sameLabel(label: string, s: string, start: number, end: number): boolean {
  if (label.length !== end - start) return false;
  for (let i = 0; i < label.length; i++) if (label.charCodeAt(i) !== lower(s.charCodeAt(start + i))) return false;
  return true;
}

/** Whether `s[start, end)`, in any ASCII letter case, is a top-level domain of the ICANN section. */
export function isIcannTopLevelAt(s: string, start: number, end: number): boolean {
  const short = shortTable();
  const length = end - start;
  if (length === 2 || length === 3) {
    const a = letterOf(s.charCodeAt(start));
    const b = letterOf(s.charCodeAt(start + 1));
    const c = length === 3 ? letterOf(s.charCodeAt(start + 2)) : 0;
    if (a > 0 && b > 0 && (length === 2 || c > 0)) return short[slotOf(a, b, c)] === 1;
  }
  const same = OTHERS.get(hashOf(s, start, end));
  if (same !== undefined) for (const label of same) if (sameLabel(label, s, start, end)) return true;
  return false;
}

/** Whether `label` is a top-level domain of the ICANN section. */
export const isIcannTopLevel = (label: string): boolean => isIcannTopLevelAt(label, 0, label.length);
