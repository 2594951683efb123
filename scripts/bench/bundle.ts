/**
 * What `validate` weighs in a browser: the package's main entry bundled by esbuild for the browser, minified,
 * with nothing but `validate` imported (so a bundler may drop whatever `validate` does not reach), in bytes
 * and gzipped bytes.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface BundleSize {
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** The minified browser bundle of `import { validate } from 'crawlspec'`, from the sources in `root`. */
export async function validateBundle(root: string): Promise<BundleSize> {
  const result = await build({
    stdin: { contents: `export { validate } from './schemas/index.js';`, resolveDir: root, sourcefile: 'entry.ts', loader: 'ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild: no output');
  return { bytes: output.contents.byteLength, gzipBytes: gzipSync(output.contents).byteLength };
}
