/**
 * The token never leaves the kit in anything it writes: a target may echo it (in an error message, a
 * job's url, a page record), so every string of the report is cleaned of it before it is printed or saved
 * (text, JSON, JUnit), in every spelling a target might echo: as sent, percent-encoded, JSON-escaped. A
 * token of at least MIN_SUBSTRING characters is cleaned wherever it stands; a shorter one (a test token such
 * as `t`) only where it stands as a word of its own, so that it does not eat into every other word.
 */
export const REDACTED = '***';
export const MIN_SUBSTRING = 8;

const isWordCharacter = (c: string | undefined) => c !== undefined && /[\w-]/.test(c);

/** `text` with each occurrence of `form` replaced by `***`; with `whole`, only those not inside a longer word. */
function replaceEach(text: string, form: string, whole: boolean): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length)) {
    if (whole && (isWordCharacter(text[at - 1]) || isWordCharacter(text[at + form.length]))) continue;
    out += `${text.slice(from, at)}${REDACTED}`;
    from = at + form.length;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** The spellings of `token` a target might echo, longest first. */
function spellings(token: string): string[] {
  const forms = new Set([token, JSON.stringify(token).slice(1, -1)]);
  try {
    forms.add(encodeURIComponent(token));
  } catch {
    // A token with a lone surrogate has no percent-encoded spelling.
  }
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length);
}

/** `value` with every occurrence of `token` in its strings replaced by `***` (arrays and plain objects copied). */
export function redact<T>(value: T, token: string | undefined): T {
  if (token === undefined || token === '') return value;
  const forms = spellings(token);
  const whole = token.length < MIN_SUBSTRING;
  const clean = (text: string) => forms.reduce((out, form) => replaceEach(out, form, whole), text);
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') return clean(node);
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node === 'object' && node !== null) return Object.fromEntries(Object.entries(node).map(([k, v]) => [clean(k), walk(v)]));
    return node;
  };
  return walk(value) as T;
}
