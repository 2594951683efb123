/**
 * The reference server's JSON answers: a body with its status, the error envelope (`{ success: false, error }`),
 * and times as the answers write them (ISO 8601).
 */
import type { AppResponse } from './appInterface.js';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

export const json = (status: number, body: unknown): AppResponse => ({
  status,
  headers: { 'content-type': JSON_CONTENT_TYPE },
  body: JSON.stringify(body),
});
export const failure = (status: number, error: string): AppResponse => json(status, { success: false, error });
export const iso = (ms: number): string => new Date(ms).toISOString();
