/**
 * Open WebUI's addresses: the pages the extension runs on, the API requests of the page it follows,
 * and the few it makes itself. Chat ids in them are Open WebUI's UUIDs: a path segment shaped
 * otherwise (`/api/v1/chats/list`, `…/pinned`) names no chat.
 */

// The patterns below are built from these constants only, never from data.
const CHAT_ID = '([0-9a-f-]{36})';

/** A chat's page, `/c/<id>`. */
const CHAT_PAGE = new RegExp(`^/c/${CHAT_ID}$`);
/** A chat's own API path, read with GET and written back whole with POST by the page. */
const CHAT_PATH = new RegExp(`^/api/v1/chats/${CHAT_ID}$`);
/** What a shared link's page (`/s/<id>`) reads: the share's snapshot, or, for an admin, any chat by its id. */
const SHARED_CHAT_PATH = new RegExp(`^/api/v1/chats/share/${CHAT_ID}$`);
const SIGN_IN_PATH = /^\/api\/v1\/auths\/(signin|signup|ldap)$/;

/** The page asks for an answer (its body names the model and the answer's message id). */
export const COMPLETIONS_PATH = '/api/chat/completions';
/** The page closes an answer (its body names the chat). */
export const COMPLETED_PATH = '/api/chat/completed';
/** The signed-in user's session: who the page's token belongs to. */
export const SESSION_PATH = '/api/v1/auths/';
/** The admin's declared backends, which `owui-citations install --backends FILE` puts in the
 * frontend's `static/` (installer.BACKENDS); Open WebUI copies that directory into its STATIC_DIR
 * at every start and serves it at `/static/` (config.py, main.py). */
export const ADMIN_DECLARATIONS_PATH = '/static/owc-backends.json';

/** The chat a page shows, from its path (`/c/<id>`), or null. */
export const chatIdOfPage = (pathname: string): string | null => CHAT_PAGE.exec(pathname)?.[1] ?? null;

/** The chat of a chat's own API path, or null. */
export const chatIdOfPath = (path: string): string | null => CHAT_PATH.exec(path)?.[1] ?? null;

/** Whether a GET of `path` answers with a stored chat: the chat's own path, or a shared link's. */
export const isStoredChatPath = (path: string): boolean => CHAT_PATH.test(path) || SHARED_CHAT_PATH.test(path);

/** Whether `path` signs a user in (the page then keeps its new token). */
export const isSignInPath = (path: string): boolean => SIGN_IN_PATH.test(path);

/** A request of the page to a user's direct connection: an OpenAI-compatible upstream's
 * `…/chat/completions`, asked by the page itself (Open WebUI's own API is under `/api/`). */
export const isDirectCompletionsPath = (path: string): boolean =>
  path.endsWith('/chat/completions') && !path.startsWith('/api/');

/** A chat's own path. Ids are a chat's data: checked by the caller (ids.ts), and encoded here too,
 * so that no id can reach another path whoever calls this. */
export const chatPath = (chatId: string): string => `/api/v1/chats/${encodeURIComponent(chatId)}`;

/** Where an event of a chat's message is stored; both ids encoded, as in chatPath. */
export const messageEventPath = (chatId: string, messageId: string): string =>
  `${chatPath(chatId)}/messages/${encodeURIComponent(messageId)}/event`;
