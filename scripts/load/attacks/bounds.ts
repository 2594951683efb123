/**
 * Every figure the attack stage holds the server to, and the time limits that keep the stage bounded. A bound
 * is what a server that keeps the limits it advertises (10 MiB bodies, loopback webhooks, jobs of 24 hours)
 * needs for the attack's requests, with room for a loaded machine; it is not fitted to today's figures.
 * `crawlspec serve` under tsx holds about 125 MiB idle (its sources compiled, the validators loaded): the RSS
 * bounds below are whole-process figures and include it.
 */

// ---------------------------------------------------------------------------------------------------------
// The harness

/** Starting `crawlspec serve` under tsx compiles its sources first: a few seconds on a slow machine, 30 s at worst. */
export const SERVER_START_TIMEOUT_MS = 30_000;
/** How often the server's RSS is read. A server building strings in a loop grows by 1–2 GiB/s: 50 ms misses at most ~100 MiB of a peak. */
export const RSS_SAMPLE_MS = 50;
/**
 * The server is killed once its RSS passes this: four times the largest bound, so an attack that reaches it
 * has broken its bound already, and far enough below this machine's memory (and node's default heap limit of
 * about 4 GiB) that no attack takes the machine or the run down. Its peak is then reported as "≥ ceiling".
 */
export const RSS_CEILING_MIB = 2048;
/** Time between two unrelated requests (each waits for the answer of the one before). */
export const PROBE_INTERVAL_MS = 100;
/**
 * An unrelated request is given up after this. Longer than every latency bound, so that a stall is measured
 * rather than merely noticed (the findings' stalls were 13–37 s: one of them shows as "max 15000 ms").
 */
export const PROBE_TIMEOUT_MS = 15_000;
/** After the attack, the control job must answer within the server's own headers timeout (10 s): a server that needs longer is not alive. */
export const ALIVE_TIMEOUT_MS = 10_000;
/** Closing a receiver, a socket or the server: past this it is destroyed (SIGKILL for the server). */
export const CLEANUP_TIMEOUT_MS = 2_000;

// ---------------------------------------------------------------------------------------------------------
// Bounds on the server

/**
 * The unrelated request's latency bound, for every attack but the 9.7 MiB batches (2). An attack's request
 * may make it wait for work linear in that request's body (at most 2 MB here: tens of ms) and a garbage
 * collection, never for work that grows with what the body asks for (5000 × 1 MB webhook payloads, 260 MB
 * answers: the findings' stalls were 13–37 s). 1 s is ten times the slowest answer the scenario stage sees
 * on this server under autocannon (p99 below 100 ms).
 */
export const UNRELATED_LATENCY_MS = 1_000;
/**
 * For the 9.7 MiB batches (2) the unrelated request may wait for one whole body to be judged: read, parsed,
 * validated and partitioned, each linear in the body but synchronous, and validating 850,000 addresses takes
 * seconds. The bound is this many times what parsing and validating one of those bodies takes in the load
 * generator, measured before the attack (partitioning costs about as much again; the rest is room), and never
 * less than UNRELATED_LATENCY_MS. A server that refuses the batch by its size before validating it does far better.
 */
export const JUDGE_FACTOR = 3;

/**
 * Peak RSS for attacks whose requests are at most ~2 MB and whose jobs hold little: the idle server (~125
 * MiB), a few copies of a body while it is read and parsed, the job's page records (5000 of ~1 KB for the
 * largest), webhook metadata held once per job and a bounded delivery queue, and room for V8 growing its
 * heap before it collects. Today a single such request takes the server past 2 GiB.
 */
export const RSS_SMALL_MIB = 320;
/**
 * Peak RSS for the five 9.7 MiB batches (2), sent one after another: the idle server, one body being judged
 * (buffer, string, ~850,000 parsed strings and the partition's copy: ~100 MiB, dropped once it is answered),
 * and the pages a page cap admits in all (~1.1 KB each: a cap of ~300,000 pages fits). Today each accepted
 * batch holds about 0.9 GB for 24 hours.
 */
export const RSS_BATCHES_MIB = 640;
/**
 * Peak RSS for the huge status answers (4a, 4b): each of 12 clients that do not read holds one status page
 * in the server, as string and as buffer; with a status page capped at no more than the body limit (10 MiB),
 * 12 × 2 × 10 MiB = 240 MiB, plus the idle server and the job's record. Today each page is 256 MB.
 */
export const RSS_ANSWERS_MIB = 512;

/** The 400 of a body refused by validation (3, 6): linear in the body, about 1–2 MB here. */
export const REFUSAL_MS = 1_000;
/**
 * The unauthenticated 20 MiB body (9): answered 401 (or 413) within this, whether the server reads the body
 * or not (reading 20 MiB on loopback takes tens of ms).
 */
export const UNAUTHENTICATED_ANSWER_MS = 1_000;
/**
 * The server's CPU time over the whole unauthenticated attack (9: two 20 MiB bodies, and the unrelated
 * requests meanwhile). Reading both off loopback costs tens of ms; parsing one took 2.8 s in the finding.
 */
