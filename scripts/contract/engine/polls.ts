/** How the kit waits for a job to end (checks/follow.ts), and what that costs a check's budget. */

/**
 * Status reads while waiting for the job to end, and the waits between them (ms): some 29 s in all. They grow
 * slowly over the first seconds, where a small job ends (a job that ends at 1.6 s is seen ending at 1.7 s, not at
 * 3 s as when each wait doubled), then up to 5 s apart: 8 reads in the first two seconds, 17 at most.
 */
export const POLL_DELAYS = [50, 100, 150, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 4000, 5000, 5000, 5000];
/** Requests `waitForEnd` sends at most. */
export const POLLS = POLL_DELAYS.length + 1;
