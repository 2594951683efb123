/**
 * What `validate` weighs in a browser: the package's main entry bundled by esbuild for the browser, minified,
 * with nothing but `validate` imported (so a bundler may drop whatever `validate` does not reach), in bytes
 * and gzipped bytes; and the bundle itself (test/reasons.test.ts runs it).
 */
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

export interface BundleSize {
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** A minified browser bundle of the main entry's `names`, from the sources in `root`: its code and the files it holds. */
export async function browserBundle(
  root: string,
  names: readonly string[],
): Promise<{ readonly code: Uint8Array; readonly text: string; readonly inputs: readonly string[] }> {
  const result = await build({
    stdin: {
      contents: `export { ${names.join(', ')} } from './schemas/index.js';`,
      resolveDir: root,
      sourcefile: 'entry.ts',
      loader: 'ts',
    },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild: no output');
  return { code: output.contents, text: output.text, inputs: Object.keys(result.metafile.inputs) };
}

/** The minified browser bundle of `import { validate } from 'crawlspec'`, from the sources in `root`. */
export async function validateBundle(root: string): Promise<BundleSize> {
  const { code } = await browserBundle(root, ['validate']);
  return { bytes: code.byteLength, gzipBytes: gzipSync(code).byteLength };
}
