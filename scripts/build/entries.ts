/**
 * The package's JavaScript entries for Node, built from tsc's output (dist/) into shared chunks (dist/entries/):
 * Node 20's loader costs some half a millisecond a module, and the main entry is 34 modules one by one, 14 built so
 * (docs/speed.md). Every entry of the exports map is built in the one build, so each module is in one chunk only,
 * loaded once: a program importing `crawlspec` and `crawlspec/contract` holds one `validate()` and one of each
 * cache. `#generated/*` stays outside, resolved by the package's `imports` as before (the fast path and the rules'
 * composition must come from one copy: generated/fast/keepers.js holds what both read and write). Dependencies
 * stay outside too. tsc's declarations (dist/**\/*.d.ts) are what the exports map's `types` name, and bundlers take
 * tsc's modules (the `module` condition): a chunk holds many modules, which a bundler cannot leave out one by one.
 */
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/entries/';

/** The exports map's JavaScript entries (those under dist/entries/), as tsc writes them: dist/<the same path>. */
const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, unknown> };
const ENTRIES = Object.values(manifest.exports).flatMap((target) => {
  const file = typeof target === 'object' && target !== null ? (target as { default?: unknown }).default : undefined;
  return typeof file === 'string' && file.startsWith(`./${OUT}`) ? [`dist/${file.slice(`./${OUT}`.length)}`] : [];
});

// A chunk's name is a hash of what it holds: the chunks of an earlier build go first.
rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: ENTRIES,
  outdir: OUT,
  outbase: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  external: ['#generated/*'],
  sourcemap: true,
  // esbuild follows tsc's maps: the chunks' maps lead to the TypeScript shipped beside them, not copied in.
  sourcesContent: false,
  logLevel: 'warning',
});
