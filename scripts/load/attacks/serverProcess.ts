/**
 * The server an attack is aimed at: `crawlspec serve` itself (`scripts/cli.ts serve`, run by node with tsx,
 * so the source in this tree, with every default of the command), in a child process of its own, so that its
 * memory and CPU time are its own and never the load generator's. It binds 127.0.0.1 on a port the system
 * picks; its address is read from the line the command prints.
 *
 * Memory is read from `/proc/<pid>/status` (Linux): `VmRSS` now, `VmHWM` its peak so far; the processes it
 * started (its PDF readers) are counted with it, their `VmRSS` added at each sample. CPU time from
 * `/proc/<pid>/stat` (user + system, in clock ticks). A `RssWatch` samples the RSS every `intervalMs`, keeps
 * the peak, and kills the server with SIGKILL once it passes a ceiling, so that no attack can take the
 * machine down with it: past the ceiling the bound is broken many times over anyway.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { TOKEN } from '../shared.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLI = fileURLToPath(new URL('../../cli.ts', import.meta.url));

/** Clock ticks per second of `/proc/<pid>/stat`'s times (100 on Linux, asked once). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** Every server started and not yet seen to exit: killed if this process ends first. */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of live) child.kill('SIGKILL');
});

export interface Memory {
  /** Resident set size now, of the server and the processes it started, in MiB. */
  readonly rssMiB: number;
  /** The largest resident set size of the server itself so far (VmHWM), in MiB. */
  readonly peakMiB: number;
}

/** `VmRSS` and `VmHWM` of process `pid`, in KiB (NaN when it has gone). */
function status(pid: number): { readonly rss: number; readonly peak: number } {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kib = (field: RegExp) => Number(field.exec(text)?.[1] ?? NaN);
    return { rss: kib(/^VmRSS:\s+(\d+)\s+kB/m), peak: kib(/^VmHWM:\s+(\d+)\s+kB/m) };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/** The processes `pid` started, and theirs, as long as they live (each thread's `children` in /proc). */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children = '';
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8');
    } catch {
      continue;
    }
    for (const child of children.split(' ').filter((id) => id !== '')) found.push(Number(child), ...descendants(Number(child)));
  }
  return found;
}

export class ServerProcess {
  readonly #child: ChildProcess;
  readonly #exit: Promise<void>;
  #stderr = '';
  #exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  /** Why this process killed the server, if it did. */
  killedFor: string | undefined;

