/**
 * Country codes the service accepts for `location.country` (and for the deprecated v1 `geolocation.country`), and
 * the patterns that say so in JSON Schema.
 */

/**
 * ISO 3166-1 alpha-2 officially assigned codes (249), plus `XK` (Kosovo): user-assigned by the standard, but
 * the service accepts it. Upper case, sorted. Great Britain is `GB`; `UK` is only exceptionally reserved.
 */
export const ISO_COUNTRY_CODES: readonly string[] = Object.freeze(
  `AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ
   BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ
   CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ
   DE DJ DK DM DO DZ
   EC EE EG EH ER ES ET
   FI FJ FK FM FO FR
   GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY
   HK HM HN HR HT HU
   ID IE IL IM IN IO IQ IR IS IT
   JE JM JO JP
   KE KG KH KI KM KN KP KR KW KY KZ
   LA LB LC LI LK LR LS LT LU LV LY
   MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ
   NA NC NE NF NG NI NL NO NP NR NU NZ
   OM
   PA PE PF PG PH PK PL PM PN PR PS PT PW PY
   QA
   RE RO RS RU RW
   SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ
   TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ
   UA UG UM US UY UZ
   VA VC VE VG VI VN VU
   WF WS
   XK
   YE YT
   ZA ZM ZW`.split(/\s+/),
);

/** Values the service takes besides country codes (proxy pools rather than places), in any letter case. */
export const GENERIC_LOCATIONS = ['us-generic', 'us-whitelist'] as const;

/** What the service answers when the country is none of these. */
export const COUNTRY_RULE_MESSAGE = 'Invalid country code. Use a valid ISO 3166-1 alpha-2 country code.';
/** What it answers for the deprecated v1 `geolocation`, which takes country codes only (its older wording). */
export const GEOLOCATION_COUNTRY_RULE_MESSAGE = 'Invalid country code. Please use a valid ISO 3166-1 alpha-2 country code.';

/** A trie of accepted values: each key is one lower-case character; `end` marks a complete value. */
interface Trie {
  end: boolean;
  readonly next: Map<string, Trie>;
}

function trieOf(values: readonly string[]): Trie {
  const root: Trie = { end: false, next: new Map() };
  for (const value of values) {
    let node = root;
    for (const char of value.toLowerCase()) {
      let child = node.next.get(char);
      if (child === undefined) {
        child = { end: false, next: new Map() };
        node.next.set(char, child);
      }
      node = child;
    }
    node.end = true;
  }
  return root;
}

/** A letter in both cases, for a character class: `a` → `Aa`. */
const bothCases = (letter: string) => {
  if (!/^[a-z]$/.test(letter)) throw new Error(`countries: ${JSON.stringify(letter)} is not an ASCII letter`);
  return letter.toUpperCase() + letter;
};

/** One character in either letter case; `-` (the only other one that occurs) stands for itself. */
const caseless = (char: string) => (char === '-' ? char : `[${bothCases(char)}]`);

/** Letters that end a value, merged into one class: `[DdEeFf]` rather than `(?:[Dd]|[Ee]|[Ff])`. */
const classOf = (letters: readonly string[]) => `[${letters.map(bothCases).join('')}]`;

/**
 * The pattern for what follows a trie node. Branches start with different characters, so a matcher never
 * backtracks more than one character: the pattern is linear in its input.
 */
function patternOf(node: Trie): string {
  const leaves = [...node.next].filter(([, child]) => child.end && child.next.size === 0).map(([char]) => char);
  const inner = [...node.next].filter(([, child]) => !(child.end && child.next.size === 0));
  const branches = [...(leaves.length > 0 ? [classOf(leaves)] : []), ...inner.map(([char, child]) => caseless(char) + patternOf(child))];
  if (branches.length === 0) return '';
  const body = branches.length === 1 ? (branches[0] as string) : `(?:${branches.join('|')})`;
  if (!node.end) return body;
  return branches.length === 1 && leaves.length === 1 && inner.length === 0 ? `${body}?` : `(?:${body})?`;
}

/**
 * Anchored, flag-free, ASCII-only source of a pattern matching exactly the codes and the generic values, in
 * any letter case. JSON Schema validators compile it with the `u` flag; it means the same either way.
 */
export const COUNTRY_PATTERN: string = `^${patternOf(trieOf([...ISO_COUNTRY_CODES, ...GENERIC_LOCATIONS]))}$`;

/** The same for the country codes alone (v1 `geolocation`: no `us-generic`, no `us-whitelist`). */
export const ISO_COUNTRY_PATTERN: string = `^${patternOf(trieOf(ISO_COUNTRY_CODES))}$`;
