/**
 * Every wire format, in the order they are tried: the first that recognises a payload wins.
 * More specific shapes come first (a grok2api body also has annotations; answer-spans, xAI and
 * NVIDIA RAG all use a top-level `citations`; Jina's annotations are url_citations without
 * offsets). A producer's format is its folder, producers/<name>/ (parser format.ts, wire shape,
 * data; or, for a list at a path, declaration.json and a builtInDeclaration line), plus its import
 * and one line below (docs/contributing.md, make new-producer); the files here are the core's own
 * readers, of no producer.
 */

import { answerSpans } from '../../../../producers/answer-spans/format.js';
import { azureOnYourData } from '../../../../producers/azure-on-your-data/format.js';
import { brave } from '../../../../producers/brave/format.js';
import { claudeCitations } from '../../../../producers/claude-citations/format.js';
import { exa } from '../../../../producers/exa/format.js';
import { fastgpt } from '../../../../producers/fastgpt/format.js';
import { geminiGrounding } from '../../../../producers/gemini-grounding/format.js';
import { grok2api } from '../../../../producers/grok2api/format.js';
import { grok2apiGo } from '../../../../producers/grok2api-go/format.js';
import { groqCompound } from '../../../../producers/groq-compound/format.js';
import { jinaDeepsearch } from '../../../../producers/jina-deepsearch/format.js';
import { lightrag } from '../../../../producers/lightrag/format.js';
import { litellmKnowledgeBase } from '../../../../producers/litellm-knowledge-base/format.js';
import { minimax } from '../../../../producers/minimax/format.js';
import { mistral } from '../../../../producers/mistral/format.js';
import { nvidiaRag } from '../../../../producers/nvidia-rag/format.js';
import { openaiResponses } from '../../../../producers/openai-responses/format.js';
import { openrag } from '../../../../producers/openrag/format.js';
import { perplexity } from '../../../../producers/perplexity/format.js';
import qianfanDeclaration from '../../../../producers/qianfan/declaration.json' with { type: 'json' };
import { ragflow } from '../../../../producers/ragflow/format.js';
import { volcengineArk } from '../../../../producers/volcengine-ark/format.js';
import { xiaomiMimo } from '../../../../producers/xiaomi-mimo/format.js';
import { builtInDeclaration } from '../declared-read.js';
import type { Format } from '../model.js';
import { generic } from './generic.js';
import { openWebui } from './open-webui.js';
import { openaiChat } from './openai-chat.js';
import { textList } from './text-list.js';

export const FORMATS: readonly Format[] = [
  azureOnYourData,
  openrag,
  ragflow,
  nvidiaRag,
  groqCompound,
  grok2api,
  answerSpans,
  builtInDeclaration('qianfan', qianfanDeclaration), // before perplexity: both read a top-level `search_results`, only Qianfan's items have an `index`
  perplexity,
  volcengineArk,
  fastgpt,
  exa,
  xiaomiMimo,
  minimax,
  grok2apiGo,
  openaiResponses,
  jinaDeepsearch,
  claudeCitations,
  litellmKnowledgeBase, // LiteLLM's own provider_specific_fields, after Claude's
  geminiGrounding,
  mistral,
  openaiChat,
  brave,
  openWebui,
  lightrag, // sources only in the answer's text, read when no field of the payload has any
  textList, // a list of links in the answer's text, after LightRAG's list of titles
  generic, // last: only what no format knows
];
