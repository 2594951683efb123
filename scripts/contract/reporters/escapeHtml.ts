/**
 * Text as HTML, for every page the package writes (the kit's HTML report and its crawl graphs, `crawlspec docs`):
 * one function, so that what a target or a user sent is escaped the same way everywhere.
 */
/** Text as HTML: markup characters escaped; characters HTML cannot carry (controls, lone surrogates) replaced. */
export function escapeHtml(text: string): string {
  return (
    text
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '\uFFFD')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      .replace(/'/g, '&#39;')
  );
}
