/**
 * Every syntax of sources listed in an answer's text, in the order they are hidden: a later
 * block takes in what an earlier one hid (grok2api's block lists the citations of what it holds).
 * Adding one: a file here and a line below.
 */

import type { SourceBlockSyntax } from './block.js';
import { footnoteDefinitions } from './footnote-definitions.js';
import { grok2apiSources } from './grok2api-sources.js';
import { lightragReferences } from './lightrag-references.js';
import { openragTags } from './openrag-tags.js';

export const SOURCE_BLOCKS: readonly SourceBlockSyntax[] = [
  openragTags,
  footnoteDefinitions,
  grok2apiSources,
  lightragReferences,
];

export type { HiddenBlock, ShownSources, SourceBlockSyntax } from './block.js';
