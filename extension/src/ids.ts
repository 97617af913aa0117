/**
 * Chat and message ids are data from a chat (any key of `history.messages`, written by whoever
 * wrote the chat: a shared link cloned, a file imported, another user's chat an admin opens),
 * and they become parts of request paths. Only ids shaped like Open WebUI's own (UUIDs) pass:
 * letters, digits, `-` and `_`, so no `.`, `/`, `\`, `%`, `?` or `#` can reach a path.
 */

const ID = /^[A-Za-z0-9_-]{1,128}$/;

export const isId = (value: unknown): value is string => typeof value === 'string' && ID.test(value);
