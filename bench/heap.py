"""The extension's own retained heap, from a V8 heap snapshot: the bytes reachable from the
page's roots only through the extension's functions (closures whose code is the extension's
script), i.e. what would be freed if the extension's functions were gone. Objects the page
also holds (its DOM, Open WebUI's state, a socket the app opened through our hook) are not
counted; weak references retain nothing."""

import json
from typing import Any

from playwright.sync_api import CDPSession


def take_snapshot(cdp: CDPSession) -> dict[str, Any]:
    chunks: list[str] = []
    listener = lambda event: chunks.append(event["chunk"])  # noqa: E731
    cdp.on("HeapProfiler.addHeapSnapshotChunk", listener)
    try:
        cdp.send("HeapProfiler.collectGarbage")
        cdp.send("HeapProfiler.takeHeapSnapshot", {"reportProgress": False, "captureNumericValue": False})
    finally:
        cdp.remove_listener("HeapProfiler.addHeapSnapshotChunk", listener)
    return json.loads("".join(chunks))


def retained_through_script(snapshot: dict[str, Any], script_url_suffix: str | tuple[str, ...]) -> dict[str, int]:
    """Bytes reachable from the root only through closures of the scripts whose URL ends so (one
    ending, or any of several: the bundle's parts), by kind of object (its type, and its
    constructor's or code's name)."""
    meta = snapshot["snapshot"]["meta"]
    node_fields, edge_fields = meta["node_fields"], meta["edge_fields"]
    nf, ef = len(node_fields), len(edge_fields)
    type_at, name_at, size_at, count_at = (node_fields.index(f) for f in ("type", "name", "self_size", "edge_count"))
    to_at, edge_type_at = edge_fields.index("to_node"), edge_fields.index("type")
    node_types, edge_types = meta["node_types"][0], meta["edge_types"][0]
    nodes, edges, strings = snapshot["nodes"], snapshot["edges"], snapshot["strings"]
    count = len(nodes) // nf
    first_edge = [0] * (count + 1)
    for n in range(count):
        first_edge[n + 1] = first_edge[n] + nodes[n * nf + count_at] * ef
    weak = edge_types.index("weak")
    code, closure = node_types.index("code"), node_types.index("closure")

    def targets(n: int):
        for e in range(first_edge[n], first_edge[n + 1], ef):
            if edges[e + edge_type_at] != weak:
                yield edges[e + to_at] // nf

    scripts = {
        n
        for n in range(count)
        if nodes[n * nf + type_at] == code
        and strings[nodes[n * nf + name_at]].startswith("system / Script /")
        and strings[nodes[n * nf + name_at]].endswith(script_url_suffix)
    }
    ours_code = {
        n
        for n in range(count)
        if nodes[n * nf + type_at] == code
        and strings[nodes[n * nf + name_at]].startswith("system / SharedFunctionInfo")
        and any(t in scripts for t in targets(n))
    }
    ours = {n for n in range(count) if nodes[n * nf + type_at] == closure and any(t in ours_code for t in targets(n))}

    def reachable(blocked: set[int]) -> bytearray:
        seen = bytearray(count)
        seen[0] = 1
        stack = [0]
        while stack:
            n = stack.pop()
            for t in targets(n):
                if not seen[t] and t not in blocked:
                    seen[t] = 1
                    stack.append(t)
        return seen

    everything, without_ours = reachable(set()), reachable(ours)
    kinds: dict[str, int] = {}
    for n in range(count):
        if everything[n] and not without_ours[n]:
            kind = node_types[nodes[n * nf + type_at]]
            if kind not in ("string", "concatenated string", "sliced string", "number", "hidden"):
                kind = f"{kind} {strings[nodes[n * nf + name_at]][:48]}"
            kinds[kind] = kinds.get(kind, 0) + nodes[n * nf + size_at]
    return kinds
