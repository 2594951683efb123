/** The package's version (`crawlspec --version`), from its package.json, wherever the command runs from. */
import { readFileSync } from 'node:fs';

/**
 * The version in the package.json of this package: found by going up from this file (scripts/cli/ in the
 * repository, dist/scripts/cli/ when built or installed).
 */
export function packageVersion(): string {
  for (let up = '../'; up.length <= 4 * 3; up += '../') {
    try {
      const manifest = JSON.parse(readFileSync(new URL(`${up}package.json`, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'crawlspec' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // not here: one level up
    }
  }
  throw new Error('the package.json of crawlspec was not found above the command');
}
