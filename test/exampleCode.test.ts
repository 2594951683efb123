/**
 * The code in examples/, run for real (test/examples.test.ts is about the examples the OpenAPI documents
 * publish):
 *   - openapi-typescript turns every OpenAPI document into types without a warning, and the types compile;
 *   - examples/ type-checks (`tsc -p examples/tsconfig.json`) against the client types made from the current
 *     v2 document, written to a temporary directory, never into the tree;
 *   - the Fastify server answers a valid body with 200 and each invalid one with this package's error
 *     envelope, and the typed client talks to it;
 *   - the browser bundle runs where there is no Node (`require`, `process`, `Buffer` absent).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import vm from 'node:vm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleBrowserExample, GLOBAL_NAME } from '../examples/build-browser.js';
import { buildServer } from '../examples/fastify-server.js';
import { MALFORMED_JSON_BODY, validationErrorBody } from '../schemas/errorEnvelope.js';
import { validate } from '../schemas/validate.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXAMPLES = join(ROOT, 'examples');
const OPENAPI_TYPESCRIPT = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const DOCUMENTS = ['v1', 'v2', 'openapi'] as const;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function node(args: readonly string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let tmp: string;
const generation = new Map<string, Run>();

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'crawlspec-examples-'));
  await mkdir(join(tmp, 'generated'));
  // As typed-client.ts says to run it; v2 goes where the client's `./generated/v2.js` import finds it.
  await Promise.all(
    DOCUMENTS.map(async (name) => {
      const out = join(tmp, 'generated', `${name}.d.ts`);
      const args = ['--redocly', join(EXAMPLES, 'redocly.yaml'), '--default-non-nullable=false'];
      generation.set(name, await node([OPENAPI_TYPESCRIPT, join('generated', 'openapi', `${name}.json`), '-o', out, ...args]));
    }),
  );
}, 120_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('openapi-typescript', () => {
  for (const name of DOCUMENTS) {
    it(`makes types from generated/openapi/${name}.json without a warning`, () => {
      const run = generation.get(name);
      expect(run?.stderr).toBe('');
      expect(run?.code).toBe(0);
    });
  }

  it('makes types that compile', async () => {
    // The declaration files alone, strictly (the projects skip declaration files: skipLibCheck).
    const config = {
      compilerOptions: { strict: true, exactOptionalPropertyTypes: true, skipLibCheck: false, noEmit: true, types: [], module: 'nodenext' },
      files: DOCUMENTS.map((name) => join(tmp, 'generated', `${name}.d.ts`)),
    };
    await writeFile(join(tmp, 'tsconfig.types.json'), JSON.stringify(config));
    const run = await node([TSC, '-p', join(tmp, 'tsconfig.types.json')]);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

describe('examples/ type-checks', () => {
  it('with tsc -p examples/tsconfig.json, against the client types made from the current v2 document', async () => {
    // rootDirs lets examples/typed-client.ts's `./generated/v2.js` resolve to the temporary directory.
    const config = {
      extends: join(EXAMPLES, 'tsconfig.json'),
      compilerOptions: { rootDirs: [EXAMPLES, tmp], typeRoots: [join(ROOT, 'node_modules', '@types')] },
      include: [join(EXAMPLES, '*.ts')],
    };
    await writeFile(join(tmp, 'tsconfig.json'), JSON.stringify(config));
    const run = await node([TSC, '-p', join(tmp, 'tsconfig.json'), '--noEmit']);
    expect(run.stdout + run.stderr).toBe('');
    expect(run.code).toBe(0);
  });
});

describe('the Fastify server example', () => {
  let app: FastifyInstance;
  let base: string;

  beforeAll(async () => {
    app = buildServer();
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterAll(async () => {
    await app.close();
  });

  const post = async (body: string) => {
    const response = await fetch(`${base}/v2/crawl`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('answers a valid body with 200 and the start answer', async () => {
    const { status, body } = await post(JSON.stringify({ url: 'https://example.com', scrapeOptions: { formats: ['markdown'] } }));
    expect(status).toBe(200);
    expect(validate('v2/CrawlStartResponse', body)).toEqual({ valid: true });
    expect(body).toEqual({ success: true, id: expect.any(String), url: `${base}/v2/crawl/${String(body['id'])}` });
  });

  const invalid: [string, unknown, { code: string; path: (string | number)[] }][] = [
    [
      'a value out of range',
      { url: 'https://example.com', scrapeOptions: { timeout: 300001 } },
      { code: 'too_big', path: ['scrapeOptions', 'timeout'] },
    ],
    ['a missing field', { limit: 5 }, { code: 'invalid_type', path: ['url'] }],
    // Fastify's own Ajv would have dropped the key (removeAdditional) and converted the string (coerceTypes).
    ['an unknown key', { url: 'https://example.com', maxDepth: 2 }, { code: 'unrecognized_keys', path: [] }],
    ['a number sent as a string', { url: 'https://example.com', limit: '5' }, { code: 'invalid_type', path: ['limit'] }],
    [
      'a rule the schema carries',
      { url: 'https://example.com', scrapeOptions: { formats: ['changeTracking'] } },
      { code: 'custom', path: ['scrapeOptions', 'formats'] },
    ],
    ['a rule written as code', { url: 'https://example.com', includePaths: ['(?<=a)b'] }, { code: 'custom', path: ['includePaths', 0] }],
  ];
  for (const [what, body, detail] of invalid) {
    it(`answers a body with ${what} with 400 and the error envelope naming the path`, async () => {
      const answer = await post(JSON.stringify(body));
      expect(answer.status).toBe(400);
      const result = validate('v2/CrawlRequest', body);
      expect(result.valid).toBe(false);
      expect(answer.body).toEqual(validationErrorBody('v2', result.valid ? [] : result.errors));
      expect(answer.body['details']).toContainEqual(expect.objectContaining(detail));
      expect(validate('v2/ErrorResponse', answer.body)).toEqual({ valid: true });
    });
  }

  it('answers malformed JSON with the 400 body for it', async () => {
    const answer = await post('{"url": ');
    expect(answer).toEqual({ status: 400, body: MALFORMED_JSON_BODY });
  });

  it('is reached by the typed client', async () => {
    // Imported by address, so the root type-check does not follow it to examples/generated/ (made only for examples/).
    const client = (await import(pathToFileURL(join(EXAMPLES, 'typed-client.ts')).href)) as {
      crawlClient(baseUrl: string, token: string): unknown;
      startCrawl(client: unknown, url: string): Promise<string>;
    };
    const id = await client.startCrawl(client.crawlClient(base, 'test-token'), 'https://example.com/docs');
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });
});

describe('the browser example', () => {
  it('bundles for the browser and validates a request without Node', async () => {
    const code = await bundleBrowserExample();
    const context = vm.createContext({});
    vm.runInContext(code, context);
    expect(vm.runInContext('[typeof require, typeof process, typeof Buffer, typeof module].join()', context)).toBe(
      'undefined,undefined,undefined,undefined',
    );
    const check = (body: unknown) =>
      JSON.parse(
        vm.runInContext(`JSON.stringify(${GLOBAL_NAME}.checkCrawlRequest(${JSON.stringify(body)}))`, context) as string,
      ) as unknown;
    expect(check({ url: 'https://example.com', scrapeOptions: { formats: ['markdown'] } })).toEqual({
      valid: true,
      request: { url: 'https://example.com', scrapeOptions: { formats: ['markdown'] } },
    });
    expect(check({ url: 'https://example.com', limit: 'ten', scrapeOptions: { timeout: 300001 } })).toEqual({
      valid: false,
      problems: ['/limit must be integer', '/scrapeOptions/timeout must be <= 300000'],
    });
  });
});
