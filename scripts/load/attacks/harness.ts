/**
 * Running one attack: a fresh `crawlspec serve` in a child process (started with `SERVE_ARGS`, or the attack's
 * own `serve`), a small job of its own started and finished first (the control job), then, while the attack
 * runs, the server's RSS sampled and the control job's status asked again and again (the unrelated request: small, authenticated, nothing to do with the
 * attack). Afterwards the control job is asked once more (is the server alive?), every socket and receiver
 * the attack opened is closed, and the server is stopped. Every step has a time limit.
 */
import { percentile, TOKEN, type Check } from '../shared.js';
import {
  ALIVE_TIMEOUT_MS,
  CLEANUP_TIMEOUT_MS,
  PROBE_INTERVAL_MS,
  PROBE_TIMEOUT_MS,
  RSS_CEILING_MIB,
  RSS_SAMPLE_MS,
  SERVER_START_TIMEOUT_MS,
} from './bounds.js';
import { call, HOST, outcome, type Answer, type Closable, type RawAnswer } from './net.js';
import { RssWatch, ServerProcess } from './serverProcess.js';

/**
 * What `crawlspec serve` is started with unless an attack says otherwise: the token the attacks send, and
 * `--allow-host 127.0.0.1`, so that its jobs crawl the hostile sites the attacks serve on 127.0.0.1 (the
 * server crawls no loopback port but its own unless told to: issue 22, finding 7).
 */
export const SERVE_ARGS: readonly string[] = ['--token', TOKEN, '--allow-host', HOST];

export interface AttackContext {
  /** The server's address, e.g. `http://127.0.0.1:40123`. */
  readonly base: string;
  readonly port: number;
  readonly server: ServerProcess;
  /** Aborted when the attack's deadline passes. */
  readonly signal: AbortSignal;
  /** Counts an answer of the attack's own requests by its status (or why there was none). */
  answered(answer: Answer | RawAnswer): void;
  note(name: string, value: string | number): void;
  check(name: string, pass: boolean, detail: string): void;
  /** Something to close once the attack is over, whatever happened. */
  defer(closable: Closable): void;
  /** Waits `ms`, or less if the deadline passes first. */
  sleep(ms: number): Promise<void>;
}

/** An attack made ready: its bodies built (before the server starts, so that building them disturbs nothing). */
export interface Prepared {
  run(ctx: AttackContext): Promise<void>;
  /** The latency bound, when it is worked out while preparing (else the attack's own). */
  readonly unrelatedMs?: number;
  readonly notes?: Record<string, string | number>;
}

export interface Attack {
  /** The finding of issue 13 it replays (`4a`, `4b`: two halves of one finding). */
  readonly id: string;
  readonly title: string;
  /** The server's peak RSS may not pass this, in MiB. */
  readonly rssMiB: number;
  /** Every unrelated request must be answered 200 within this, in ms. */
  readonly unrelatedMs: number;
  /** The attack is cut off after this, in ms (the run goes on with the next). */
  readonly deadlineMs: number;
  /** The arguments `crawlspec serve` is started with besides its address (default: `SERVE_ARGS`). */
  readonly serve?: readonly string[];
  prepare(): Prepared | Promise<Prepared>;
}

export interface AttackReport {
  readonly id: string;
  readonly title: string;
  readonly bounds: { readonly rssMiB: number; readonly unrelatedMs: number };
  readonly figures: {
    readonly idleRssMiB: number | undefined;
    readonly peakRssMiB: number;
    /** CPU time the server used while the attack ran. */
    readonly serverCpuMs: number | undefined;
    readonly durationMs: number;
    readonly unrelated: {
      readonly requests: number;
      readonly p50Ms: number;
      readonly maxMs: number;
      readonly answers: Record<string, number>;
    };
    /** The attack's own requests, by status (or why there was none). */
    readonly answers: Record<string, number>;
  };
  /** `alive`, or how the server ended. */
  readonly server: string;
  readonly notes: Record<string, string | number>;
  readonly checks: Check[];
}

const round = (n: number): number => Math.round(n);

