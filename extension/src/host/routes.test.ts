import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  chatIdOfPage,
  chatIdOfPath,
  chatPath,
  isDirectCompletionsPath,
  isStoredChatPath,
  messageEventPath,
} from './routes.js';

const CHAT = '0ed4628a-a39c-4895-84d9-82550d3420fc';

test("a shared link's chat is read as a stored chat, as the chat's own; other chat paths are not", () => {
  assert.ok(isStoredChatPath(`/api/v1/chats/${CHAT}`));
  assert.ok(isStoredChatPath(`/api/v1/chats/share/${CHAT}`));
  for (const path of [`/api/v1/chats/share/${CHAT}/x`, `/api/v1/chats/${CHAT}/share`, '/api/v1/chats/share/x'])
    assert.equal(isStoredChatPath(path), false, path);
});

test("a chat's page and its API path name it; Open WebUI's other pages and chat lists name none", () => {
  assert.equal(chatIdOfPage(`/c/${CHAT}`), CHAT);
  assert.equal(chatIdOfPath(`/api/v1/chats/${CHAT}`), CHAT);
  for (const path of ['/c/list', `/c/${CHAT}/x`, `/s/${CHAT}`, '/c/../admin', '/'])
    assert.equal(chatIdOfPage(path), null, path);
  for (const path of ['/api/v1/chats/pinned', '/api/v1/chats/list', `/api/v1/chats/${CHAT}/tags`])
    assert.equal(chatIdOfPath(path), null, path);
});

test('an id never leaves its path segment, whoever builds the path', () => {
  assert.equal(chatPath('../auths'), '/api/v1/chats/..%2Fauths');
  assert.equal(messageEventPath('a/b', '?x#y'), '/api/v1/chats/a%2Fb/messages/%3Fx%23y/event');
});

test("a direct connection's request is the page's own to an upstream, never Open WebUI's API", () => {
  assert.ok(isDirectCompletionsPath('/v1/chat/completions'));
  assert.ok(isDirectCompletionsPath('/chat/completions'));
  for (const path of ['/api/chat/completions', '/api/v1/chat/completions', '/v1/chat/completed'])
    assert.equal(isDirectCompletionsPath(path), false, path);
});
