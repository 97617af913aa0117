/**
 * Open WebUI's own view of the answers, given back when the UI module is turned off after an
 * error (guard.ts): our list, preview and modal go, what we hid shows again, and a numbered
 * button (or a muted number) reads as the plain `[N]` it replaced (or goes, where Open WebUI's own button returns).
 */

export function restoreOpenWebuiView(): void {
  document
    .querySelectorAll('.owc-sources, .owc-retrieved, .owc-preview, .owc-backdrop')
    .forEach((node) => node.remove());
  // In document order: a group's first button goes with what it stands for, and so, once it is
  // gone, does the next (a number that named no source likewise).
  for (const button of document.querySelectorAll<HTMLElement>('.owc-cite, .owc-unnamed')) {
    const standsForHidden = button.previousElementSibling?.classList.contains('owc-hidden') === true;
    if (standsForHidden || button.hasAttribute('data-owc-link')) button.remove();
    else button.replaceWith(`[${button.dataset.owcIndex ?? button.dataset.owcUnnamed ?? ''}]`);
  }
  document.querySelectorAll('.owc-hidden').forEach((node) => node.classList.remove('owc-hidden'));
}
