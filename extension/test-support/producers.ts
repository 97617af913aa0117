/** The named producers' data (producers/<name>/, docs/contributing.md): each folder's file of one
 * name, merged into one entry per scenario (a folder's scenario and its variants). */

import { existsSync, readdirSync, readFileSync } from 'node:fs';

const PRODUCERS = new URL('../../producers/', import.meta.url);

export function producerEntries<T>(file: 'expected.json' | 'seen.json'): Record<string, T> {
  const entries: Record<string, T> = {};
  for (const folder of readdirSync(PRODUCERS, { withFileTypes: true })) {
    const path = new URL(`${folder.name}/${file}`, PRODUCERS);
    if (folder.isDirectory() && existsSync(path)) Object.assign(entries, JSON.parse(readFileSync(path, 'utf8')));
  }
  return entries;
}
