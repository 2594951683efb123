/**
 * What test/package.test.ts packs, installs and measures the package with: the repository's root and its tools,
 * a command run with a time limit and no colours, the targets of an exports map, the size of a folder.
 */
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { expect } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = (name: string) => join(ROOT, 'node_modules', '.bin', name);
const run = promisify(execFile);
export const ENV = { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', npm_config_update_notifier: 'false' };

/** `command args` in `cwd`, with the package's environment and a time limit. */
export async function sh(command: string, args: readonly string[], cwd: string, timeout = 120_000): Promise<{ stdout: string; stderr: string }> {
  return run(command, [...args], { cwd, env: ENV, timeout, maxBuffer: 64 * 1024 * 1024 });
}

/** Every file path a target of the exports map names (conditions flattened). */
export function targets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value !== null && typeof value === 'object') return Object.values(value).flatMap(targets);
  return [];
}

/** The bytes of the files below `path`. */
export function sizeOf(path: string): number {
  const stat = statSync(path);
  return stat.isDirectory() ? readdirSync(path).reduce((sum, name) => sum + sizeOf(join(path, name)), 0) : stat.size;
}

/**
 * The package packed (`npm pack`) into a scratch folder and installed from the tarball into a scratch project, as a
 * user installs it (offline first, from npm's cache).
 */
export async function packAndInstall(): Promise<{ work: string; project: string; tarball: string; installed: string }> {
  const work = await mkdtemp(join(tmpdir(), 'crawlspec-package-'));
  await sh('npm', ['pack', '--pack-destination', work], ROOT);
  const packed = (await readdir(work)).filter((f) => f.endsWith('.tgz'));
  expect(packed).toHaveLength(1);
  const tarball = join(work, packed[0]!);

  const project = join(work, 'project');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'scratch', private: true, type: 'module' }));
  const install = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', tarball];
  try {
    await sh('npm', ['--offline', ...install], project);
  } catch {
    await sh('npm', ['--prefer-offline', ...install], project);
  }
  const installed = join(project, 'node_modules', 'crawlspec');
  return { work, project, tarball, installed };
}
