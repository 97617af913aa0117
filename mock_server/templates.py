"""Renders scenario templates: plain YAML/JSON values with three kinds of placeholders.

- ``"${name}"`` as a whole string is replaced by the variable's value (any JSON type);
  inside a longer string it is interpolated as text.
- ``{"$json": value, "style": "python"}`` becomes the JSON *string* of ``value``
  (OpenRAG sends its sources that way).
- ``{"$offset": needle, "in": "answer", "unit": "code_points", "nth": 1, "end": false}``
  becomes the position of the nth occurrence of ``needle`` in the variable ``in``, counted in
  ``unit`` (``code_points``, ``utf16`` or ``utf8``), so scenario files never hold hand-counted
  offsets that break when a text or a port changes.
- ``{"$repeat": count, "each": template, "join": ""}`` renders ``template`` ``count`` times with
  ``${i}`` = 1…count: a list, or one string when ``join`` is given (a 400-source list, a
  4,000-word answer, a 10 MB title — sizes as data, not as code). Given a list instead of a
  count, it renders ``template`` once per element, bound to ``${item}`` (and ``${i}``). With
  ``key: template`` it builds an object instead, each item under its rendered key (RAGFlow's
  agent numbers its chunks by keys).
- ``{"$if": name, "then": template}`` renders ``template`` when the variable ``name`` is true,
  and otherwise leaves out the key or list item that holds it (fields a producer sends only
  when the request asks for them).
"""

import re
from collections.abc import Mapping
from typing import Any

from .encoding import dumps

_PLACEHOLDER = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")


class _Omitted:
    """What a false ``$if`` renders to: its key or list item is left out."""


OMITTED = _Omitted()


class TemplateError(ValueError):
    """A template refers to something that does not exist; raised while validating scenarios."""


def offset_in(text: str, index: int, unit: str) -> int:
    """Length of ``text[:index]`` (a Python code point index) in the given unit."""
    prefix = text[:index]
    if unit == "code_points":
        return len(prefix)
    if unit == "utf16":
        return len(prefix.encode("utf-16-le")) // 2
    if unit == "utf8":
        return len(prefix.encode("utf-8"))
    raise TemplateError(f"unknown offset unit {unit!r} (use code_points, utf16 or utf8)")


class Renderer:
    """Renders templates against variables that may themselves be templates."""

    def __init__(
        self,
        templates: Mapping[str, Any],
        values: Mapping[str, Any] = {},
        parent: "Renderer | None" = None,
    ):
        """``templates`` are rendered when first used; ``values`` are taken as they are (and win)."""
        self._raw = templates
        self._parent = parent
        self._done: dict[str, Any] = dict(values)
        self._resolving: set[str] = set()

    def define(self, values: Mapping[str, Any]) -> None:
        """Adds variables known only after some rendering (the answer text depends on ${base_url})."""
        self._done.update(values)

    def child(self, values: Mapping[str, Any]) -> "Renderer":
        """Adds ``values`` and reuses this renderer's rendered variables, so that a 400-source
        list is rendered once per response, not once per chunk."""
        return Renderer({}, values, parent=self)

    def var(self, name: str) -> Any:
        if name in self._done:
            return self._done[name]
        if name not in self._raw:
            if self._parent is not None:
                return self._parent.var(name)
            raise TemplateError(f"unknown variable ${{{name}}}")
        if name in self._resolving:
            raise TemplateError(f"variable ${{{name}}} refers to itself")
        self._resolving.add(name)
        value = self.render(self._raw[name])
        self._resolving.discard(name)
        self._done[name] = value
        return value

    def render(self, template: Any) -> Any:
        if isinstance(template, str):
            return self._render_string(template)
        if isinstance(template, list):
            return [item for item in map(self.render, template) if item is not OMITTED]
        if isinstance(template, dict):
            if "$if" in template:
                return self.render(template.get("then")) if self.var(template["$if"]) else OMITTED
            if "$json" in template:
                return dumps(self.render(template["$json"]), template.get("style", "python"))
            if "$offset" in template:
                return self._offset(template)
            if "$repeat" in template:
                return self._repeat(template)
            rendered = {key: self.render(value) for key, value in template.items()}
            return {key: value for key, value in rendered.items() if value is not OMITTED}
        return template

    def _render_string(self, text: str) -> Any:
        whole = _PLACEHOLDER.fullmatch(text)
        if whole:
            return self.var(whole.group(1))

        def interpolate(match: re.Match[str]) -> str:
            value = self.var(match.group(1))
            if isinstance(value, (dict, list)):
                raise TemplateError(f"${{{match.group(1)}}} is not text and cannot sit inside a string")
            return str(value)

        return _PLACEHOLDER.sub(interpolate, text)

    def _offset(self, spec: dict[str, Any]) -> int:
        needle = self.render(spec["$offset"])
        haystack = self.var(spec.get("in", "answer"))
        nth = spec.get("nth", 1)
        index = -1
        for _ in range(nth):
            index = haystack.find(needle, index + 1)
            if index < 0:
                raise TemplateError(
                    f"$offset: occurrence {nth} of {needle!r} not found in ${{{spec.get('in', 'answer')}}}"
                )
        if spec.get("end", False):
            index += len(needle)
        return offset_in(haystack, index, spec.get("unit", "code_points"))

    def _repeat(self, spec: dict[str, Any]) -> Any:
        count = self.render(spec["$repeat"])
        if isinstance(count, list):
            bindings = [{"i": i, "item": item} for i, item in enumerate(count, start=1)]
        elif isinstance(count, int) and not isinstance(count, bool) and count >= 0:
            bindings = [{"i": i} for i in range(1, count + 1)]
        else:
            raise TemplateError(f"$repeat: the count must be a whole number >= 0 or a list, not {count!r}")
        items = [self.child(binding).render(spec.get("each")) for binding in bindings]
        if "key" in spec:
            return self._keyed(spec, bindings, items)
        if "join" not in spec:
            return items
        if not all(isinstance(item, str) for item in items):
            raise TemplateError("$repeat with join: each item must render to text")
        return str(spec["join"]).join(items)

    def _keyed(self, spec: dict[str, Any], bindings: list[dict[str, Any]], items: list[Any]) -> dict[str, Any]:
        if "join" in spec:
            raise TemplateError("$repeat: key and join do not go together")
        keyed: dict[str, Any] = {}
        for binding, item in zip(bindings, items, strict=True):
            key = str(self.child(binding).render(spec["key"]))
            if key in keyed:
                raise TemplateError(f"$repeat: the key {key!r} comes twice")
            keyed[key] = item
        return keyed
