/**
 * What the test files of the contract kit's output (test/contractOutput*.test.ts) share: the published JSON Schema
 * of the report and its validator, the token, byte and line counts, a hand-built failing entry, and the test cases
 * of a JUnit document.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { DomUtils, parseDocument } from 'htmlparser2';
import { SERVER_ERROR_CITATION } from '../../scripts/contract/spec/levels.js';
import { type Failure } from '../../scripts/contract/report/report.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The schema as the package publishes it (`crawlspec/contract/report.schema.json`). */
const SCHEMA = JSON.parse(readFileSync(join(ROOT, 'generated', 'contract', 'report.schema.json'), 'utf8')) as object;
export const validateReport = new Ajv2020({ strict: true, allErrors: true }).compile(SCHEMA);
export const TOKEN = 'contract-output-secret-token';

export const bytes = (text: string) => Buffer.byteLength(text);
export const lines = (text: string) => text.split('\n');

export function failure(over: Partial<Failure> = {}): Failure {
  return {
    check: 'v2.crawl.start.fieldAlone',
    kind: 'serverError',
    level: 'interface',
    message: '500: the implementation failed to answer POST /v2/crawl',
    expected: 'accepted: 200 and a start answer (limit alone)',
    section: SERVER_ERROR_CITATION,
    request: `curl -sS -X POST 'http://127.0.0.1:4000/v2/crawl' --data-raw '{"url":"http://127.0.0.1:4000/site","limit":1}'`,
    got: { status: 500, body: '{"success":false,"error":"Internal error"}' },
    ...over,
  };
}

/** Each test case of a JUnit document: its name and the names of its child elements. */
export function testcases(xml: string): { name: string; children: string[]; element: ReturnType<typeof DomUtils.getElementsByTagName>[number] }[] {
  const document = parseDocument(xml, { xmlMode: true });
  return DomUtils.getElementsByTagName('testcase', document).map((element) => ({
    name: element.attribs['name']!,
    children: DomUtils.getChildren(element)
      .filter((c) => c.type === 'tag')
      .map((c) => (c as typeof element).name),
    element,
  }));
}
