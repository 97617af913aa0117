"""Records how the installed Open WebUI draws each scenario's answer, for the linkers' DOM tests
(extension/src/ui/markup.test.ts): the answer's element as Open WebUI leaves it with the
extension's UI turned off (`owc:fault`), and what the extension's hub holds of it (its view: text,
done; not the citations, which the tests read with today's core), once live after the extension stored
its sources and once after a reload.
Streamed and not, for every scenario with a `seen.json` entry (producers/<name>/) that the line
shows (devstack/limits.py).

Run `make record-markup` (the pinned line) or `make record-markup OWUI_VERSION=0.6.43` after
changing the line or a scenario: it writes extension/test-support/markup/open-webui-<version>.json.

With `--corpus` (`make record-markup-corpus`), instead: every backend of the unnamed corpus that the
mock serves (mock_server/corpus.py, whatever directories it loads), in each mode its file answers
in, the relay filter registered, for the contract test of the UI and the core over all of it
(extension/src/ui/corpus-markup.test.ts): extension/test-support/markup/unnamed/open-webui-<version>.json.

With `--hostile` (`make record-markup-hostile`), instead: every producer's hostile twin
(producers/<name>/hostile.yaml) in the mode its file asks for, for the trap on Open WebUI's markup
(extension/src/ui/hostile-markup.test.ts): extension/test-support/markup/hostile/open-webui-<version>.json.
"""

import argparse
import json
import signal
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import sync_playwright

from devstack.browser import chromium_launch_args
from devstack.delivery import install_extension
from devstack.delivery import installer
from devstack.limits import first_token_delay_ms
from devstack.limits import gap_for
from devstack.owui import ANSWERS
from devstack.owui import ASSISTANT
from devstack.owui import chat_id
from devstack.owui import installed_version
from devstack.owui import message_selector
from devstack.owui import open_new_chat
from devstack.owui import open_webui_version
from devstack.owui import send
from devstack.owui import set_user_settings
from devstack.owui import wait_until_stored
from devstack.processes import ROOT
from devstack.stack import OWUI_VENV
from devstack.stack import Stack
from devstack.stack import running_stack
from mock_server.corpus import DEFAULT_CORPUS_DIRS
from mock_server.corpus import Backend
from mock_server.corpus import load_corpus
from mock_server.registry import HOSTILE
from mock_server.registry import load_scenarios
from mock_server.registry import producer_entries
from mock_server.routers.ollama import TAG
from scripts.unnamed_recall import read_corpus

OUT = ROOT / "extension" / "test-support" / "markup"
CORPUS_OUT = OUT / "unnamed"
HOSTILE_OUT = OUT / "hostile"
# Open WebUI redraws an answer once its stored sources reach it; what it drew is read after that.
REDRAWN_S = 1.5
STORED_TIMEOUT_S = 15

# The answer's element, its icons emptied (they are most of its size and no linker reads them), and
# the hub's view of it.
CAPTURE = """id => {
  const copy = document.getElementById(`message-${id}`).cloneNode(true);
  copy.querySelectorAll('svg').forEach((svg) => svg.replaceChildren());
  return { html: copy.outerHTML, view: window.owuiCitations.view(id) };
}"""


def finished_answer(page: Page) -> str:
    """The new chat's answer, once the extension read it whole: Open WebUI 0.6 never finishes some
    (Mistral's body, a content list: no toolbar, its stop button stays) that it shows all the same."""
    newest = f"{ANSWERS}.at(-1)?.id.slice('message-'.length)"
    page.wait_for_function(f"() => window.owuiCitations.view({newest} ?? '')?.done", timeout=60_000)
    return page.evaluate(f"() => {newest}")


def capture(page: Page, answer: str, cited: bool = True) -> dict:
    """What Open WebUI drew of the answer and the hub's view of it, once finished (and, if `cited`, once the
    hub holds its sources: after a reload they come with the stored chat)."""
    page.wait_for_function(
        "([id, cited]) => { const view = window.owuiCitations.view(id); "
        "return view?.done && (!cited || view.citations.length); }",
        arg=[answer, cited],
    )
    time.sleep(REDRAWN_S)
    return page.evaluate(CAPTURE, answer)


# The hub's reading of the answer, which the tests make again with today's core.
READ_BY_THE_CORE = {"citations", "unreadable", "interrupted"}


def drawn(entry: dict) -> dict:
    """What the page drew and held of a scenario's answer, not the citations the extension read in it: the
    tests read those from the mock's answer with today's core (extension/test-support/core-reads.ts)."""
    view = {key: value for key, value in entry["view"].items() if key not in READ_BY_THE_CORE}
    return {**entry, "view": view}


def record(page: Page, stack: Stack) -> list[dict]:
    version = open_webui_version(stack)
    answers = []
    for model in sorted(producer_entries("seen.json")):
        for stream in (True, False):
            if gap_for(model, stream, version):
                continue
            mode = "streaming" if stream else "non-streaming"
            try:
                answers += [drawn(entry) for entry in record_one(page, stack, model, stream)]
                print(f"{model} {mode}: recorded", flush=True)
            except PlaywrightTimeoutError as error:  # the coverage test names it (test_citations.py)
                print(f"{model} {mode}: NOT RECORDED, {error.message.splitlines()[0]}", flush=True)
    return answers


