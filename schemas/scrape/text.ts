/**
 * How the judge (judge.ts) reads a record's text: what a reader of the markdown or the HTML sees, so that a
 * known text of a page (page.ts: plain words, one text node) is found whatever converter wrote the format.
 *
 *   - markdown: character references decoded, backslash escapes of punctuation dropped (`16\_0` is `16_0`);
 *   - HTML: comments, scripts and styles dropped, a tag of an inline element (`a`, `span`, `b`...) dropped,
 *     every other tag a line break, character references decoded;
 *   - then, for `contains`, every run of whitespace is one space; for lines, each line trimmed, empty ones dropped.
 *
 * Written here rather than with an HTML parser: the main entry of the package loads in milliseconds, and
 * htmlparser2 with its entity tables takes longer to import than that whole budget; the texts looked for are
 * plain words in one text node, so dropping the markup and decoding the references is all a reader's view
 * needs. A reference this does not know (a named one beyond the usual few) stays as written.
 */

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', '#39': "'" };

/** `text` with its character references decoded (numeric ones, and the few named ones an HTML writer uses). */
export function decodeReferences(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, ref: string) => {
    const lower = ref.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
      if (code === 0xa0) return ' ';
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : whole;
    }
    return NAMED[lower] ?? whole;
  });
}

/** What a reader of `markdown` sees of its text (markup other than escapes kept). */
export const markdownText = (markdown: string): string => decodeReferences(markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1'));

/** Elements a reader sees inside a line of text: their tags join what is on either side. */
const INLINE = /^<\/?(a|abbr|b|bdi|bdo|cite|code|data|dfn|em|font|i|kbd|mark|q|s|samp|small|span|strong|sub|sup|time|u|var|wbr)\b/i;

/** Elements whose content is no text a reader sees; an unclosed one runs to the end, as in a browser. */
const RAW = /^<(script|style|template)[\s/>]/i;
/** The end tag of each of RAW's elements, searched for from where its content starts. */
const RAW_END: Readonly<Record<string, RegExp>> = { script: /<\/script\s*>/gi, style: /<\/style\s*>/gi, template: /<\/template\s*>/gi };
/** What starts a tag (or a comment, a doctype): `<` and a letter, `/`, `!` or `?`; any other `<` is text. */
const TAG_START = /[A-Za-z/!?]/;

/**
 * What a reader of `html` sees: its text, a line break where each tag other than an inline element's was.
 * One pass from left to right, each character looked at a bounded number of times: the record is the
 * implementation's, and a regular expression that looks for the end of a tag from every `<` (`<[^>]*>`) takes
 * quadratic time on a text of many `<`.
 */
export function htmlText(html: string): string {
  const out: string[] = [];
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf('<', at);
    if (lt < 0) {
      out.push(html.slice(at));
      break;
    }
    if (!TAG_START.test(html.charAt(lt + 1))) {
      out.push(html.slice(at, lt + 1));
      at = lt + 1;
      continue;
    }
    out.push(html.slice(at, lt));
    if (html.startsWith('<!--', lt)) {
      const end = html.indexOf('-->', lt + 4);
      if (end < 0) break;
      at = end + 3;
      continue;
    }
    const gt = html.indexOf('>', lt);
    if (gt < 0) break;
    const tag = html.slice(lt, gt + 1);
    at = gt + 1;
    const raw = RAW.exec(tag);
    if (raw !== null) {
      const close = RAW_END[raw[1]!.toLowerCase()]!;
      close.lastIndex = at;
      const end = close.exec(html);
      if (end === null) break;
      at = end.index + end[0].length;
    }
    out.push(raw === null && INLINE.test(tag) ? '' : '\n');
  }
  return decodeReferences(out.join(''));
}

/** Every run of whitespace as one space, trimmed. */
export const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The non-empty lines of `text`, each trimmed and its whitespace collapsed. */
export const linesOf = (text: string): string[] => text.split(/\r?\n/).flatMap((line) => (collapse(line) === '' ? [] : [collapse(line)]));

/** `text` cut to at most `max` characters (an ellipsis marking the cut). */
export const bounded = (text: string, max = 160): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
