/**
 * The tests that open Chromium find it as its users have it (test/support/chromium.ts): the variables first, in
 * order, then the commands on PATH, in order; a variable naming no executable file is reported, not passed over.
 */
import { chmod, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './support/chromium.js';

let root: string;
/** Two PATH folders: `first` holds google-chrome, `second` chromium-browser and chromium, plus a chromium that cannot run in `first`. */
let first: string;
let second: string;

async function file(path: string, executable: boolean): Promise<string> {
  await writeFile(path, '#!/bin/sh\n');
  await chmod(path, executable ? 0o755 : 0o644);
  return path;
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'crawlspec-chromium-'));
  first = join(root, 'first');
  second = join(root, 'second');
  await mkdir(first);
  await mkdir(second);
  await file(join(first, 'google-chrome'), true);
  await file(join(first, 'chromium'), false);
  await file(join(second, 'chromium-browser'), true);
  await file(join(second, 'chromium'), true);
  await file(join(root, 'chrome-a'), true);
  await file(join(root, 'chrome-b'), true);
});
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('findChromium', () => {
  it('takes CHROMIUM, then CHROME_PATH, then PUPPETEER_EXECUTABLE_PATH, before anything on PATH', () => {
    const PATH = [first, second].join(delimiter);
    const a = join(root, 'chrome-a');
    const b = join(root, 'chrome-b');
    expect(findChromium({ PATH, CHROMIUM: a, CHROME_PATH: b, PUPPETEER_EXECUTABLE_PATH: b })).toEqual({
      found: true,
      path: a,
      from: '$CHROMIUM',
    });
    expect(findChromium({ PATH, CHROME_PATH: a, PUPPETEER_EXECUTABLE_PATH: b })).toEqual({ found: true, path: a, from: '$CHROME_PATH' });
    expect(findChromium({ PATH, PUPPETEER_EXECUTABLE_PATH: b })).toEqual({ found: true, path: b, from: '$PUPPETEER_EXECUTABLE_PATH' });
    // Empty is not set.
    expect(findChromium({ PATH, CHROMIUM: '', PUPPETEER_EXECUTABLE_PATH: b })).toMatchObject({ found: true, path: b });
  });

  it('reports a variable that names no executable file instead of looking elsewhere', () => {
    const PATH = [first, second].join(delimiter);
    const missing = join(root, 'no-such-chromium');
    expect(findChromium({ PATH, CHROME_PATH: missing })).toEqual({
      found: false,
      why: `$CHROME_PATH names ${missing}, which is not an executable file`,
      fix: 'install Chromium (Debian: apt-get install chromium) or set CHROMIUM, CHROME_PATH, PUPPETEER_EXECUTABLE_PATH to a Chromium binary',
    });
    expect(findChromium({ PATH, CHROMIUM: first })).toMatchObject({
      found: false,
      why: `$CHROMIUM names ${first}, which is not an executable file`,
    });
  });

  it('without a variable: chromium, then chromium-browser, then google-chrome, each looked for along PATH; files that cannot run are passed over', () => {
    // `first` has a chromium that cannot run: the one in `second` is taken, before first's google-chrome.
    expect(findChromium({ PATH: [first, second].join(delimiter) })).toEqual({
      found: true,
      path: join(second, 'chromium'),
      from: 'chromium on PATH',
    });
    expect(findChromium({ PATH: first })).toEqual({ found: true, path: join(first, 'google-chrome'), from: 'google-chrome on PATH' });
  });

  it('finds none on an empty PATH, and says where it looked', () => {
    expect(findChromium({ PATH: root })).toMatchObject({
      found: false,
      why: 'no Chromium: none of CHROMIUM, CHROME_PATH, PUPPETEER_EXECUTABLE_PATH is set, and none of chromium, chromium-browser, google-chrome is on PATH',
    });
    expect(findChromium({})).toMatchObject({ found: false });
  });
});
