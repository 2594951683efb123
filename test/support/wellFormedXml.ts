import { expect } from 'vitest';

/**
 * A small well-formedness check of the JUnit reports (one root, balanced tags, quoted attributes, only the
 * five entities): enough to catch broken escaping, without an XML parser dependency for tests alone.
 */
export function expectWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let at = 0;
  for (let m = token.exec(body); m !== null; m = token.exec(body)) {
    at = token.lastIndex;
    const [, closing, name, attributes, selfClosing, text] = m;
    const checkEntities = (s: string) => expect(s.replace(/&(amp|lt|gt|quot|apos);/g, '')).not.toMatch(/[&<]/);
    if (text !== undefined) {
      if (stack.length === 0) expect(text.trim()).toBe('');
      checkEntities(text);
      continue;
    }
    checkEntities(attributes ?? '');
    if (closing) expect(stack.pop()).toBe(name);
    else if (!selfClosing) {
      if (stack.length === 0) roots += 1;
      stack.push(name!);
    } else if (stack.length === 0) roots += 1;
  }
  expect(at).toBe(body.length);
  expect(stack).toEqual([]);
  expect(roots).toBe(1);
}
