/**
 * Stores captured citations on their message, exactly once: after the answer is finished,
 * under a lock shared by every tab of this browser (Web Locks), and only when the stored
 * chat does not hold them yet. Never for temporary chats, nor for sources Open WebUI stored
 * itself (its RAG, web search).
 */

import type { Hub, MessageState } from '../capture/hub.js';
import { fail, guard } from '../guard.js';
import { hasStoredCitations, toNativeSource } from './shape.js';

const isTemporary = (chatId: string): boolean => chatId.startsWith('local:') || chatId === 'local';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface StoredMessage {
  content?: unknown;
  sources?: unknown;
}

export function startStore(hub: Hub, fetch: typeof window.fetch): void {
  const started = new Set<string>();
  const headers = (): Record<string, string> => ({
    'Content-Type': 'application/json',
    Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
  });

  async function storedMessage(chatId: string, messageId: string): Promise<StoredMessage | null> {
    const response = await fetch(`/api/v1/chats/${chatId}`, { headers: headers() });
    if (!response.ok) return null;
    const chat = await response.json();
    return chat?.chat?.history?.messages?.[messageId] ?? null;
  }

  async function store(state: MessageState): Promise<void> {
    const chatId = state.chatId!;
    const { citations } = hub.citations(state.messageId);
    const body = JSON.stringify({ type: 'source', data: toNativeSource(citations) });
    const work = async (): Promise<void> => {
      let posts = 0;
      for (let attempt = 0; attempt < 20; attempt++) {
        const message = await storedMessage(chatId, state.messageId);
        if (message && hasStoredCitations(message.sources)) return; // stored: by us, or by another tab
        // Open WebUI saves the finished message a moment after announcing it: wait for it.
        if (message && typeof message.content === 'string' && message.content !== '') {
          // Open WebUI appends each source read-modify-write: one written at the same moment
          // (its own url_citation sources) can erase ours. Check again once the writes settle.
          if (posts === 3) return;
          posts++;
          await fetch(`/api/v1/chats/${chatId}/messages/${state.messageId}/event`, { method: 'POST', headers: headers(), body });
          await pause(1000);
          continue;
        }
        await pause(250);
      }
    };
    if (navigator.locks) await navigator.locks.request(`owui-citations:store:${state.messageId}`, work);
    else await work();
  }

  hub.subscribe(guard('persist', (state: MessageState) => {
    if (!state.done || !state.chatId || isTemporary(state.chatId) || started.has(state.messageId)) return;
    const { format, citations } = hub.citations(state.messageId);
    if (!format || format === 'open-webui' || citations.length === 0) return;
    started.add(state.messageId);
    void store(state).catch((error: unknown) => fail('persist', error));
  }));
}