def record_hostile(page: Page, stack: Stack) -> list[dict]:
    """Each producer's hostile twin, in the mode its file asks for (`hostile: stream`), that the line shows."""
    version = open_webui_version(stack)
    answers = []
    for model, scenario in sorted(load_scenarios([HOSTILE]).items()):
        if scenario.hostile is None:
            continue
        stream = scenario.hostile.stream
        mode = "streaming" if stream else "non-streaming"
        if gap_for(model, stream, version):
            print(f"{model} {mode}: not shown by this line", flush=True)
            continue
        try:
            answers += [drawn(entry) for entry in record_one(page, stack, model, stream)]
            print(f"{model} {mode}: recorded", flush=True)
        except PlaywrightTimeoutError as error:  # the hostile markup test names it
            print(f"{model} {mode}: NOT RECORDED, {error.message.splitlines()[0]}", flush=True)
    return answers


def record_corpus(page: Page, stack: Stack) -> list[dict]:
    """Each corpus backend the mock serves, in each mode its file answers in, its answer whether or not the
    core finds sources in it. Open WebUI asks an Ollama model on /api/chat only: a backend that speaks
    /api/generate alone never answers it."""
    # As the recall harness reads them (scripts/unnamed_recall.py): with the relay filter, without which
    # Open WebUI drops every field but the text of a streamed chunk that carries text.
    installer(stack, "relay-install", "--url", stack.webui_url)
    answers = []
    backends = load_corpus(list(DEFAULT_CORPUS_DIRS))
    for backend in backends:
        if backend.api == "ollama-generate":
            print(f"{backend.model_id}: NOT RECORDED, Open WebUI never asks /api/generate", flush=True)
            continue
        model = backend.model_id + TAG if backend.ollama else backend.model_id
        for stream, sent in ((True, backend.streamed), (False, backend.non_streamed)):
            mode = "streaming" if stream else "non-streaming"
            if sent is None:
                continue
            try:
                recorded = record_one(page, stack, model, stream, cited=None)
                answers += [{"backend": backend.slug, **entry} for entry in recorded]
                print(f"{model} {mode}: recorded, {len(recorded[0]['view']['citations'])} sources", flush=True)
            except PlaywrightTimeoutError as error:
                print(f"{model} {mode}: NOT RECORDED, {error.message.splitlines()[0]}", flush=True)
    for difference in not_as_the_harness_reads(backends, answers):
        print(f"NOT AS THE HARNESS READS: {difference}", flush=True)
    return answers


def not_as_the_harness_reads(backends: list[Backend], answers: list[dict]) -> list[str]:
    """Where the page's hub holds other sources (number, title) than the recall harness reads of the same
    file and mode: what reached the page is not what the backend sent (the contract test checks only
    that the page shows what reached it)."""
    reads, _ = read_corpus(backends)
    harness = {
        (b.slug, mode == "streamed"): [[c["index"], c["title"]] for c in read["citations"]] for b, mode, read in reads
    }
    differences = []
    for answer in answers:
        page = [[c["index"], c["title"]] for c in answer["view"]["citations"]]
        read = harness[(answer["backend"], answer["stream"])]
        if page != read:
            mode = "streaming" if answer["stream"] else "non-streaming"
            differences.append(
                f"{answer['backend']} {mode} {answer['phase']}: the page holds {page}, the harness reads {read}"
            )
    return differences


def record_one(page: Page, stack: Stack, model: str, stream: bool, cited: bool | None = True) -> list[dict]:
    """The answer live and after a reload; `cited=None`: as cited as the hub found it live."""
    set_user_settings(stack, stream=stream)
    open_new_chat(page, stack, model)
    send(page)
    answer = finished_answer(page)
    if cited is None:
        cited = bool(page.evaluate("id => window.owuiCitations.view(id).citations.length", answer))
    if cited:
        wait_until_stored(page, stack, chat_id(page), [answer], STORED_TIMEOUT_S)  # or Open WebUI's own were there
    live = capture(page, answer, cited)
    page.reload()
    page.wait_for_selector(f"{message_selector(answer)} {ASSISTANT}", timeout=60_000)
    reloaded = capture(page, answer, cited)
    return [
        {"model": model, "stream": stream, "phase": phase, **captured}
        for phase, captured in (("live", live), ("reloaded", reloaded))
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--corpus", action="store_true", help="the unnamed corpus's backends, not the scenarios")
    which.add_argument("--hostile", action="store_true", help="the producers' hostile twins, not the scenarios")
    args = parser.parse_args()
    # Stopped (a timeout, Ctrl-C's kin), it stops what it started: the stack's block ends on an exception.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    version = installed_version(OWUI_VENV)
    install_extension()
    with (
        tempfile.TemporaryDirectory() as workdir,
        running_stack(
            Path(workdir),
            scenario_dirs=[HOSTILE] if args.hostile else [],
            first_token_delay_ms=first_token_delay_ms(version),
        ) as stack,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(**chromium_launch_args())
        context = browser.new_context()
        context.add_init_script("localStorage.setItem('owc:fault', 'ui')")  # Open WebUI's view, with capture and store
        recorder = record_corpus if args.corpus else record_hostile if args.hostile else record
        answers = recorder(context.new_page(), stack)
        browser.close()
    out = CORPUS_OUT if args.corpus else HOSTILE_OUT if args.hostile else OUT
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"open-webui-{'.'.join(map(str, version))}.json"
    path.write_text(json.dumps({"openWebui": version, "answers": answers}, ensure_ascii=False, indent=1) + "\n")
    print(f"{path.relative_to(ROOT)}: {len(answers)} answers")


if __name__ == "__main__":
    main()
