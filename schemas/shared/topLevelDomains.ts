/**
 * Whether the last label of a host name is a top-level domain of the ICANN section of the Public Suffix List:
 * the newer service requires a host to end in a public suffix, so a bare file name (`image_0001.jpg`), a made-up
 * suffix (`example.zz`) or a private-network name (`intranet.local`, `site.test`) is no crawl host.
 *
 * The list is tldts's, pinned to an exact version in package.json: its data is the list, so a new release can add
 * or withdraw top-level domains and with them change which addresses are valid; moving to a newer list is a
 * decision, taken by changing the pin, not something an install does. Only the ICANN section is asked
 * (`allowPrivateDomains: false`): its last labels are the delegated top-level domains, while the private section
 * lists names under them (`github.io`), whose last label is already there.
 *
 * tldts keeps its list to itself (no export to build a set from), so verdicts are asked of it once per label and
 * kept: `isIcannTopLevelAt` reads the label where it stands in the address, hashes it without copying, and
 * finds the verdict in a table, so a label seen before costs no allocation (the plain-address path of
 * crawlUrl.ts asks it for every address). tldts itself is loaded when a first label is asked about
 * (`#generated/load/dependencies.js`), not with the main entry. The table is bounded: past MAX_LABELS verdicts it is emptied, so
 * made-up labels cost memory of a fixed size at most, and each at most one tldts lookup.
 */
import { tldts } from '#generated/load/dependencies.js';

/** A label, the ICANN answer for it, and the next label of the same hash. */
interface Verdict {
  readonly label: string;
  readonly icann: boolean;
  readonly next: Verdict | undefined;
}

const verdicts = new Map<number, Verdict>();
const MAX_LABELS = 4096;

/** Host names only (no URL to take apart), ICANN section only, whatever the characters (WHATWG has judged them). */
const OPTIONS = { extractHostname: false, allowPrivateDomains: false, validateHostname: false, detectIp: false } as const;

/** ASCII letters lower-cased, everything else as it is (WHATWG hands hosts over lower-cased and punycoded). */
const lower = (c: number) => (c >= 0x41 && c <= 0x5a ? c | 0x20 : c);

/** FNV-1a over the lower-cased UTF-16 units of `s[start, end)`. */
function hashOf(s: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ lower(s.charCodeAt(i)), 0x01000193);
  return hash;
}

function sameLabel(label: string, s: string, start: number, end: number): boolean {
  if (label.length !== end - start) return false;
  for (let i = 0; i < label.length; i++) if (label.charCodeAt(i) !== lower(s.charCodeAt(start + i))) return false;
  return true;
}

/** Whether `s[start, end)`, in any ASCII letter case, is a top-level domain of the ICANN section. */
export function isIcannTopLevelAt(s: string, start: number, end: number): boolean {
  const hash = hashOf(s, start, end);
  const first = verdicts.get(hash);
  for (let known = first; known !== undefined; known = known.next) if (sameLabel(known.label, s, start, end)) return known.icann;
  let label = '';
  for (let i = start; i < end; i++) label += String.fromCharCode(lower(s.charCodeAt(i)));
  // A probe name under the label: a top-level domain listed only by a wildcard rule (`*.ck`) is then found too.
  const icann = tldts().parse(`x.${label}`, OPTIONS).isIcann === true;
  const full = verdicts.size >= MAX_LABELS;
  if (full) verdicts.clear();
  verdicts.set(hash, { label, icann, next: full ? undefined : first });
  return icann;
}

/** Whether `label` is a top-level domain of the ICANN section. */
export const isIcannTopLevel = (label: string): boolean => isIcannTopLevelAt(label, 0, label.length);
