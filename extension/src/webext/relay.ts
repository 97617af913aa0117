/**
 * The browser extension's relay, a content script in the extension's isolated world beside the
 * bundle (which runs in the page's world, where no extension API is): the bundle asks for a part
 * by name with an event on the document; the relay asks the background to run it in this frame
 * and answers with an event, `<name>` once it ran or `!<name>`. A page script can send the same
 * event: it gets the extension's own part run, the one the bundle would ask for (the background
 * runs only the build's parts, patterns.ts requestedPart).
 */

/// <reference types="chrome" />

import { PART_ANSWER, PART_REQUEST } from '../parts/loader.js';
import { api } from './api.js';

const answer = (detail: string): void => void document.dispatchEvent(new CustomEvent(PART_ANSWER, { detail }));

document.addEventListener(PART_REQUEST, (event) => {
  const name = (event as CustomEvent<unknown>).detail;
  if (typeof name !== 'string') return;
  api.runtime.sendMessage({ part: name }).then(
    (ran: unknown) => answer(ran === true ? name : `!${name}`),
    () => answer(`!${name}`), // the extension was reloaded or removed: this page's relay is cut off
  );
});
