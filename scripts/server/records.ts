/**
 * What the reference server keeps of its jobs' pages, and how much it keeps in all (issue 13, findings 1, 2
 * and 4).
 *
 * A page record is kept as its JSON text, made once when the page is scraped (`keptRecord`, with
 * `stringifyJson`: no recursion, and a record that would pass `MAX_RECORD_BYTES` is refused as soon as its
 * text passes that length, however many times it repeats a long string). Status answers and webhook payloads
 * splice these texts in; nothing is serialised twice. A status answer holds records up to
 * `STATUS_PAGE_MAX_BYTES` of them (`statusPage`): a record that would take a page past it opens the next one,
 * which `next` points to, so no answer is larger than that plus its few fields.
 *
 * `Holdings` is the account of what all jobs hold until they expire: page records (reserved when a job
 * starts, for as many pages as it may make) and bytes (each job's request, counted three times for the forms
 * the server keeps of it, and its records' text). A valid start that would pass a bound is refused (`admit`;
 * the service checks its credits before the body, the reference server after, so that an invalid body gets
 * the 400 that says what is wrong with it):
 *   - more pages than one job may hold (`MAX_JOB_RECORDS`): 402 with the error envelope, as the service's
 *     refusal of a request that needs more credits than the team has; sending it again cannot succeed;
 *   - more than is left of `MAX_HELD_RECORDS` or `MAX_HELD_BYTES`: 429 with the envelope, as the service's
 *     refusal when its queue is full; it can succeed once older jobs expire.
 * A page whose record would pass the byte bounds while the job runs is an error of the job, not a record.
 *
 * A job also holds what it needs to go on (a crawl's addresses, queue and robots.txt rules) and what its
 * answers need besides records (a crawl's `robotsBlocked`): each counted as it grows (`hold`), within
 * `MAX_HELD_BYTES` (issue 22, findings 3 and 4); the first is given back when the job ends (`settle`), the
 * second when it expires. What the server holds for no job in particular (its page cache, `pageCache.ts`) is
 * counted there too (`holdShared`, `releaseShared`).
 */
import { JsonTooLong, stringifyJson } from './jsonText.js';

const MiB = 1024 * 1024;

/** Largest page record kept, in bytes of JSON text (UTF-8). */
export const MAX_RECORD_BYTES = 10 * MiB;
/** Largest sum of record bytes in one status answer (one record alone may reach `MAX_RECORD_BYTES`). */
export const STATUS_PAGE_MAX_BYTES = 10 * MiB;
/** Page records one job may hold: a batch of more addresses is refused (402). */
export const MAX_JOB_RECORDS = 50_000;
/** Page records all jobs may hold until they expire (reserved when they start). */
export const MAX_HELD_RECORDS = 250_000;
/** Bytes all jobs may hold until they expire: their requests and their records' text. */
export const MAX_HELD_BYTES = 512 * MiB;
/** How many times a job's request counts against `MAX_HELD_BYTES`: the body as parsed, with defaults, and as listed. */
const REQUEST_COPIES = 3;

/** A page record as kept: its JSON text and that text's size in bytes. */
export interface KeptRecord {
  readonly text: string;
  readonly bytes: number;
}

/** The record as kept, or why it is not (it is too large). */
export function keptRecord(record: unknown): KeptRecord | string {
  const tooLarge = `its record would be larger than ${MAX_RECORD_BYTES} bytes, the most the reference server keeps of one page`;
  let text: string | undefined;
  try {
    text = stringifyJson(record, MAX_RECORD_BYTES);
  } catch (error) {
    if (error instanceof JsonTooLong) return tooLarge;
    throw error;
  }
  if (text === undefined) throw new TypeError('a page record has no JSON text');
  const bytes = Buffer.byteLength(text);
  return bytes > MAX_RECORD_BYTES ? tooLarge : { text, bytes };
}

/**
 * The records of one status answer from `skip` on: at most `limit` of them and at most `maxBytes` of their
 * text, but always one when there is one. `data` is the JSON text of the array; `end` the index after the last.
 */
export function statusPage(
  records: readonly KeptRecord[],
  skip: number,
  limit: number,
  maxBytes: number = STATUS_PAGE_MAX_BYTES,
): { readonly data: string; readonly end: number } {
  const texts: string[] = [];
  let bytes = 0;
  let end = Math.min(skip, records.length);
  while (end < records.length && texts.length < limit) {
    const record = records[end]!;
    if (texts.length > 0 && bytes + record.bytes > maxBytes) break;
    texts.push(record.text);
    bytes += record.bytes;
    end += 1;
  }
  return { data: `[${texts.join(',')}]`, end };
}

/** A job's share of the holdings. */
export interface Ticket {
  /** Page records the job may still hold (reserved). */
  pages: number;
  /** Records it holds. */
  kept: number;
  /** Bytes it holds until it expires (its request, its records, what its answers need). */
  bytes: number;
  /** Bytes it holds until it ends (what it needs to go on). */
  working: number;
}

