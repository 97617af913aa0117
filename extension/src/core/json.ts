/** Typed reads of untrusted JSON: each returns a value of the asked type or a safe default. */

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const obj = (value: unknown): JsonObject | null => (isObject(value) ? value : null);

export const arr = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

export const objects = (value: unknown): JsonObject[] => arr(value).filter(isObject);

/** A non-empty string after trimming, else null. */
export const str = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

export const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

export const int = (value: unknown): number | null => {
  const n = typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : num(value);
  return n !== null && Number.isSafeInteger(n) ? n : null;
};

/** The first choice of a chat completion body or chunk. */
export const firstChoice = (payload: JsonObject): JsonObject | null => obj(arr(payload.choices)[0]);

/** JSON that travels inside a string (OpenRAG's `extra`). Never throws. */
export function parseJsonString(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** A list that takes each value once, by its JSON text: proxies repeat what they relay. */
export function distinctList(): { values: unknown[]; add(more: unknown[]): void } {
  const seen = new Set<string>();
  const values: unknown[] = [];
  return {
    values,
    add(more) {
      for (const value of more) {
        const key = JSON.stringify(value);
        if (seen.has(key)) continue;
        seen.add(key);
        values.push(value);
      }
    },
  };
}
