/** The extension's CSS: static text, follows Open WebUI's light/dark theme (html.dark). */

const CSS = `
.owc-cite{display:inline-flex;align-items:center;justify-content:center;min-width:1.35em;height:1.35em;margin:0 .1em;padding:0 .3em;border:0;border-radius:.45em;font:600 .7em/1 ui-sans-serif,system-ui,sans-serif;vertical-align:.35em;cursor:pointer;background:#e8eefc;color:#1d3f8f}
.owc-cite:hover,.owc-cite:focus-visible{background:#c9d8fb;outline:2px solid #4c7bf0;outline-offset:1px}
.dark .owc-cite{background:#23324f;color:#c7d6ff}.dark .owc-cite:hover,.dark .owc-cite:focus-visible{background:#31466f}
.owc-hidden{display:none!important}
.owc-sources,.owc-retrieved{margin:.5rem 0 .25rem;font-size:.8125rem;color:#374151}.dark .owc-sources,.dark .owc-retrieved{color:#d1d5db}
.owc-sources-head{display:flex;align-items:center;gap:.25rem;margin:0 0 .25rem}
.owc-sources-title{margin-right:auto;font-weight:600;font-size:.75rem;text-transform:uppercase;letter-spacing:.04em;color:#4b5563}.dark .owc-sources-title{color:#9ca3af}
.owc-sources ol,.owc-retrieved ol{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:.15rem}
.owc-source{display:flex;gap:.5rem;align-items:baseline;width:100%;max-width:100%;padding:.2rem .35rem;border:0;border-radius:.5rem;background:transparent;color:inherit;text-align:left;cursor:pointer;font:inherit}
.owc-source:hover,.owc-source:focus-visible{background:#f3f4f6;outline:none}.dark .owc-source:hover,.dark .owc-source:focus-visible{background:#1f2937}
.owc-source-number{flex:none;min-width:1.4em;font-weight:600;color:#1d3f8f}.dark .owc-source-number{color:#9db7ff}
.owc-source-title{flex:1 1 auto;min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.owc-source-meta{flex:none;color:#4b5563;font-size:.75rem;max-width:40%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}.dark .owc-source-meta{color:#9ca3af}
.owc-more,.owc-copy-all,.owc-settings-toggle,.owc-retrieved summary{padding:.15rem .35rem;border:0;border-radius:.4rem;background:none;color:#2954c4;cursor:pointer;font:inherit;font-size:.75rem}
.dark .owc-more,.dark .owc-copy-all,.dark .owc-settings-toggle,.dark .owc-retrieved summary{color:#9db7ff}
.owc-more,.owc-copy-all,.owc-settings-toggle,.owc-retrieved summary{min-height:24px;min-width:24px}.owc-more{margin-top:.2rem}.owc-settings-toggle{font-size:.9rem;line-height:1}
.owc-more:focus-visible,.owc-copy-all:focus-visible,.owc-settings-toggle:focus-visible,.owc-retrieved summary:focus-visible,.owc-source:focus-visible,.owc-settings :focus-visible{outline:2px solid #4c7bf0;outline-offset:1px}
.owc-settings:not([hidden]){display:flex;flex-direction:column;gap:.3rem;margin:0 0 .4rem;padding:.5rem .6rem;border-radius:.5rem;background:#f3f4f6;font-size:.75rem}.dark .owc-settings{background:#1f2937}
.owc-settings select{font:inherit;color:inherit;background:transparent;border:1px solid #6b7280;border-radius:.3rem;padding:0 .2rem}.dark .owc-settings option{background:#1f2937}
.owc-retrieved summary{width:fit-content;list-style-position:inside}
.owc-preview{position:fixed;z-index:9999;max-width:min(22rem,calc(100vw - 1rem));padding:.6rem .75rem;border-radius:.6rem;background:#fff;color:#111827;box-shadow:0 6px 24px rgba(0,0,0,.18);font:400 .8125rem/1.4 ui-sans-serif,system-ui,sans-serif;pointer-events:none}
.dark .owc-preview{background:#1f2937;color:#f3f4f6;box-shadow:0 6px 24px rgba(0,0,0,.5)}
.owc-preview-title{font-weight:600;margin-bottom:.15rem;overflow-wrap:anywhere}
.owc-preview-meta{color:#6b7280;font-size:.75rem;margin-bottom:.25rem}.dark .owc-preview-meta{color:#9ca3af}
.owc-preview-snippet{display:-webkit-box;-webkit-line-clamp:4;-webkit-box-orient:vertical;overflow:hidden;overflow-wrap:anywhere}
.owc-backdrop{position:fixed;inset:0;z-index:9998;background:rgba(0,0,0,.45);display:flex;align-items:center;justify-content:center;padding:.75rem}
.owc-modal{width:min(40rem,100%);max-height:calc(100vh - 1.5rem);overflow:auto;border-radius:.9rem;background:#fff;color:#111827;padding:1rem 1.1rem;box-shadow:0 12px 40px rgba(0,0,0,.3);font:400 .875rem/1.5 ui-sans-serif,system-ui,sans-serif}
.dark .owc-modal{background:#111827;color:#f3f4f6}
.owc-modal-head{display:flex;gap:.5rem;align-items:flex-start}
.owc-title{flex:1;margin:0;font-size:1.05rem;font-weight:600;overflow-wrap:anywhere}
.owc-modal button{font:inherit;cursor:pointer;border:0;border-radius:.5rem;padding:.3rem .6rem;background:#f3f4f6;color:inherit}.dark .owc-modal button{background:#1f2937}
.owc-modal button:focus-visible,.owc-link:focus-visible{outline:2px solid #4c7bf0;outline-offset:1px}
.owc-facts{display:flex;flex-wrap:wrap;gap:.35rem .9rem;margin:.35rem 0 .6rem;color:#4b5563;font-size:.8125rem}.dark .owc-facts{color:#9ca3af}
.owc-link{color:#2954c4;overflow-wrap:anywhere}.dark .owc-link{color:#9db7ff}
.owc-snippet{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;padding:.6rem .7rem;border-radius:.6rem;background:#f9fafb;max-height:50vh;overflow:auto}.dark .owc-snippet{background:#0b1220}
mark.owc-quote{background:#fde68a;color:inherit;border-radius:.2rem;padding:0 .1rem}.dark mark.owc-quote{background:#854d0e}
.owc-not-verbatim{margin:.5rem 0 0;padding:.4rem .6rem;border-radius:.5rem;background:#fef3c7;color:#78350f}.dark .owc-not-verbatim{background:#422006;color:#fde68a}
.owc-modal-foot{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin-top:.8rem}.owc-position{margin-right:auto;color:#4b5563;font-size:.8125rem}.dark .owc-position{color:#9ca3af}
@media (max-width:480px){.owc-source-meta{display:none}.owc-modal{padding:.8rem}}
`;

export function injectStyles(): void {
  if (document.getElementById('owc-styles')) return;
  const style = document.createElement('style');
  style.id = 'owc-styles';
  style.textContent = CSS;
  document.head.append(style);
}
