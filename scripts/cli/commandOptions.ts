/**
 * The option tables of the commands a config file (crawlspec.config.json) may set: `contract` and `proxy`. Each
 * command parses its arguments with its table (args.ts), and the config file's JSON Schema is generated from
 * the same tables (configSchema.ts): an option added here is a key of the config file, with no other change.
 *
 * Beside what `node:util`'s parseArgs reads (type, multiple, default), an entry may say:
 *   - `integer: [min, max]`: the option takes a whole number in that range (a JSON number in the file);
 *   - `notInFile`: why a config file may not hold it (a secret, or an action rather than a setting);
 *   - `opposite`: the option it excludes; given on the command line, it drops that one from the file.
 */
import type { ParseArgsConfig } from 'node:util';

type ParseOption = NonNullable<ParseArgsConfig['options']>[string];

export type CommandOption = ParseOption & {
  readonly integer?: readonly [number, number];
  readonly notInFile?: string;
  readonly opposite?: string;
};

export type OptionTable = Readonly<Record<string, CommandOption>>;

/** Bounds of the numeric options of `contract` (what `crawlspec contract --help` says). */
export const LIMITS = {
  seed: [0, 2 ** 31 - 1],
  runs: [1, 100_000],
  maxRequests: [0, 1_000_000_000],
  concurrency: [1, 64],
  maxResponseBytes: [1, 2 ** 30],
  // An hour: longer is no use to a contract run, and timers cannot wait much past 24 days anyway.
  timeoutSeconds: [1, 3600],
  // A day: a contract run is no use past it (the default, an hour: timeLimit.ts says why).
  maxDurationSeconds: [1, 86_400],
  waitForTargetSeconds: [1, 3600],
  confirm: [1, 20],
  sitePort: [1, 65535],
} as const;

/** A port to listen on: 0 (any free port) to 65535. */
export const LISTEN_PORT = [0, 65535] as const;

const SECRET = (variable: string, option: string) =>
  `a secret, never read from a file (a config file is committed and shown); expected it in the environment as ${variable} (e.g. a CI secret), or as ${option}`;

/** `--config FILE`: the config file itself (default: crawlspec.config.json in the working directory, if there is one). */
const CONFIG = { type: 'string', notInFile: 'the config file itself; expected it on the command line: --config FILE' } as const;

export const CONTRACT_OPTIONS = {
  'base-url': { type: 'string' },
  token: { type: 'string', notInFile: SECRET('CRAWLSPEC_TOKEN', '--token'), opposite: 'no-auth' },
  'no-auth': { type: 'boolean', opposite: 'token' },
  version: { type: 'string', default: 'both' },
  level: { type: 'string', default: 'interface' },
  seed: { type: 'string', integer: LIMITS.seed },
  runs: { type: 'string', integer: LIMITS.runs },
  'max-requests': { type: 'string', integer: LIMITS.maxRequests },
  concurrency: { type: 'string', integer: LIMITS.concurrency },
  'site-url': { type: 'string' },
  'site-page': { type: 'string', multiple: true },
  'site-failing': { type: 'string' },
  timeout: { type: 'string', integer: LIMITS.timeoutSeconds },
  'max-duration': { type: 'string', integer: LIMITS.maxDurationSeconds },
  'max-response-bytes': { type: 'string', integer: LIMITS.maxResponseBytes },
  'only-no-job': { type: 'boolean', default: false },
  'list-checks': {
    type: 'boolean',
    default: false,
    notInFile: 'an action, not a setting; expected it on the command line: crawlspec contract --list-checks',
  },
  only: { type: 'string', multiple: true },
  skip: { type: 'string', multiple: true },
  behaviour: { type: 'boolean', opposite: 'no-behaviour' },
  'no-behaviour': { type: 'boolean', opposite: 'behaviour' },
  'site-host': { type: 'string' },
  'site-port': { type: 'string', integer: LIMITS.sitePort },
  'behaviour-site': { type: 'string' },
  'behaviour-external': { type: 'string' },
  'behaviour-subdomain': { type: 'string' },
  report: { type: 'string' },
  html: { type: 'string' },
  record: { type: 'string' },
  markdown: { type: 'string' },
  'min-coverage': { type: 'string', multiple: true },
  baseline: { type: 'string' },
  'update-baseline': {
    type: 'boolean',
    notInFile: 'an action, not a setting (it rewrites the --baseline file); expected it on the command line: crawlspec contract --update-baseline',
  },
  'baseline-strict': { type: 'boolean' },
  json: { type: 'boolean', default: false },
  header: { type: 'string', multiple: true },
  'wait-for-target': { type: 'string', integer: LIMITS.waitForTargetSeconds },
  confirm: { type: 'string', integer: LIMITS.confirm },
  'webhook-url': { type: 'string' },
  'webhook-secret': { type: 'string', notInFile: SECRET('CRAWLSPEC_WEBHOOK_SECRET', '--webhook-secret') },
  config: CONFIG,
} as const satisfies OptionTable;

export const PROXY_OPTIONS = {
  target: { type: 'string' },
  port: { type: 'string', integer: LISTEN_PORT },
  host: { type: 'string', default: '127.0.0.1' },
  level: { type: 'string', default: 'interface' },
  errors: { type: 'boolean', default: false },
  json: { type: 'string' },
  log: { type: 'string' },
  record: { type: 'string' },
  config: CONFIG,
} as const satisfies OptionTable;

/** The commands a config file may set, each with its table: the file's sections. */
export const CONFIGURABLE = { contract: CONTRACT_OPTIONS, proxy: PROXY_OPTIONS } as const satisfies Record<string, OptionTable>;
