/** What a source block's finder is given (core/source-blocks/block.ts), for its unit tests: the
 * citations shown, each by its number, its address and its id; `code`: the spans that are code. */

import type { HiddenBlock, ShownSources, SourceBlockSyntax } from '../src/core/source-blocks/index.js';
import { finish, WHOLE } from '../src/core/steps.js';

interface Shown {
  index: number;
  url?: string;
  id?: string;
}

export function shownSources(text: string, shown: readonly Shown[], code: ReadonlyArray<[number, number]> = []) {
  const byId = new Map(shown.flatMap((s) => (s.id ? [[s.id, s.index] as const] : [])));
  const resolve = (refs: number[], url?: string): number[] => {
    const viaUrl = url === undefined ? undefined : shown.find((s) => s.url === url);
    if (viaUrl) return [viaUrl.index];
    return refs.filter((n) => shown.some((s) => s.index === n));
  };
  const inCode = (at: number): boolean => code.some(([start, end]) => at >= start && at < end);
  return { text, inCode, resolve, byId, budget: WHOLE } satisfies ShownSources;
}

/** What a finder finds, its steps run to the end. */
export const blocksFound = (syntax: SourceBlockSyntax, shown: ShownSources): HiddenBlock[] =>
  finish(syntax.find(shown));
