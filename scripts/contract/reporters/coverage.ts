/**
 * The spec coverage of a run (scripts/coverage/): a listener of the run's events (engine/events.ts) that feeds
 * every exchange the target answered to the coverage model (a request that got no answer, a connection refused or
 * lost, exercised nothing of the target), for the JSON report's `coverage`, the text summary and the
 * HTML report (which ask `coverage()` once the run has ended), and `--min-coverage`.
 *
 * An answer counts as checked when a check sent its request and its body came whole and as JSON: the kit holds
 * every answer a check reads against what its operation documents for the status (engine/expect.ts); the run's
 * own requests (the preflight, the cancels at its end) are not held to anything.
 */
import { CoverageModel } from '../../coverage/model.js';
import type { Coverage } from '../../coverage/schema.js';
import type { RunListener } from '../engine/events.js';

export interface CoverageReporter extends RunListener {
  /** What the run exercised so far; undefined before the run started. */
  coverage(): Coverage | undefined;
}

export function coverageReporter(): CoverageReporter {
  let model: CoverageModel | undefined;
  return {
    runStarted: (options) => {
      model = new CoverageModel(options.baseUrl);
    },
    exchange: (record, check) => {
      const { request, response, text } = record;
      if (response === undefined) return;
      const json = /\bjson\b/i.test(response?.headers.get('content-type') ?? '');
      model?.add({
        method: request.method,
        url: request.url,
        ...(request.body === undefined ? {} : { requestBody: request.body }),
        status: response.status,
        ...(text === undefined || record.error !== undefined ? {} : { answerBody: text }),
        answerChecked: check !== null && json && text !== undefined && record.error === undefined,
      });
    },
    coverage: () => model?.result(),
  };
}
