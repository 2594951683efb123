/**
 * The service's bounds on path patterns (its newer code): each pattern, and the patterns of one field. A module
 * of their own, so that the rule checking the patterns (codeRules/pathPatterns.ts) reads them without loading
 * the definitions that state them (requestFields.ts).
 */
export const PATH_PATTERN_MAX_LENGTH = 2000;
export const PATH_PATTERNS_PER_FIELD = 1000;