/** Asks for the control job's status until stopped; every answer's latency and status. */
function startProber(base: string, path: string): { stop(): Promise<{ latencies: number[]; answers: Record<string, number> }> } {
  const latencies: number[] = [];
  const answers: Record<string, number> = {};
  let stopped = false;
  let wake: (() => void) | undefined;
  const loop = (async () => {
    while (!stopped) {
      const answer = await call(base, 'GET', path, { timeoutMs: PROBE_TIMEOUT_MS });
      latencies.push(answer.ms);
      answers[outcome(answer)] = (answers[outcome(answer)] ?? 0) + 1;
      if (stopped) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, PROBE_INTERVAL_MS);
      });
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
      return { latencies, answers };
    },
  };
}

/** A v2 batch of one page of the server's own site, read until it has completed: the control job's status path. */
async function controlJob(base: string): Promise<string> {
  const start = await call(base, 'POST', '/v2/batch/scrape', { body: JSON.stringify({ urls: [`${base}/site/about`] }), timeoutMs: 10_000 });
  const id = (JSON.parse(start.text || '{}') as { id?: unknown }).id;
  if (start.status !== 200 || typeof id !== 'string')
    throw new Error(`the control job did not start: ${outcome(start)} ${start.text.slice(0, 200)}`);
  const path = `/v2/batch/scrape/${id}`;
  const until = performance.now() + 10_000;
  while (performance.now() < until) {
    const read = await call(base, 'GET', path, { timeoutMs: 5_000 });
    if (read.status === 200 && (JSON.parse(read.text) as { status?: string }).status === 'completed') return path;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the control job did not complete within 10 s');
}

/** Closes `closable`, giving up after CLEANUP_TIMEOUT_MS. */
async function closeWithin(closable: Closable): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    closable.close().catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, CLEANUP_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
}

