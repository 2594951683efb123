/**
 * Bundles browser-validate.ts for the browser with esbuild: one script, no imports left, its exports on
 * the global `crawlspec`.
 *
 *   node --import tsx examples/build-browser.ts      # writes examples/dist/browser-validate.js
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const HERE = dirname(fileURLToPath(import.meta.url));
export const GLOBAL_NAME = 'crawlspec';

/** The bundle's source text. */
export async function bundleBrowserExample(): Promise<string> {
  const result = await build({
    entryPoints: [join(HERE, 'browser-validate.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: GLOBAL_NAME,
    target: 'es2020',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined || result.errors.length > 0 || result.warnings.length > 0) {
    throw new Error(`esbuild: ${[...result.errors, ...result.warnings].map((m) => m.text).join('; ') || 'no output'}`);
  }
  return output.text;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const out = join(HERE, 'dist', 'browser-validate.js');
  await mkdir(dirname(out), { recursive: true });
  const code = await bundleBrowserExample();
  await writeFile(out, code);
  console.log(`wrote ${out} (${code.length} bytes)`);
}
