/** The extension's CSS (ui/styles.css, minified into the bundle by build.mjs). */

declare const STYLES: string;

export function injectStyles(): void {
  if (document.getElementById('owc-styles')) return;
  const style = document.createElement('style');
  style.id = 'owc-styles';
  style.textContent = STYLES;
  document.head.append(style);
}