export async function runAttack(attack: Attack): Promise<AttackReport> {
  const notes: Record<string, string | number> = {};
  const checks: Check[] = [];
  const answers: Record<string, number> = {};
  const deferred: Closable[] = [];
  let cleanedUp = false;
  const prepared = await attack.prepare();
  Object.assign(notes, prepared.notes);
  const unrelatedMs = prepared.unrelatedMs ?? attack.unrelatedMs;
  const bounds = { rssMiB: attack.rssMiB, unrelatedMs };

  const server = await ServerProcess.start(SERVER_START_TIMEOUT_MS, attack.serve ?? SERVE_ARGS);
  let watch: RssWatch | undefined;
  try {
    const base = server.url;
    const controlPath = await controlJob(base);
    const idle = server.memory();
    const cpuBefore = server.cpuMs();
    watch = new RssWatch(server, RSS_CEILING_MIB, RSS_SAMPLE_MS);
    const prober = startProber(base, controlPath);

    const controller = new AbortController();
    const deadline = setTimeout(() => controller.abort(), attack.deadlineMs);
    const aborted = new Promise<'deadline'>((resolve) => controller.signal.addEventListener('abort', () => resolve('deadline')));
    const ctx: AttackContext = {
      base,
      port: Number(new URL(base).port),
      server,
      signal: controller.signal,
      answered: (answer) => {
        const key = answer.status === undefined ? (answer.error ?? 'no answer') : String(answer.status);
        answers[key] = (answers[key] ?? 0) + 1;
      },
      note: (name, value) => {
        notes[name] = value;
      },
      check: (name, pass, detail) => {
        checks.push({ name, pass, detail });
      },
      defer: (closable) => {
        // An attack cut off at its deadline may still open something after the clean-up: closed at once.
        if (cleanedUp) void closeWithin(closable);
        else deferred.push(closable);
      },
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          if (controller.signal.aborted) return resolve();
          const wake = () => {
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(() => {
            controller.signal.removeEventListener('abort', wake);
            resolve();
          }, ms);
          controller.signal.addEventListener('abort', wake, { once: true });
        }),
    };
    const started = performance.now();
    let ended: string;
    try {
      ended = await Promise.race([prepared.run(ctx).then(() => 'done'), aborted]);
    } catch (error) {
      ended = `threw: ${(error as Error).message}`;
    }
    clearTimeout(deadline);
    controller.abort();
    const durationMs = performance.now() - started;
    const probed = await prober.stop();
    const cpuAfter = server.cpuMs();
    if (server.killedFor !== undefined) await server.exited(CLEANUP_TIMEOUT_MS);

    const alive = server.alive ? await call(base, 'GET', controlPath, { timeoutMs: ALIVE_TIMEOUT_MS }) : undefined;
    const peakRssMiB = watch.stop();
    const sorted = [...probed.latencies].sort((a, b) => a - b);
    const maxMs = sorted.at(-1) ?? 0;
    const non200 = Object.entries(probed.answers).filter(([status]) => status !== '200');
    const killed = server.killedFor === undefined ? '' : `; ${server.killedFor}`;
    const serverState = server.alive ? 'alive' : (server.exitReason() ?? 'gone');

    checks.unshift(
      {
        name: `peak RSS ≤ ${attack.rssMiB} MiB`,
        pass: peakRssMiB > 0 && peakRssMiB <= attack.rssMiB,
        detail: `peak ${round(peakRssMiB)} MiB, idle ${idle === undefined ? '?' : round(idle.rssMiB)} MiB${killed}`,
      },
      {
        name: `every unrelated request answered 200 within ${unrelatedMs} ms while the attack ran`,
        pass: sorted.length > 0 && non200.length === 0 && maxMs <= unrelatedMs,
        detail: `${sorted.length} requests, max ${round(maxMs)} ms${non200.length === 0 ? '' : `; ${non200.map(([s, n]) => `${s} × ${n}`).join(', ')}`}`,
      },
    );
    checks.push(
      {
        name: `the attack ended within its deadline (${attack.deadlineMs / 1000} s)`,
        pass: ended === 'done',
        detail: ended === 'done' ? `${round(durationMs)} ms` : ended === 'deadline' ? 'cut off at the deadline' : ended,
      },
      {
        name: 'alive afterwards: the control job answered 200',
        pass: alive?.status === 200,
        detail: alive === undefined ? `the server ${serverState}` : `${outcome(alive)} in ${round(alive.ms)} ms`,
      },
    );
    return {
      id: attack.id,
      title: attack.title,
      bounds,
      figures: {
        idleRssMiB: idle === undefined ? undefined : round(idle.rssMiB),
        peakRssMiB: round(peakRssMiB),
        serverCpuMs: cpuBefore === undefined || cpuAfter === undefined ? undefined : round(cpuAfter - cpuBefore),
        durationMs: round(durationMs),
        unrelated: { requests: sorted.length, p50Ms: round(percentile(sorted, 50)), maxMs: round(maxMs), answers: probed.answers },
        answers,
      },
      server: serverState,
      notes,
      checks,
    };
  } catch (error) {
    return {
      id: attack.id,
      title: attack.title,
      bounds,
      figures: {
        idleRssMiB: undefined,
        peakRssMiB: round(watch?.stop() ?? 0),
        serverCpuMs: undefined,
        durationMs: 0,
        unrelated: { requests: 0, p50Ms: 0, maxMs: 0, answers: {} },
        answers,
      },
      server: server.alive ? 'alive' : (server.exitReason() ?? 'gone'),
      notes,
      checks: [{ name: 'the attack could be set up', pass: false, detail: (error as Error).message }],
    };
  } finally {
    cleanedUp = true;
    watch?.stop();
    await Promise.all(deferred.map(closeWithin));
    await server.stop(CLEANUP_TIMEOUT_MS);
  }
}

export function printAttacks(reports: readonly AttackReport[]): void {
  for (const r of reports) {
    const f = r.figures;
    const list = (counts: Record<string, number>) =>
      Object.keys(counts).length === 0
        ? 'none'
        : Object.entries(counts)
            .map(([s, n]) => `${s} × ${n}`)
            .join(', ');
    console.log(`\n== attack ${r.id}: ${r.title}`);
    console.log(
      `   peak RSS ${f.peakRssMiB} MiB (idle ${f.idleRssMiB ?? '?'} MiB), server CPU ${f.serverCpuMs ?? '?'} ms, duration ${f.durationMs} ms; server ${r.server}`,
    );
    console.log(
      `   unrelated requests: ${f.unrelated.requests}, latency p50 ${f.unrelated.p50Ms} ms, max ${f.unrelated.maxMs} ms; ${list(f.unrelated.answers)}`,
    );
    console.log(`   attack answers: ${list(f.answers)}`);
    for (const [name, value] of Object.entries(r.notes)) console.log(`   ${name}: ${value}`);
    for (const c of r.checks) console.log(`${c.pass ? 'PASS' : 'FAIL'} ${c.name} (${c.detail})`);
  }
}
