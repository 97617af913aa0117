"""The declared backends file an admin installs (`owui-citations install --backends FILE`), checked by
the same rules as the extension's core (extension/src/core/declared.ts), which checks it again in
every page: the installer refuses a bad file with the same errors, word for word, before anything
changes. The rules' home is the core; this copy is tested against it on a shared set of good and bad
declarations and on its bounds (tests/test_declared_backends.py).
"""

import json
from typing import Any

RULES: dict[str, Any] = {
    "maxBackends": 50,
    "maxModels": 20,
    "maxModel": 200,
    "maxPath": 200,
    "maxHeading": 100,
    "maxIndex": 9999,
    "maxText": 100_000,
    "maxErrors": 50,
    "fields": ["title", "url", "text", "page", "score", "number"],
    "notations": ["brackets", "caret-footnote", "footnote", "fullwidth", "superscript", "sup-tag", "linked-number"],
    "refusedNames": ["__proto__", "constructor", "prototype"],
}
BACKEND_KEYS = ["models", "sources", "fields", "numbering", "markers"]


def _length(text: str) -> int:
    """The length JavaScript gives a string (UTF-16 code units), which the core's bounds count."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _cut(text: str, units: int) -> str:
    """The first ``units`` UTF-16 units of ``text`` at most, never half a pair (the core's cutStart)."""
    end, used = 0, 0
    while end < len(text) and used + _length(text[end]) <= units:
        used += _length(text[end])
        end += 1
    return text[:end]


def _quoted(text: str) -> str:
    return json.dumps(_cut(text, 40) + "…" if _length(text) > 40 else text, ensure_ascii=False)


def _is_name_char(c: str) -> bool:
    return c.isascii() and (c.isalnum() or c in "_-")


def parse_path(text: str) -> str | None:
    """None for a path of the grammar `name(.name | [N])*`, else what is wrong with it."""
    if text == "":
        return "an empty path"
    if _length(text) > RULES["maxPath"]:
        return f"longer than {RULES['maxPath']} characters"
    at, steps, expect_name = 0, 0, True
    while at < len(text):
        c = text[at]
        if c == "[":
            end = at + 1
            while end < len(text) and text[end].isascii() and text[end].isdigit():
                end += 1
            if end == at + 1 or text[end : end + 1] != "]":
                return f'a "[" at {at} not followed by digits and "]"'
            if int(text[at + 1 : end]) > RULES["maxIndex"]:
                return f"an index over {RULES['maxIndex']}"
            if steps == 0:
                return "an index before any name"
            steps, at, expect_name = steps + 1, end + 1, False
            continue
        if c == ".":
            if expect_name:
                return f'a "." at {at} where a name should be'
            expect_name, at = True, at + 1
            continue
        if not _is_name_char(c):
            return f'a character at {at} that is not a letter, digit, "_", "-", "." or "["'
        if not expect_name:
            return f'a name at {at} not after "."'
        end = at
        while end < len(text) and _is_name_char(text[end]):
            end += 1
        name = text[at:end]
        if name in RULES["refusedNames"]:
            return f'the name "{name}", refused'
        steps, at, expect_name = steps + 1, end, False
    return 'a "." at its end' if expect_name else None


class _Errors:
    def __init__(self) -> None:
        self.list: list[str] = []
        self.count = 0

    def add(self, message: str) -> None:
        if len(self.list) < RULES["maxErrors"]:
            self.list.append(message)
        self.count += 1

    def done(self) -> list[str]:
        left = self.count - len(self.list)
        return [*self.list, f"… and {left} more"] if left else self.list


def _unknown_keys(value: dict[str, Any], allowed: list[str], where: str, errors: _Errors) -> None:
    for key in value:
        if key not in allowed:
            errors.add(f"{where}: unknown key {json.dumps(_cut(key, 40), ensure_ascii=False)}")


def _models(value: Any, where: str, errors: _Errors) -> list[str]:
    if not isinstance(value, list) or not value:
        errors.add(f"{where}: models: must be a non-empty list of model ids")
        return []
    if len(value) > RULES["maxModels"]:
        errors.add(f"{where}: models: more than {RULES['maxModels']}")
        return []
    models = []
    for i, model in enumerate(value):
        if not isinstance(model, str) or model.strip() == "" or _length(model) > RULES["maxModel"]:
            errors.add(f"{where}: models[{i}]: must be a model id (text of 1 to {RULES['maxModel']} characters)")
        else:
            models.append(model)
    return models


def _one_of(value: Any, keys: list[str], shape: str, where: str, errors: _Errors) -> str | None:
    """Which of the two ``keys`` an object has, exactly one and no other key; None (with its errors) if not."""
    if not isinstance(value, dict):
        errors.add(f"{where}: must be {shape}")
        return None
    _unknown_keys(value, keys, where, errors)
    if (keys[0] in value) == (keys[1] in value):
        errors.add(f'{where}: must have exactly one of "{keys[0]}" and "{keys[1]}"')
        return None
    return keys[0] if keys[0] in value else keys[1]


def _sources(value: Any, where: str, errors: _Errors) -> str | None:
    """The kind of sources ("path", "text"), None when they are not valid."""
    kind = _one_of(value, ["path", "text"], '{"path": …} or {"text": …}', f"{where}: sources", errors)
    if kind is None:
        return None
    if kind == "path":
        path = value["path"]
        if not isinstance(path, str):
            errors.add(f"{where}: sources.path: must be a path (text)")
            return None
        problem = parse_path(path)
        if problem is not None:
            errors.add(f"{where}: sources.path: {_quoted(path)} is not a path: {problem}")
            return None
        return "path"
    text = value["text"]
    shape = '{"heading": "…"} or {"separator": true}'
    kind = _one_of(text, ["heading", "separator"], shape, f"{where}: sources.text", errors)
    if kind is None:
        return None
    if kind == "separator":
        if text["separator"] is True:
            return "text"
        errors.add(f"{where}: sources.text.separator: must be true")
        return None
    heading = text["heading"]
    if not isinstance(heading, str) or heading.strip() == "" or _length(heading) > RULES["maxHeading"]:
        errors.add(f"{where}: sources.text.heading: must be text of 1 to {RULES['maxHeading']} characters")
        return None
    return "text"


def _fields(value: Any, where: str, errors: _Errors) -> None:
    if not isinstance(value, dict):
        errors.add(f"{where}: fields: must be an object of relative paths")
        return
    named = set()
    for key, raw in value.items():
        if key not in RULES["fields"]:
            errors.add(f"{where}: fields: unknown key {_quoted(key)} (known: {', '.join(RULES['fields'])})")
            continue
        problem = parse_path(raw) if isinstance(raw, str) else "not text"
        if problem is None:
            named.add(key)
        else:
            written = f"{_quoted(raw)} is not a path: " if isinstance(raw, str) else ""
            errors.add(f"{where}: fields.{key}: {written}{problem}")
    if "title" not in named or not named & {"url", "text"}:
        errors.add(f'{where}: fields: must name "title" and at least one of "url" and "text"')


def _backend_name(index: int, first: Any) -> str:
    return f"backends[{index}]" + (f" ({_quoted(first)})" if isinstance(first, str) else "")


def _backend(value: Any, index: int, errors: _Errors) -> list[str] | None:
    """The backend's models when it is valid (none: it is any model's), else None."""
    if not isinstance(value, dict):
        errors.add(f"backends[{index}]: must be an object")
        return None
    models_value = value.get("models")
    where = _backend_name(index, models_value[0] if isinstance(models_value, list) and models_value else None)
    before = errors.count
    _unknown_keys(value, BACKEND_KEYS, where, errors)
    any_model = "models" not in value
    models = [] if any_model else _models(models_value, where, errors)
    sources = _sources(value.get("sources"), where, errors)
    if sources == "path":
        _fields(value.get("fields"), where, errors)
    elif sources and "fields" in value:
        errors.add(f"{where}: fields: only for sources at a path")
    fields = value.get("fields")
    if any_model and sources and sources != "path":
        errors.add(f'{where}: sources: without "models", must be a path (a list in the text is declared per model)')
    elif any_model and sources and not (isinstance(fields, dict) and "number" in fields):
        errors.add(f'{where}: fields: without "models", must name "number", the field that claims a list')
    numbering = value.get("numbering")
    numbering = 1 if numbering is None else numbering
    valid_numbering = type(numbering) in (int, float) and numbering in (0, 1)
    if not valid_numbering:
        errors.add(f"{where}: numbering: must be 0 or 1")
    markers = value.get("markers")
    if markers is not None and markers not in RULES["notations"]:
        errors.add(f"{where}: markers: must be one of {', '.join(RULES['notations'])}")
    return None if errors.count > before or not sources or not valid_numbering else models


def validate(declarations: Any) -> tuple[int, list[str]]:
    """How many backends are declared, and one error per problem (none: the file is valid)."""
    errors = _Errors()
    if not isinstance(declarations, dict):
        return 0, ['must be an object {"backends": [...]}']
    _unknown_keys(declarations, ["backends"], "top level", errors)
    backends = declarations.get("backends")
    valid = 0
    if not isinstance(backends, list):
        errors.add("backends: must be a list")
    elif len(backends) > RULES["maxBackends"]:
        errors.add(f"backends: more than {RULES['maxBackends']}")
    else:
        seen: dict[str, int] = {}
        for index, value in enumerate(backends):
            models = _backend(value, index, errors)
            if models is None:
                continue
            twice = [model for model in models if model in seen]
            where = _backend_name(index, models[0] if models else None)
            for model in twice:
                errors.add(f"{where}: models: {_quoted(model)} is declared by backends[{seen[model]}] too")
            if twice:
                continue
            seen.update((model, index) for model in models)
            valid += 1
    return valid, errors.done()


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def parse(text: str) -> tuple[int, list[str]]:
    """A declarations file's text, parsed and checked."""
    if _length(text) > RULES["maxText"]:
        return 0, [f"longer than {RULES['maxText']} characters"]
    try:
        declarations = json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        return 0, [f"not JSON: {str(error)[:200]}"]
    return validate(declarations)
