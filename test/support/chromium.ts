/**
 * Where the tests that open a page in headless Chromium find it, the way its users have it: the first of
 * `CHROMIUM`, `CHROME_PATH` and `PUPPETEER_EXECUTABLE_PATH` that is set names the binary (a variable set to a
 * path that is not there is a mistake to report, not a reason to look elsewhere); without any of them, the
 * first of `chromium`, `chromium-browser` and `google-chrome` on PATH. Written here rather than taken from a
 * library: the lookup is these few lines, and the packages that do it (chrome-launcher, puppeteer's) bring a
 * launcher or a browser download with them.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** The variables that name a Chromium binary, in the order they are read. */
export const CHROMIUM_VARIABLES = ['CHROMIUM', 'CHROME_PATH', 'PUPPETEER_EXECUTABLE_PATH'] as const;
/** The command names looked up on PATH when no variable is set, in order. */
export const CHROMIUM_COMMANDS = ['chromium', 'chromium-browser', 'google-chrome'] as const;

export type ChromiumLookup =
  | { readonly found: true; readonly path: string; readonly from: string }
  | { readonly found: false; readonly why: string; readonly fix: string };

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium binary `env` names or has on its PATH, or why there is none and how to give one. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  const fix = `install Chromium (Debian: apt-get install chromium) or set ${CHROMIUM_VARIABLES.join(', ')} to a Chromium binary`;
  for (const name of CHROMIUM_VARIABLES) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    return isExecutableFile(value)
      ? { found: true, path: value, from: `$${name}` }
      : { found: false, why: `$${name} names ${value}, which is not an executable file`, fix };
  }
  const dirs = (env.PATH ?? '').split(delimiter).filter((d) => d !== '');
  for (const command of CHROMIUM_COMMANDS)
    for (const dir of dirs) {
      const path = join(dir, command);
      if (isExecutableFile(path)) return { found: true, path, from: `${command} on PATH` };
    }
  return {
    found: false,
    why: `no Chromium: none of ${CHROMIUM_VARIABLES.join(', ')} is set, and none of ${CHROMIUM_COMMANDS.join(', ')} is on PATH`,
    fix,
  };
}
