/**
 * LightRAG (HKUDS/LightRAG) through its Ollama-compatible API, as Open WebUI connects to it: no
 * source field at all. Its sources are the references list its prompt has the model write at the
 * end of the answer (references.ts): a numbered line names a document by its file path, the `[n]`
 * the text cites; a `[DC]` line a document chunk's file; a `[KG]` line a knowledge-graph entity or
 * relation. A title that is a web address (a document inserted with its address as its source) is
 * also its link.
 */

import { firstChoice, obj } from '../../extension/src/core/json.js';
import type { Draft, Format } from '../../extension/src/core/model.js';
import { type Reference, referenceId, referencesBlock } from '../../extension/src/core/references.js';
import { isWebUrl } from '../../extension/src/core/urls.js';

function draft(reference: Reference): Draft {
  return {
    id: referenceId(reference),
    title: reference.title,
    url: isWebUrl(reference.title) ? reference.title : null,
    kind: reference.tag === 'KG' ? 'graph' : 'document',
    refs: reference.n === null ? [] : [reference.n],
  };
}

export const lightrag: Format = {
  name: 'lightrag',
  extract(payload) {
    const message = obj(firstChoice(payload)?.message) ?? obj(firstChoice(payload)?.delta);
    const block = referencesBlock(typeof message?.content === 'string' ? message.content : '');
    // In the list's order: its numbers are LightRAG's reference ids; its tagged lines have none.
    return block && { drafts: block.references.map(draft), ordered: true };
  },
};