  private constructor(
    child: ChildProcess,
    readonly url: string,
  ) {
    this.#child = child;
    this.#exit = new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      child.once('exit', () => resolve());
    });
    child.once('exit', (code, signal) => {
      this.#exited = { code, signal };
      live.delete(child);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-4000);
    });
  }

  /**
   * Starts `crawlspec serve --host 127.0.0.1 --port 0` with `args` (default: `--token TOKEN`), or another command
   * of the CLI that listens (`webhook-receiver`, `proxy`), and resolves once it has said where it listens (or
   * rejects after `timeoutMs`).
   */
  static start(
    timeoutMs: number,
    args: readonly string[] = ['--token', TOKEN],
    command: 'serve' | 'proxy' | 'webhook-receiver' = 'serve',
  ): Promise<ServerProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, command, '--host', '127.0.0.1', '--port', '0', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(child);
    return new Promise((resolve, reject) => {
      let out = '';
      let err = '';
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`crawlspec ${command} did not start: ${why}; ${err.slice(-500)}`));
      };
      const timer = setTimeout(() => fail(`no address after ${timeoutMs} ms`), timeoutMs);
      child.stderr!.on('data', (chunk: Buffer) => {
        err += chunk.toString('utf8');
      });
      child.once('exit', (code, signal) => fail(`it exited (${code ?? signal})`));
      child.stdout!.on('data', function onData(chunk: Buffer) {
        out += chunk.toString('utf8');
        const url = /https?:\/\/[^\s);]+/.exec(out)?.[0];
        if (url === undefined) return;
        clearTimeout(timer);
        child.removeAllListeners('exit');
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        const server = new ServerProcess(child, url.replace(/(?<!\/)\/+$/, ''));
        server.#stderr = err.slice(-4000);
        resolve(server);
      });
    });
  }

  get pid(): number {
    return this.#child.pid ?? -1;
  }

  get alive(): boolean {
    return this.#exited === undefined;
  }

  /** How it ended, in words, if it has: killed here (and why), a crash (with the last line it wrote), an exit. */
  exitReason(): string | undefined {
    if (this.#exited === undefined) return undefined;
    if (this.killedFor !== undefined) return `killed by the load generator: ${this.killedFor}`;
    const { code, signal } = this.#exited;
    const last =
      this.#stderr
        .trim()
        .split('\n')
        .filter((line) => /\S/.test(line))
        .slice(-1)[0] ?? '';
    const said = /heap out of memory|FATAL ERROR[^\n]*/i.exec(this.#stderr)?.[0] ?? last;
    return `exited (${signal ?? `code ${code}`})${said === '' ? '' : `: ${said.slice(0, 200)}`}`;
  }

  /** Its memory now, with that of the processes it started, or undefined once it has gone. */
  memory(): Memory | undefined {
    const own = status(this.pid);
    if (!Number.isFinite(own.rss)) return undefined;
    const started = descendants(this.pid)
      .map((pid) => status(pid).rss)
      .filter(Number.isFinite)
      .reduce((sum, rss) => sum + rss, 0);
    return { rssMiB: (own.rss + started) / 1024, peakMiB: (Number.isFinite(own.peak) ? own.peak : own.rss) / 1024 };
  }

  /** CPU time it has used, user and system, in ms; undefined once it has gone. */
  cpuMs(): number | undefined {
    try {
      const stat = readFileSync(`/proc/${this.pid}/stat`, 'utf8');
      // Fields after the command name (in parentheses, which may hold spaces): state is field 3, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return undefined;
    }
  }

  /** Resolves once it has exited, or after `timeoutMs`; whether it has. */
  async exited(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#exit, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
    return !this.alive;
  }

  /** Kills it now (SIGKILL), saying why. */
  kill(why: string): void {
    if (!this.alive) return;
    this.killedFor ??= why;
    this.#child.kill('SIGKILL');
  }

  /** Asks it to stop (SIGTERM, as Ctrl-C would), then kills it if it has not exited within `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    if (this.alive) this.#child.kill('SIGTERM');
    const timer = setTimeout(() => this.#child.kill('SIGKILL'), graceMs);
    await this.#exit;
    clearTimeout(timer);
  }
}

/** Samples a server's RSS every `intervalMs`: the peak seen, and a kill past `ceilingMiB`. */
export class RssWatch {
  #peakMiB = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #started = performance.now();

  constructor(
    private readonly server: ServerProcess,
    private readonly ceilingMiB: number,
    intervalMs: number,
  ) {
    this.#sample();
    this.#timer = setInterval(() => this.#sample(), intervalMs);
  }

  #sample(): void {
    const memory = this.server.memory();
    if (memory === undefined) return;
    this.#peakMiB = Math.max(this.#peakMiB, memory.rssMiB, memory.peakMiB);
    if (memory.rssMiB > this.ceilingMiB) {
      const after = ((performance.now() - this.#started) / 1000).toFixed(1);
      this.server.kill(`its RSS passed the ${this.ceilingMiB} MiB ceiling (${Math.round(memory.rssMiB)} MiB, ${after} s into the attack)`);
    }
  }

  /** The largest RSS seen, in MiB (VmHWM included while the server lived). */
  get peakMiB(): number {
    return this.#peakMiB;
  }

  stop(): number {
    this.#sample();
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    return this.#peakMiB;
  }
}
