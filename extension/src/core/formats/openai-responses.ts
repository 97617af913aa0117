/**
 * OpenAI Responses API: flat annotations on `output[].content[]` parts of type output_text —
 * url_citation {url, title, start_index, end_index} and file_citation {file_id, filename,
 * index}. Also reads the `response.output_text.annotation.added` and `response.completed`
 * stream events on their own.
 */

import { draftsFromAnnotations } from '../annotations.js';
import { int, isObject, type JsonObject, obj, objects, str } from '../json.js';
import type { Draft, Format } from '../model.js';

function annotationsOf(payload: JsonObject): unknown[] | null {
  if (payload.type === 'response.output_text.annotation.added')
    return isObject(payload.annotation) ? [payload.annotation] : [];
  const response = payload.type === 'response.completed' ? obj(payload.response) : payload;
  if (!response || !Array.isArray(response.output)) return null;
  return objects(response.output)
    .flatMap((item) => objects(item.content))
    .flatMap((part) => (part.type === 'output_text' && Array.isArray(part.annotations) ? part.annotations : []));
}

function fileDraft(annotation: JsonObject, ref: number): Draft | null {
  const fileId = str(annotation.file_id);
  if (!fileId || (annotation.type !== 'file_citation' && annotation.type !== 'container_file_citation')) return null;
  const start = int(annotation.start_index) ?? int(annotation.index);
  const end = int(annotation.end_index) ?? start;
  return {
    id: `file:${fileId}`,
    file: str(annotation.filename) ?? fileId,
    kind: 'file',
    refs: [ref],
    anchors: start !== null && end !== null ? [{ start, end, unit: 'codePoints' }] : [],
  };
}

export const openaiResponses: Format = {
  name: 'openai-responses',
  extract(payload) {
    const annotations = annotationsOf(payload);
    if (annotations === null) return null;
    const drafts = draftsFromAnnotations(annotations, 'codePoints');
    for (const annotation of objects(annotations)) {
      const file = fileDraft(annotation, drafts.length + 1);
      if (file) drafts.push(file);
    }
    return drafts.length ? { drafts, ordered: true } : null;
  },
};
