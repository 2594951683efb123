/**
 * The scrape option rules of actions and waiting (a wait's target, at most 50 actions, the total wait, `waitFor`
 * within `timeout`, the v2 `timeout` maximum), written relative to a set of scrape options like the others of
 * scrapeOptionCases.ts, which places them among its own in the same order.
 */
import {
  BOTH,
  FIFTY_ACTIONS,
  TOTAL_WAIT,
  WAIT_FOR_TIMEOUT,
  WAIT_TARGET,
  scrapes,
  wait,
} from './ruleCase.js';
import type { OptionCase } from './placement.js';

export const ACTION_CASES: readonly OptionCase[] = [
  // waitNeedsOneTarget
  {
    title: 'wait with neither milliseconds nor selector',
    kind: 'schema',
    versions: BOTH,
    rule: 'waitNeedsOneTarget',
    valid: { actions: [{ type: 'wait', milliseconds: 500 }] },
    invalid: { actions: [{ type: 'wait' }] },
    at: '.actions[0]',
    message: WAIT_TARGET,
  },
  {
    title: 'wait with both milliseconds and selector',
    kind: 'schema',
    versions: BOTH,
    rule: 'waitNeedsOneTarget',
    valid: {
      actions: [
        { type: 'click', selector: '#go' },
        { type: 'wait', selector: '#content' },
      ],
    },
    invalid: {
      actions: [
        { type: 'click', selector: '#go' },
        { type: 'wait', milliseconds: 500, selector: '#content' },
      ],
    },
    at: '.actions[1]',
    message: WAIT_TARGET,
  },

  // atMost50Actions
  {
    title: '51 actions (50 allowed)',
    kind: 'schema',
    versions: BOTH,
    rule: 'atMost50Actions',
    valid: { actions: scrapes(50) },
    invalid: { actions: scrapes(51) },
    at: '.actions',
    message: FIFTY_ACTIONS,
  },

  // totalWaitWithinLimit
  {
    title: 'v1 counts waitFor: waitFor 10000 + wait 55000 (the same actions alone are fine)',
    kind: 'code',
    versions: ['v1'],
    rule: 'totalWaitWithinLimit',
    valid: { actions: [wait(55000)] },
    invalid: { waitFor: 10000, actions: [wait(55000)] },
    at: '.actions',
    message: TOTAL_WAIT,
  },
  {
    title: 'v1: waitFor 5000 + waits 54000 + a selector wait (1000) is exactly 60000; waitFor 5001 is over',
    kind: 'code',
    versions: ['v1'],
    rule: 'totalWaitWithinLimit',
    valid: { waitFor: 5000, actions: [wait(54000), { type: 'wait', selector: '#content' }] },
    invalid: { waitFor: 5001, actions: [wait(54000), { type: 'wait', selector: '#content' }] },
    at: '.actions',
    message: TOTAL_WAIT,
  },
  {
    title: 'v2 counts the waits only: waitFor 10000 + wait 55000 is fine; waits over 60000 are not',
    kind: 'code',
    versions: ['v2'],
    rule: 'totalWaitWithinLimit',
    valid: { waitFor: 10000, actions: [wait(55000)] },
    invalid: { waitFor: 10000, actions: [wait(55000), wait(5001)] },
    at: '.actions',
    message: TOTAL_WAIT,
  },
  {
    title: 'a selector wait counts 1000 ms: 59000 + selector is exactly 60000, 59001 + selector is over',
    kind: 'code',
    versions: BOTH,
    rule: 'totalWaitWithinLimit',
    valid: { actions: [wait(59000), { type: 'wait', selector: '#content' }] },
    invalid: { actions: [wait(59001), { type: 'wait', selector: '#content' }] },
    at: '.actions',
    message: TOTAL_WAIT,
  },
  {
    title: 'waits exactly 60000 are fine, 60001 are not',
    kind: 'code',
    versions: BOTH,
    rule: 'totalWaitWithinLimit',
    valid: { actions: [wait(30000), { type: 'scrape' }, wait(30000)] },
    invalid: { actions: [wait(30000), { type: 'scrape' }, wait(30001)] },
    at: '.actions',
    message: TOTAL_WAIT,
  },

  // waitForWithinTimeout
  {
    title: 'waitFor 8000 with timeout 15000 (7500 is half)',
    kind: 'code',
    versions: BOTH,
    rule: 'waitForWithinTimeout',
    valid: { waitFor: 7500, timeout: 15000 },
    invalid: { waitFor: 8000, timeout: 15000 },
    at: '.waitFor',
    message: WAIT_FOR_TIMEOUT,
  },
  {
    title: 'waitFor is compared only with a timeout that is sent: waitFor 20000 alone is fine, with timeout 30000 it is not',
    kind: 'code',
    versions: BOTH,
    rule: 'waitForWithinTimeout',
    valid: { waitFor: 20000 },
    invalid: { waitFor: 20000, timeout: 30000 },
    at: '.waitFor',
    message: WAIT_FOR_TIMEOUT,
  },
  {
    title: 'waitFor 0 is always fine, even with the smallest timeout',
    kind: 'code',
    versions: BOTH,
    rule: 'waitForWithinTimeout',
    valid: { waitFor: 0, timeout: 1000 },
    invalid: { waitFor: 501, timeout: 1000 },
    at: '.waitFor',
    message: WAIT_FOR_TIMEOUT,
  },

  // timeout maximum (v2 only; a plain schema limit)
  {
    title: 'timeout 300001 (at most 300000)',
    kind: 'schema',
    versions: ['v2'],
    rule: 'maximum',
    valid: { timeout: 300000 },
    invalid: { timeout: 300001 },
    at: '.timeout',
    message: 'must be <= 300000, not 300001',
  },

];
