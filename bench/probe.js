// Benchmark probe, added to every page before Open WebUI's own scripts, with and without the
// extension alike, so that its small cost is the same on both sides. It records:
// - long tasks (PerformanceObserver 'longtask');
// - when each message's `done` socket frame (after its last token) arrived;
// - from then on: each change of that message's number of citation buttons, and each time
//   Open WebUI changed the message;
// - how many sockets the page opened (more than one: it lost its connection and made another).
(() => {
  const probe = { longtasks: [], doneAt: {}, citeChanges: {}, renders: {}, sockets: 0 };
  window.__owcBench = probe;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) probe.longtasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });

  // Open WebUI's message element, by id as devstack/owui.py `message_selector` names it (this file runs
  // before the page's scripts and reads no Python).
  const messageOf = (id) => document.getElementById(`message-${id}`);
  const citeCount = (id) => messageOf(id)?.querySelectorAll('.owc-cite').length ?? 0;
  // A batch of mutations adding one of the extension's elements is its pass; any other batch
  // that changes the message is Open WebUI rendering it.
  const byExtension = (records) =>
    records.some((record) =>
      [...record.addedNodes].some((node) => node instanceof Element && /(^|\s)owc-/.test(node.className)),
    );
  const watchCitations = (id) => {
    const changes = [{ at: performance.now(), count: citeCount(id) }];
    const renders = [];
    probe.citeChanges[id] = changes;
    probe.renders[id] = renders;
    const observer = new MutationObserver((records) => {
      const at = performance.now();
      const message = messageOf(id);
      if (!byExtension(records) && records.some((record) => message?.contains(record.target))) renders.push(at);
      const count = citeCount(id);
      if (count !== changes[changes.length - 1].count) changes.push({ at, count });
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true });
    setTimeout(() => observer.disconnect(), 5000);
  };

  const MESSAGE_ID = /"message_id":\s*"([^"]+)"/;
  const DONE = /"done":\s*true/;
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      probe.sockets++;
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        const id = MESSAGE_ID.exec(event.data)?.[1];
        if (id && !(id in probe.doneAt) && DONE.test(event.data)) {
          probe.doneAt[id] = performance.now();
          watchCitations(id);
        }
      });
    }
  };
})();
