/**
 * The options page: the user adds an Open WebUI address (the browser asks to grant that origin)
 * or removes one; the background registers the bundle for whatever is granted.
 */

/// <reference types="chrome" />

import { api } from './api.js';
import { originPattern, pagePatterns, patternLabel, wildcardGrants } from './patterns.js';

// Firefox's match patterns have no port (a pattern covers every port of its host); Chromium's do.
const keepPort = !location.protocol.startsWith('moz-');
// Granted by the manifest itself (the test build's): the browser refuses to remove them.
const fromManifest = new Set(api.runtime.getManifest().host_permissions ?? []);

const form = element<HTMLFormElement>('add');
const address = element<HTMLInputElement>('address');
const status = element<HTMLParagraphElement>('status');
const sites = element<HTMLUListElement>('sites');
const none = element<HTMLParagraphElement>('none');
const wildcards = element<HTMLParagraphElement>('wildcards');

form.addEventListener('submit', (event) => {
  event.preventDefault();
  const pattern = originPattern(address.value, keepPort);
  if (!pattern) {
    say(
      address.value.includes('*')
        ? 'Enter one site, without *: the extension runs only on the sites named here.'
        : 'Enter an address that starts with http:// or https://, ' +
            'such as https://chat.example.com or http://localhost:3000.',
    );
    return;
  }
  const portDropped = pattern !== originPattern(address.value, true);
  say(`Asking the browser for access to ${patternLabel(pattern)}…`);
  // Asked at once, not after an await: the browser shows its prompt only during the click.
  api.permissions.request({ origins: [pattern] }).then(
    (granted) => {
      if (!granted) return say(`${patternLabel(pattern)} was not added: the permission was declined.`);
      address.value = '';
      say(
        `Added ${patternLabel(pattern)}. Reload its Open WebUI tab.` +
          (portDropped ? ' Firefox ignores ports: the extension runs on every port of this host.' : ''),
      );
    },
    (error: unknown) => say(`${patternLabel(pattern)} was not added: ${String(error)}`),
  );
});

function siteItem(pattern: string): HTMLLIElement {
  const item = document.createElement('li');
  const name = document.createElement('code');
  name.textContent = patternLabel(pattern);
  item.append(name);
  if (fromManifest.has(pattern)) {
    const note = document.createElement('span');
    note.className = 'note';
    note.textContent = 'granted at install';
    item.append(note);
    return item;
  }
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.textContent = 'Remove';
  remove.setAttribute('aria-label', `Remove ${patternLabel(pattern)}`);
  remove.addEventListener('click', () => {
    api.permissions.remove({ origins: [pattern] }).then(
      (removed) =>
        say(
          removed
            ? `Removed ${patternLabel(pattern)}. Reload its Open WebUI tab.`
            : `${patternLabel(pattern)} could not be removed.`,
        ),
      (error: unknown) => say(`${patternLabel(pattern)} could not be removed: ${String(error)}`),
    );
  });
  item.append(remove);
  return item;
}

async function showSites(): Promise<void> {
  const { origins } = await api.permissions.getAll();
  const patterns = pagePatterns(origins);
  sites.replaceChildren(...patterns.map(siteItem));
  none.hidden = patterns.length > 0;
  // Granted in the browser's own UI ("all websites"), never by this page: not used (pagePatterns).
  wildcards.hidden = wildcardGrants(origins).length === 0;
}

function say(text: string): void {
  status.textContent = text;
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`options.html has no #${id}`);
  return found as T;
}

// Grants change here, in the browser's site-access menu, or in another tab of this page.
api.permissions.onAdded.addListener(() => void showSites());
api.permissions.onRemoved.addListener(() => void showSites());
void showSites();
