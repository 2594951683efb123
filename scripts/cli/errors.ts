/**
 * What the command's subcommands share: the two errors that end a command with exit status 2 (a usage error,
 * input that could not be read), and the parsing of options every command checks up front.
 */
import { randomBytes } from 'node:crypto';

/** A usage error: the command was called wrongly. Exit status 2. */
export class UsageError extends Error {}
/** Input that could not be read. Exit status 2. */
export class InputError extends Error {}

/** `--token T` or `--no-auth` (not both); neither gives a fresh random token. */
export function authOption(values: { token?: string | undefined; 'no-auth'?: boolean | undefined }): { token: string } | 'none' {
  if (values['no-auth'] && values.token !== undefined) throw new UsageError('--token and --no-auth exclude each other');
  if (values['no-auth']) return 'none';
  return { token: values.token ?? `fc-${randomBytes(16).toString('hex')}` };
}

export const integer = (value: string | undefined, name: string, fallback: number): number => {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} takes a whole number, not "${value}"`);
  return Number(value);
};
