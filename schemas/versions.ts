/** The versions of the interface the package describes (a module of its own: no definition is loaded with it). */
export const VERSIONS = ['v1', 'v2'] as const;
export type Version = (typeof VERSIONS)[number];
