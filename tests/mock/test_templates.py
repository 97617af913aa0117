"""The template language scenario files are written in (docs/contributing.md, "Scenario files")."""

import pytest

from mock_server.templates import Renderer
from mock_server.templates import TemplateError


def test_repeat_builds_a_list_with_the_index_bound() -> None:
    renderer = Renderer({"host": "http://h/"})
    sources = renderer.render({"$repeat": 3, "each": {"url": "${host}doc-${i}", "rank": "${i}"}})
    assert sources == [
        {"url": "http://h/doc-1", "rank": 1},
        {"url": "http://h/doc-2", "rank": 2},
        {"url": "http://h/doc-3", "rank": 3},
    ]


def test_repeat_with_join_builds_one_text_and_feeds_offsets() -> None:
    renderer = Renderer(
        {"text": {"$repeat": 3, "each": "word${i} [${i}]", "join": " "}, "third": {"$offset": "[3]", "in": "text"}}
    )
    assert renderer.var("text") == "word1 [1] word2 [2] word3 [3]"
    assert renderer.var("third") == len("word1 [1] word2 [2] word3 ")


@pytest.mark.parametrize("count", [-1, "many", True, 2.5])
def test_repeat_refuses_a_count_that_is_not_a_whole_number(count: object) -> None:
    with pytest.raises(TemplateError, match="whole number"):
        Renderer({}).render({"$repeat": count, "each": "x"})


def test_repeat_join_refuses_items_that_are_not_text() -> None:
    with pytest.raises(TemplateError, match="must render to text"):
        Renderer({}).render({"$repeat": 2, "each": {"a": 1}, "join": ","})


def test_repeat_over_a_list_binds_each_item_and_its_index() -> None:
    renderer = Renderer({"names": ["<b>", "x"]})
    assert renderer.render({"$repeat": "${names}", "each": {"title": "${item}", "n": "${i}"}}) == [
        {"title": "<b>", "n": 1},
        {"title": "x", "n": 2},
    ]
    assert renderer.render({"$repeat": "${names}", "each": "[${i}]", "join": ""}) == "[1][2]"


def test_if_leaves_out_its_key_or_item_when_the_variable_is_false() -> None:
    template = {
        "content": "x",
        "reference": {"$if": "asked", "then": ["${doc}"]},
        "list": [1, {"$if": "asked", "then": 2}],
    }
    assert Renderer({"doc": "d"}, {"asked": True}).render(template) == {
        "content": "x",
        "reference": ["d"],
        "list": [1, 2],
    }
    assert Renderer({"doc": "d"}, {"asked": False}).render(template) == {"content": "x", "list": [1]}


def test_repeat_with_key_builds_an_object_and_refuses_a_key_twice() -> None:
    renderer = Renderer({"docs": ["a", "b"]})
    assert renderer.render({"$repeat": "${docs}", "key": "${i}", "each": {"name": "${item}"}}) == {
        "1": {"name": "a"},
        "2": {"name": "b"},
    }
    with pytest.raises(TemplateError, match="comes twice"):
        renderer.render({"$repeat": 2, "key": "same", "each": "x"})
