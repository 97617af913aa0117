/**
 * Every wire format, in the order they are tried: the first that recognises a payload wins.
 * More specific shapes come first (a grok2api body also has annotations; answer-spans, xAI and
 * NVIDIA RAG all use a top-level `citations`; Jina's annotations are url_citations without
 * offsets). Adding a format: one file here, one line below (or, for a list at a path, a
 * producers/<name>/declaration.json and one builtInDeclaration line), and its scenario files
 * (docs/contributing.md).
 */

import qianfanDeclaration from '../../../../producers/qianfan/declaration.json' with { type: 'json' };
import { builtInDeclaration } from '../declared-read.js';
import type { Format } from '../model.js';
import { answerSpans } from './answer-spans.js';
import { azureOnYourData } from './azure-on-your-data.js';
import { brave } from './brave.js';
import { claudeCitations } from './claude-citations.js';
import { exa } from './exa.js';
import { fastgpt } from './fastgpt.js';
import { geminiGrounding } from './gemini-grounding.js';
import { generic } from './generic.js';
import { grok2api } from './grok2api.js';
import { grok2apiGo } from './grok2api-go.js';
import { groqCompound } from './groq-compound.js';
import { jinaDeepsearch } from './jina-deepsearch.js';
import { lightrag } from './lightrag.js';
import { litellmKnowledgeBase } from './litellm-knowledge-base.js';
import { minimax } from './minimax.js';
import { mistral } from './mistral.js';
import { nvidiaRag } from './nvidia-rag.js';
import { openWebui } from './open-webui.js';
import { openaiChat } from './openai-chat.js';
import { openaiResponses } from './openai-responses.js';
import { openrag } from './openrag.js';
import { perplexity } from './perplexity.js';
import { ragflow } from './ragflow.js';
import { textList } from './text-list.js';
import { volcengineArk } from './volcengine-ark.js';
import { xiaomiMimo } from './xiaomi-mimo.js';

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
