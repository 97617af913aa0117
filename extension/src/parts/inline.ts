/**
 * The parts that are in the first part itself, by name: none, except in the userscript's build
 * (one file, as a userscript manager loads no second one), for which build.mjs writes this table
 * with every part.
 */
export const INLINE: Readonly<Record<string, unknown>> | null = null;
