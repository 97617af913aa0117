/**
 * What capture learned, keyed by message id: an accumulator for what streamed, the citations
 * stored on the message, and whether the answer is finished. Knows nothing of the DOM.
 */

import { keepLast } from '../bounded.js';
import {
  type Accumulator,
  type Budget,
  type Citation,
  chooseCitations,
  createAccumulator,
  type Declared,
  done,
  type ExtractResult,
  extractCitationSteps,
  extractCitations,
  finish,
  type Steps,
  stepBudget,
  streamedWins,
  WHOLE,
} from '../core/index.js';
import { messageText } from '../host/message-text.js';
import type { Declarations } from './declarations.js';

export interface MessageState {
  messageId: string;
  chatId: string | null;
  accumulator: Accumulator;
  /** The answer's markdown, when known (streamed, or from the stored chat). */
  content: string;
  done: boolean;
  /** Answered while this page was open (not only read from the stored chat). */
  live: boolean;
  /** A frame about it came that could not be read (no JSON): what it carried is lost. */
  unread: boolean;
  /** Asked for by this page, or streaming here, when the socket was closed: what was sent for it
   * meanwhile never reached the page. */
  interrupted: boolean;
  /** Asked for by this page (its request seen). */
  asked: boolean;
  /** The Open WebUI model that answers it, when known (the page's request, the stored message):
   * a declared backend applies by model. */
  model: string | null;
}

/** What the UI shows of an answer, read from the hub in one place. */
export interface AnswerView {
  messageId: string;
  citations: readonly Citation[];
  /** The answer's markdown: as stored or finished, else what streamed so far. */
  text: string;
  done: boolean;
  live: boolean;
  /** Finished without a source to show, though sources were sent for it: none could be read
   * (core: `unreadable`), or a frame about it could not be read at all. */
  unreadable?: boolean;
  /** Finished without a source to show, and the socket was closed while it was answered: what
   * Open WebUI sent meanwhile, its sources perhaps, never reached the page. */
  interrupted?: boolean;
  /** `citations`, read in steps of `stepUnits` (core/steps.ts) where they are not read yet. */
  readCitations?(stepUnits: number): Steps<readonly Citation[]>;
}

type Listener = (state: MessageState) => void;

/** A message as Open WebUI stores it (GET /api/v1/chats/<id>), the fields read from it. */
export interface StoredMessage {
  content?: unknown;
  output?: unknown;
  sources?: unknown;
  done?: unknown;
  role?: unknown;
  parentId?: unknown;
  model?: unknown;
}

export interface Hub {
  get(messageId: string): MessageState | undefined;
  /** Raw data seen for a message: a chunk, a body, a source event. */
  add(messageId: string, chatId: string | null, payload: unknown): void;
  /** The answer's text as it streamed, read only where a chunk's place in it matters: a piece, or all so far. */
  addText(messageId: string, chatId: string | null, text: string, soFar: boolean): void;
  /** The message as stored by Open WebUI (GET /api/v1/chats/<id>). */
  setStored(messageId: string, chatId: string, message: StoredMessage): void;
  finish(messageId: string, content?: string): void;
  /** A frame about the message came that could not be read. */
  unread(messageId: string): void;
  /** This page asked for the answer (its id chosen by the page), of `model` when known. */
  asked(messageId: string, model?: string | null): void;
  /** The socket was closed and opened again: the answers asked or streaming lost what came meanwhile. */
  reconnected(): void;
  /** A finished answer whose citations are final (stored): only they and the text are kept
   * from now on, not the raw data they were read from. */
  settle(messageId: string): void;
  citations(messageId: string): ExtractResult;
  view(messageId: string): AnswerView | undefined;
  /** The messages this page knows, oldest first. */
  ids(): string[];
  subscribe(listener: Listener): () => void;
  /** Told of an answer known only from the stored chat when its sources are first read after it
   * changed (drawn, exported), not at the change: a chat opened brings hundreds of answers at
   * once, each read when it is drawn. */
  onRead(listener: Listener): () => void;
}

// Parsed results are caches: kept for the answers seen last, parsed again when an older one comes back.
const MAX_CACHED = 100;
// Answers known to this page: the ones seen last, more than Open WebUI shows at once. An older
// one shows Open WebUI's own view of its stored sources, until its chat is opened again (read
// again from the stored chat).
const MAX_MESSAGES = 100;

