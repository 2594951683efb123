/**
 * A shortcut the fast path takes before ajv-formats' `uri` check (a regular expression of some 2 KB, about 200 ns
 * on a webhook address, a third of the fast path on a fully loaded request): one pass that accepts an `http` or
 * `https` address written in plain characters, a strict subset of what the regular expression accepts, and hands
 * every other string to it. The fast path's format check therefore decides as Ajv's does (test/agreement.test.ts
 * compares them on web addresses and on strings made of the characters this pass treats specially).
 *
 * What the pass accepts, read against ajv-formats' `URI` (RFC 3986 with the `i` flag):
 *   - `http:` or `https:`, any letter case: a scheme (`[a-z][a-z0-9+\-.]*:`);
 *   - `//` and a host of one or more ASCII letters, digits, `.` and `-`: the authority's reg-name
 *     (`[a-z0-9\-._~!$&'()*+,;=]*`), without user info or port;
 *   - then path segments, each a `/` and characters of `pchar` (`[a-z0-9\-._~!$&'()*+,;=:@]`);
 *   - then an optional query, `?` and characters of `pchar`, `/` or `?`; then an optional fragment, `#` and the same.
 * Percent escapes, ports, user info, IP literals and anything else go to the regular expression, and so does an
 * address longer than PLAIN_URI_MAX_LENGTH: the regular expression overflows the engine's stack on one of some
 * millions of characters (validate() then says the body cannot be checked), and the pass must not decide
 * otherwise.
 */

/** The longest address the pass reads; longer ones (no client sends them) are left to the regular expression. */
const PLAIN_URI_MAX_LENGTH = 8192;

/** The helper's source, written into the fast path module of a version that checks the `uri` format. */
export const PLAIN_URI_SOURCE = `/** Characters after the host: 1 in a path, 2 also in a query or fragment (see scripts/emit/plainUri.ts). */
const URI_CHARACTERS = /* @__PURE__ */ (() => {
  const table = new Uint8Array(128);
  const pchar = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~!$&'()*+,;=:@/";
  for (let i = 0; i < pchar.length; i++) table[pchar.charCodeAt(i)] = 3;
  table[63] = 2;
  return table;
})();

/** Whether \`s\` is an http(s) address in plain characters, which ajv-formats' uri accepts (see scripts/emit/plainUri.ts). */
function isPlainUri(s) {
  const n = s.length;
  if (n > ${PLAIN_URI_MAX_LENGTH}) return false;
  if ((s.charCodeAt(0) | 32) !== 104 || (s.charCodeAt(1) | 32) !== 116 || (s.charCodeAt(2) | 32) !== 116 || (s.charCodeAt(3) | 32) !== 112) return false;
  let i = (s.charCodeAt(4) | 32) === 115 ? 5 : 4;
  if (s.charCodeAt(i) !== 58 || s.charCodeAt(i + 1) !== 47 || s.charCodeAt(i + 2) !== 47) return false;
  i += 3;
  const host = i;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    const lower = c | 32;
    if (!((lower >= 97 && lower <= 122) || (c >= 48 && c <= 57) || c === 45 || c === 46)) break;
  }
  if (i === host) return false;
  if (i < n && s.charCodeAt(i) !== 47 && s.charCodeAt(i) !== 63 && s.charCodeAt(i) !== 35) return false;
  // 1: in the path; 2: in the query or the fragment; 3: in the fragment.
  let part = 1;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === 35) {
      if (part === 3) return false;
      part = 3;
    } else if (c === 63 && part === 1) part = 2;
    else if (c >= 128 || (URI_CHARACTERS[c] & (part === 1 ? 1 : 2)) === 0) return false;
  }
  return true;
}`;
