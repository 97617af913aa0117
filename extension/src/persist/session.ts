/**
 * Whose session the page holds: the `id` claim of Open WebUI's session token, a JWT it keeps
 * in localStorage (utils/auth.py, `create_token(data={'id': user.id})`). Read, not verified:
 * Open WebUI verifies the token at every request; here it only tells whose pending sources
 * may be sent with it (outbox.ts) and whose chats are theirs (openwebui.ts).
 */

import { isId } from '../ids.js';

// A session token is a few hundred characters: anything far larger is not one.
const MAX_TOKEN_CHARS = 8192;

/** The session token Open WebUI keeps for the page (its localStorage `token`). */
export const pageToken = (): string | null => localStorage.getItem('token');

export function userOfToken(token: unknown): string | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  try {
    const claims: unknown = JSON.parse(atob(parts[1]!.replaceAll('-', '+').replaceAll('_', '/')));
    const id = (claims as { id?: unknown } | null)?.id;
    return isId(id) ? id : null;
  } catch {
    return null;
  }
}