/** What is left of a settled answer's stream: its citations and text; later data is not read. */
function settledAccumulator(result: ExtractResult, text: string): Accumulator {
  return { add: () => {}, result: () => result, resultSteps: () => done(result), text: () => text, body: () => ({}) };
}
const NO_DECLARATIONS: readonly Declared[] = [];

function remember<V>(cache: Map<string, V>, key: string, value: V): V {
  cache.delete(key);
  keepLast(cache.set(key, value), MAX_CACHED);
  return value;
}

export function createHub(
  locale: () => string,
  declarations?: Pick<Declarations, 'forModel' | 'onChange'> & Partial<Pick<Declarations, 'anyModel'>>,
): Hub {
  const messages = new Map<string, MessageState>();
  const listeners = new Set<Listener>();
  const readListeners = new Set<Listener>();
  // Answers known only from the stored chat that changed since their sources were last read.
  const changedUnread = new WeakSet<MessageState>();
  const declaredFor = (messageId: string): Declared | undefined => {
    const model = messages.get(messageId)?.model;
    return model ? declarations?.forModel(model) : undefined;
  };
  const anyModel = (): readonly Declared[] => declarations?.anyModel?.() ?? NO_DECLARATIONS;
  // What streamed is parsed again only when more was added, not at every change (an answer
  // finishing, a stored copy fetched): for a large answer that is the extension's biggest cost.
  // Each parsed again when the declaration for the answer's model changes (learned, loaded, saved).
  type ReadWith = { declared?: Declared | undefined; anyModel: readonly Declared[] };
  const parsedStreams = new Map<string, ReadWith & { adds: number; result: ExtractResult }>();
  const adds = new Map<string, number>();
  const written = new Map<string, ReadWith & { content: string; result: ExtractResult }>();
  const readsWith = (read: ReadWith | undefined, messageId: string): boolean =>
    read !== undefined && read.declared === declaredFor(messageId) && read.anyModel === anyModel();
  // The sources Open WebUI stored on a message (a chat opened or reloaded), kept raw and parsed
  // once, when first asked for (the answer drawn): a chat brings hundreds of answers at once.
  const stored = new Map<string, { sources?: unknown[]; result?: ExtractResult }>();
  const storedCitations = (messageId: string): ExtractResult | null => {
    const entry = stored.get(messageId);
    if (!entry) return null;
    if (!entry.result) {
      entry.result = extractCitations({ sources: entry.sources }, { locale: locale() });
      delete entry.sources; // once read, not kept twice
    }
    return entry.result;
  };
  function* fromText(messageId: string, content: string, budget: Budget): Steps<ExtractResult> {
    let read = written.get(messageId);
    if (read?.content !== content || !readsWith(read, messageId)) {
      const options = { declared: declaredFor(messageId), anyModel: anyModel() };
      const payload = { choices: [{ message: { content } }] };
      const result = yield* extractCitationSteps(payload, { locale: locale(), ...options }, budget);
      read = remember(written, messageId, { content, ...options, result });
    }
    return read.result;
  }

  const state = (messageId: string, chatId: string | null): MessageState => {
    let entry = messages.get(messageId);
    if (!entry) {
      entry = {
        messageId,
        chatId,
        accumulator: createAccumulator({
          locale: locale(),
          get declared() {
            return declaredFor(messageId);
          },
          get anyModel() {
            return anyModel();
          },
        }),
        content: '',
        done: false,
        live: false,
        unread: false,
        interrupted: false,
        asked: false,
        model: null,
      };
      keepLast(messages.set(messageId, entry), MAX_MESSAGES);
    }
    if (chatId) entry.chatId = chatId;
    return entry;
  };
  const changed = (entry: MessageState): void => {
    if (!entry.live) changedUnread.add(entry);
    listeners.forEach((listener) => listener(entry));
  };

  const add = (messageId: string, chatId: string | null, payload: unknown): void => {
    const entry = state(messageId, chatId);
    entry.accumulator.add(payload);
    entry.live = true;
    keepLast(adds.set(messageId, (adds.get(messageId) ?? 0) + 1), MAX_MESSAGES);
    changed(entry);
  };

  /** The answer's sources, by core's precedence of its readings (core/precedence.ts), in steps:
   * what streamed, then the finished text when it may win. */
  function* citationSteps(messageId: string, budget: Budget): Steps<ExtractResult> {
    const entry = messages.get(messageId);
    if (!entry) return { format: null, citations: [] };
    const added = adds.get(messageId) ?? 0;
    let parsed = parsedStreams.get(messageId);
    if (parsed?.adds !== added || !readsWith(parsed, messageId)) {
      const options = { declared: declaredFor(messageId), anyModel: anyModel() };
      const result = yield* entry.accumulator.resultSteps(budget);
      parsed = remember(parsedStreams, messageId, { adds: added, ...options, result });
    }
    const streamed = parsed.result;
    let result = streamed;
    if (!streamedWins(streamed)) {
      const fromWritten = entry.done && entry.content ? yield* fromText(messageId, entry.content, budget) : null;
      result = chooseCitations({ streamed, written: () => fromWritten, stored: () => storedCitations(messageId) });
    }
    if (changedUnread.delete(entry)) readListeners.forEach((listener) => listener(entry));
    return result;
  }
  const citations = (messageId: string): ExtractResult => finish(citationSteps(messageId, WHOLE));

  // Declarations arrive after the page starts (the admin's file) or change (saved in the page):
  // the answers of a declared model are read again; every answer when those for any model changed.
  let anyModelRead = anyModel();
  declarations?.onChange(() => {
    const every = anyModel() !== anyModelRead;
    anyModelRead = anyModel();
    for (const entry of messages.values()) if (every || declaredFor(entry.messageId)) changed(entry);
  });

  return {
    get: (messageId) => messages.get(messageId),
    add,
    addText(messageId, chatId, text, soFar) {
      const piece = soFar ? text.slice(state(messageId, chatId).accumulator.text().length) : text;
      if (piece) add(messageId, chatId, { type: 'response.output_text.delta', delta: piece });
    },
    setStored(messageId, chatId, message) {
      const entry = state(messageId, chatId);
      if (typeof message.model === 'string') entry.model = message.model;
      if (Array.isArray(message.sources)) keepLast(stored.set(messageId, { sources: message.sources }), MAX_MESSAGES);
      else stored.delete(messageId);
      // The app reloads a chat while an answer may still stream: a stored copy can be older
      // than what this page already saw, and is finished only when Open WebUI says so.
      const text = messageText(message);
      if (text !== undefined && text.length >= entry.content.length) entry.content = text;
      entry.done ||= message.done !== false;
      changed(entry);
    },
    finish(messageId, content) {
      const entry = messages.get(messageId);
      if (!entry) return;
      if (content !== undefined) entry.content = content;
      entry.done = true;
      changed(entry);
    },
    unread(messageId) {
      const entry = state(messageId, null);
      entry.unread = entry.live = true;
      changed(entry);
    },
    asked(messageId, model) {
      const entry = state(messageId, null);
      entry.asked = true;
      if (model) entry.model = model;
    },
    reconnected() {
      for (const entry of messages.values()) {
        if (!entry.done && (entry.asked || entry.live)) entry.interrupted = entry.live = true;
      }
    },
    settle(messageId) {
      const entry = messages.get(messageId);
      if (!entry?.done) return;
      const parsed = parsedStreams.get(messageId);
      const current = parsed && parsed.adds === adds.get(messageId) && readsWith(parsed, messageId);
      const result = current ? parsed.result : entry.accumulator.result();
      entry.accumulator = settledAccumulator(result, entry.content ? '' : entry.accumulator.text()); // the text once
    },
    citations,
    view(messageId) {
      const entry = messages.get(messageId);
      if (!entry) return undefined;
      const text = entry.content || entry.accumulator.text();
      // Parsed when read: the observer asks for a view at every streamed token, to learn only done and live.
      return {
        messageId,
        get citations() {
          return citations(messageId).citations;
        },
        *readCitations(stepUnits) {
          return (yield* citationSteps(messageId, stepBudget(stepUnits))).citations;
        },
        get unreadable() {
          if (!entry.done) return false;
          const read = citations(messageId);
          return read.citations.length === 0 && (entry.unread || read.unreadable !== undefined);
        },
        get interrupted() {
          return entry.done && entry.interrupted && citations(messageId).citations.length === 0;
        },
        text,
        done: entry.done,
        live: entry.live,
      };
    },
    ids: () => [...messages.keys()],
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onRead(listener) {
      readListeners.add(listener);
      return () => readListeners.delete(listener);
    },
  };
}
