"""The extension's share of the page's long animation frames (Long Animation Frames, by script URL)."""

from typing import Any

from playwright.sync_api import BrowserContext
from playwright.sync_api import Page

LONG_FRAMES = """(() => {
  window.__owcFrames = [];
  new PerformanceObserver((list) => {
    for (const frame of list.getEntries()) {
      // The socket's message handler is Open WebUI's, run inside our wrapper (which only hands it the packet
      // and queues the packet for a later task: capture/socket.test.ts): its time is Open WebUI's rendering.
      const ours = frame.scripts.filter((s) => s.sourceURL.includes('/static/loader.js')
                                               && s.invoker !== 'DOMWebSocket.onmessage');
      window.__owcFrames.push({ total: frame.duration, extension: ours.reduce((sum, s) => sum + s.duration, 0),
                                what: ours.map((s) => `${s.invoker} ${Math.round(s.duration)} ms`) });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
})();"""


def watch_long_frames(context: BrowserContext) -> None:
    """Every page of ``context`` keeps its long animation frames from its first script on."""
    context.add_init_script(LONG_FRAMES)


def forget_frames(page: Page) -> None:
    page.evaluate("() => { window.__owcFrames.length = 0; }")


def worst_extension_frame(page: Page) -> dict[str, Any]:
    """The frame with the most of the extension's own scripts since the last `forget_frames`."""
    frames = page.evaluate("() => window.__owcFrames")
    return max(frames, key=lambda frame: frame["extension"], default={"extension": 0, "total": 0, "what": []})