export const UNAUTHENTICATED_CPU_MS = 500;

// ---------------------------------------------------------------------------------------------------------
// Issue 22, findings 1–6: work after a page arrives, crawl state, fetch places (afterPage.ts)

/**
 * Another caller's batch of 10 pages of a site that answers, started beside six crawls of a site that never
 * answers, must end within this. Alone it takes a few hundred ms (its pages start on the job's first ticks,
 * 100 ms apart); the finding: 48 s, its fetches waiting behind those of the silent site, each of which holds
 * its place for the whole 10 s fetch limit. 5 s leaves room for a loaded machine and stays below that limit,
 * so a batch that had to wait for one silent fetch to give up its place fails.
 */
export const QUICK_BATCH_MS = 5_000;
/**
 * The errors endpoint of a crawl whose pages link to 300,000 addresses robots.txt disallows: at most this
 * many bytes (the finding: 129 MiB for 1,000 pages). `robotsBlocked` lists at most 1,000 addresses, the
 * farm's are about 150 bytes each: 150 KB, with the crawl's few errors; 1 MB is room, not a fit.
 */
export const ERRORS_ANSWER_BYTES = 1_000_000;
/**
 * Peak RSS for crawls of link farms (22-3): the idle server, what one crawl may hold to go on (32 MiB of
 * addresses as counted, about twice that in V8's strings and sets), eight pages of up to 5 MiB in flight, each
 * read into its links and its content, and room for V8 to grow its heap while pages are read faster than it
 * collects (with collections forced, the live set stays about 110 MiB above idle). The finding: the heap
 * exhausted (past 4 GiB) by one crawl.
 */
export const RSS_CRAWL_MIB = 512;

// ---------------------------------------------------------------------------------------------------------
// Issue 41, finding 6: the contract kit's webhook receiver (receiver.ts), measured in a process of its own

/**
 * Peak RSS of `crawlspec webhook-receiver` (under tsx, about 100 MiB idle) while deliveries that never end arrive
 * as fast as loopback carries them: the idle process, the 256 MiB of bodies it may hold in all (kept and still
 * arriving: `RECEIVER_LIMITS.totalBytes`), its connections' buffers (256 at most), and room for the chunks of
 * refused deliveries V8 has not collected yet. The finding: 300 unfinished deliveries of 4 MiB, 1270 MiB.
 */
export const RSS_RECEIVER_MIB = 448;
/**
 * A delivery trickling in is cut by the receiver's request timeout (`RECEIVER_LIMITS.requestMs`); node checks its
 * connections' timeouts once a second, and a loaded machine may be late: cut within the timeout and this.
 */
export const RECEIVER_CUT_SLACK_MS = 3_000;
// Issue 41, findings 5 and 9: PDF text (pdf.ts)

/**
 * Peak RSS of the server and its PDF readers (child processes, counted with it) while it reads hostile PDFs:
 * what `RSS_SMALL_MIB` allows the server's own side (the 2 MB files it fetched, the pages' records), and
 * each of the two readers at once at its bound (`PDF_MEMORY_MIB`, 192 MiB: pdf.js, its heap and what it
 * inflated). The finding: two 2.1 MB PDFs took the server to 3142 MiB in the 10 s before their time ran out.
 */
export const RSS_PDF_MIB = RSS_SMALL_MIB + 2 * 192;
// Issue 41: the validating proxy (`crawlspec proxy`, proxy.ts), in a child process of its own

/**
 * Peak RSS of the proxy in front of a gzip bomb (41-2): the idle proxy under tsx (~130 MiB), what it may hold for
 * checking at once (256 MiB, its held-bytes bound: compressed copies and decoded answers, each at most 32 MiB),
 * and room for V8 to collect what it gave up. The finding: 734–754 MiB, the compressed copies held uncounted.
 */
export const RSS_PROXY_MIB = 512;
/**
 * The unrelated request's latency bound (to `serve`, which is not what 41-2 attacks) while the proxy and the load
 * generator move 12 × 33 MB through loopback twice on the same two cores: `serve` waits for a core, not for work of
 * its own (1.3–1.5 s seen, before the fix and after).
 */
export const PROXY_BOMB_UNRELATED_MS = 3_000;
/** How long the proxy's CPU time is watched once every exchange of 41-2 has ended. */
export const PROXY_SETTLE_MS = 5_000;
/**
 * The proxy's CPU time in those PROXY_SETTLE_MS. What may be left when the clients have their answers is checking
 * work that is bounded: decoding at most 32 MiB of each of the 12 answers (384 MiB of inflation in all, in 16 KiB
 * round trips through the event loop: 0.6 s measured on the 2-core machine), then nothing. A proxy that goes on
 * inflating what it gave up spends both cores for the whole window (the finding: 23.8 s after the exchanges had
 * ended, another run past 9 min; 2 s in the first 3 s here before the fix).
 */
export const PROXY_SETTLE_CPU_MS = 1_500;