/** Why a start is refused, as the answer's status and message. */
export interface Refusal {
  readonly status: 402 | 429;
  readonly error: string;
}

export class Holdings {
  #pages = 0;
  #bytes = 0;

  /** Pages reserved and bytes held by every job not yet expired. */
  get held(): { readonly pages: number; readonly bytes: number } {
    return { pages: this.#pages, bytes: this.#bytes };
  }

  /**
   * A job that may make up to `pages` pages from a request of `requestBytes`: its ticket, or the refusal.
   * `what` names the request in the message ("this batch asks for 20000 pages").
   */
  admit(pages: number, requestBytes: number, what: string): Ticket | Refusal {
    const refused = this.#refusal(pages, REQUEST_COPIES * requestBytes, what);
    if (refused !== undefined) return refused;
    const ticket: Ticket = { pages, kept: 0, bytes: REQUEST_COPIES * requestBytes, working: 0 };
    this.#pages += pages;
    this.#bytes += ticket.bytes;
    return ticket;
  }

  /** More pages for a job (a batch appended to), or the refusal. */
  extend(ticket: Ticket, pages: number, what: string): Refusal | undefined {
    if (ticket.pages + pages > MAX_JOB_RECORDS) return this.#tooManyForAJob(ticket.pages + pages, what);
    const refused = this.#refusal(pages, 0, what);
    if (refused !== undefined) return refused;
    ticket.pages += pages;
    this.#pages += pages;
    return undefined;
  }

  /** Whether a record of `bytes` may be kept by the job (within its reservation and the byte bound): then it is counted. */
  keep(ticket: Ticket, bytes: number): boolean {
    if (ticket.kept >= ticket.pages || this.#bytes + bytes > MAX_HELD_BYTES) return false;
    ticket.kept += 1;
    ticket.bytes += bytes;
    this.#bytes += bytes;
    return true;
  }

  /**
   * Whether the job may hold `bytes` more, until it ends (`until: 'end'`) or until it expires: then they are
   * counted. False when that would pass `MAX_HELD_BYTES`.
   */
  hold(ticket: Ticket, bytes: number, until: 'end' | 'expiry'): boolean {
    if (this.#bytes + bytes > MAX_HELD_BYTES) return false;
    this.#bytes += bytes;
    if (until === 'end') ticket.working += bytes;
    else ticket.bytes += bytes;
    return true;
  }

  /** Whether the server may hold `bytes` more for no job (its page cache): then they are counted. False past `MAX_HELD_BYTES`. */
  holdShared(bytes: number): boolean {
    if (this.#bytes + bytes > MAX_HELD_BYTES) return false;
    this.#bytes += bytes;
    return true;
  }

  /** Bytes held for no job, given back. */
  releaseShared(bytes: number): void {
    this.#bytes -= bytes;
  }

  /** The job ended: the pages it reserved and did not make are free again, and what it held to go on. */
  settle(ticket: Ticket): void {
    this.#pages -= ticket.pages - ticket.kept;
    ticket.pages = ticket.kept;
    this.#bytes -= ticket.working;
    ticket.working = 0;
  }

  /** The job expired: everything it held is free. */
  release(ticket: Ticket): void {
    this.#pages -= ticket.pages;
    this.#bytes -= ticket.bytes + ticket.working;
    ticket.pages = 0;
    ticket.kept = 0;
    ticket.bytes = 0;
    ticket.working = 0;
  }

  #tooManyForAJob(pages: number, what: string): Refusal {
    return {
      status: 402,
      error: `The reference server keeps at most ${MAX_JOB_RECORDS} pages per job; ${what} ${pages}. Send at most ${MAX_JOB_RECORDS} per job.`,
    };
  }

  #refusal(pages: number, bytes: number, what: string): Refusal | undefined {
    if (pages > MAX_JOB_RECORDS) return this.#tooManyForAJob(pages, what);
    const retry = 'Retry once older jobs expire, or ask for fewer pages.';
    if (this.#pages + pages > MAX_HELD_RECORDS) {
      return {
        status: 429,
        error: `The reference server is full: jobs not yet expired hold ${this.#pages} of the ${MAX_HELD_RECORDS} pages it keeps, and ${what} ${pages}. ${retry}`,
      };
    }
    if (this.#bytes + bytes > MAX_HELD_BYTES) {
      const mib = (n: number) => (n / MiB).toFixed(1);
      return {
        status: 429,
        error: `The reference server is full: jobs not yet expired hold ${mib(this.#bytes)} MiB of the ${mib(MAX_HELD_BYTES)} MiB it keeps, and this request needs ${mib(bytes)} MiB more. ${retry}`,
      };
    }
    return undefined;
  }
}
