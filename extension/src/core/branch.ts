/**
 * The branch of a stored chat that Open WebUI shows. A chat is a tree: each message names its
 * parent, and a regenerated answer or an edited question is a sibling of the one it replaces.
 * Open WebUI draws the path from the first message down to its current message, which "<" and
 * ">" change in the page without saving it: the stored `currentId` may name another branch
 * than the one on screen. The last message drawn is the one shown, so the branch ends there.
 * Ids, keys and parent links are a chat's data: they may name nothing, loop or run on.
 */

/** The longest branch followed: a crafted chat's parent links may run on. */
export const MAX_BRANCH = 5_000;

type Messages = Readonly<Record<string, unknown>>;

const isMessageOf = (messages: Messages, id: unknown): id is string =>
  typeof id === 'string' && Object.hasOwn(messages, id) && typeof messages[id] === 'object' && messages[id] !== null;

const parentOf = (message: unknown): unknown => (message as { parentId?: unknown }).parentId;

/** The ids from the chat's first message down to `leaf`, oldest first (its last `MAX_BRANCH`
 * on a longer or looping chain); none when `leaf` is no message of the chat. */
export function pathTo(messages: Messages, leaf: unknown): string[] {
  const path: string[] = [];
  const seen = new Set<string>();
  for (let id = leaf; isMessageOf(messages, id) && !seen.has(id) && path.length < MAX_BRANCH; ) {
    seen.add(id);
    path.push(id);
    id = parentOf(messages[id]);
  }
  return path.reverse();
}

/** The branch on screen: up to the last of the `drawn` messages (as the page draws them, in
 * order) that the chat holds; when it holds none of them, up to its `currentId`. */
export function shownBranch(messages: Messages, drawn: readonly unknown[], currentId: unknown): string[] {
  const leaf = drawn.findLast((id) => isMessageOf(messages, id));
  return pathTo(messages, leaf ?? currentId);
}
