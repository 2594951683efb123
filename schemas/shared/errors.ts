/**
 * Error bodies. The interface leaves status codes and error bodies "not shown"; they follow the service.
 */
import { Type } from '@sinclair/typebox';
import { Named, fromService } from '../annotations.js';

/** Machine-readable error codes the service uses (in error bodies and in the errors endpoint). */
export const KNOWN_ERROR_CODES = [
  'BAD_REQUEST',
  'BAD_REQUEST_INVALID_JSON',
  'UNKNOWN_ERROR',
  'SCRAPE_TIMEOUT',
  'MAP_TIMEOUT',
  'SCRAPE_ALL_ENGINES_FAILED',
  'SCRAPE_SSL_ERROR',
  'SCRAPE_SITE_ERROR',
  'SCRAPE_PDF_PREFETCH_FAILED',
  'SCRAPE_ZDR_VIOLATION_ERROR',
  'SCRAPE_DNS_RESOLUTION_ERROR',
  'SCRAPE_PDF_INSUFFICIENT_TIME_ERROR',
  'SCRAPE_PDF_ANTIBOT_ERROR',
  'SCRAPE_UNSUPPORTED_FILE_ERROR',
  'SCRAPE_ACTION_ERROR',
  'SCRAPE_RACED_REDIRECT_ERROR',
] as const;

const errorCode = (description: string) =>
  Type.String({
    description: `${description} Known values: ${KNOWN_ERROR_CODES.map((c) => `\`${c}\``).join(', ')}.`,
    examples: ['BAD_REQUEST'],
    ...fromService(),
  });

/** One problem found in a request body (an item of `details` in a 400 answer). */
export const ValidationIssue = Named(
  'ValidationIssue',
  Type.Object(
    {
      code: Type.String({ description: 'Kind of problem, e.g. `invalid_type`, `unrecognized_keys`, `custom`.', ...fromService() }),
      message: Type.String({ description: 'What is wrong.', ...fromService() }),
      path: Type.Array(Type.Union([Type.String(), Type.Integer()]), {
        description: 'Location of the problem in the body, as a list of keys and array indexes.',
        ...fromService(),
      }),
    },
    { description: 'One validation problem.', ...fromService() },
  ),
);

/** The error envelope: every error answer of the start, status, errors and active endpoints. */
export const ErrorResponse = Named(
  'ErrorResponse',
  Type.Object(
    {
      success: Type.Literal(false, { description: 'Always false on an error.', ...fromService() }),
      error: Type.String({ description: 'Human-readable error message.', ...fromService() }),
      code: Type.Optional(errorCode('Machine-readable error code.')),
      details: Type.Optional(
        Type.Array(ValidationIssue, { description: 'The validation problems, on a 400 for an invalid body.', ...fromService() }),
      ),
    },
    { description: 'Error envelope.', ...fromService() },
  ),
);

/** The cancel endpoint's error answers carry no `success` field. */
export const CancelErrorResponse = Named(
  'CancelErrorResponse',
  Type.Object(
    { error: Type.String({ description: 'Human-readable error message.', ...fromService() }) },
    { description: 'Error answer of the cancel endpoint (no `success` field).', ...fromService() },
  ),
);

export { errorCode };
