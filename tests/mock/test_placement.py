"""Each producer's fields arrive exactly where that producer puts them (docs/formats.md)."""

import json

import httpx
import openai
import pytest
from openai.types.responses import Response
from openai.types.responses import ResponseCompletedEvent
from openai.types.responses import ResponseOutputMessage
from openai.types.responses import ResponseOutputText
from openai.types.responses import ResponseOutputTextAnnotationAddedEvent
from openai.types.responses.response_output_text import AnnotationFileCitation
from openai.types.responses.response_output_text import AnnotationURLCitation

from tests.wire import chat_body
from tests.wire import raw_chunks

MAX_SAFE_INTEGER = 2**53 - 1


def content_chunks(chunks: list[dict]) -> list[int]:
    return [i for i, c in enumerate(chunks) if c.get("choices") and c["choices"][0]["delta"].get("content")]


def output_text(response: Response) -> ResponseOutputText:
    """The first text part of the response's last output item, which must be a message."""
    message = response.output[-1]
    assert isinstance(message, ResponseOutputMessage)
    part = message.content[0]
    assert isinstance(part, ResponseOutputText)
    return part


def span_texts(content: str, annotations: list[dict]) -> list[str]:
    """The answer text each nested or flat url_citation covers (offsets in code points)."""
    spans = [a.get("url_citation", a) for a in annotations]
    return [content[s["start_index"] : s["end_index"]] for s in spans]


class TestOpenRAG:
    def test_body_extra_is_a_json_string_with_document_and_web_sources(self, http: httpx.Client) -> None:
        raw, body = chat_body(http, "openrag")
        assert isinstance(body["extra"], str)
        sources = json.loads(body["extra"])["sources"]
        documents = [s for s in sources if s["source_type"] == "document"]
        web = [s for s in sources if s["source_type"] == "web"]
        assert documents and web
        for doc in documents:
            assert {"file_url", "chunk_url", "filename", "page", "relevance_score"} <= doc.keys()
            assert "snippet" not in doc and "text" not in doc  # OpenRAG sends no chunk text
        assert all({"url", "title", "snippet"} <= s.keys() for s in web)
        assert any(s["relevance_score"] > 1 for s in documents)  # a raw reranker score, not 0..1
        # One Milvus id above 2^53, written exactly in the bytes of the nested JSON string.
        big = [s["_id"] for s in documents if s["_id"] > MAX_SAFE_INTEGER]
        assert big and '\\"_id\\": 458812345678901234' in raw

    def test_answer_has_no_inline_markers(self, http: httpx.Client) -> None:
        _, body = chat_body(http, "openrag")
        content = body["choices"][0]["message"]["content"]
        assert "[" not in content and "Sources:" not in content

    def test_stream_sends_empty_extra_until_the_last_content_chunk_and_the_finish_chunk(
        self, http: httpx.Client
    ) -> None:
        payloads, chunks = raw_chunks(http, "openrag")
        assert all(isinstance(c["extra"], str) for c in chunks)
        last_content = content_chunks(chunks)[-1]
        finish = chunks[-1]
        assert finish["choices"][0]["delta"] == {} and finish["choices"][0]["finish_reason"] == "stop"
        assert last_content == len(chunks) - 2
        assert [c["extra"] for c in chunks[:last_content]] == ["{}"] * last_content
        assert chunks[last_content]["extra"] == finish["extra"]
        assert len(json.loads(finish["extra"])["sources"]) == 4
        # json.dumps defaults: spaces after separators, non-ASCII escaped.
        assert payloads[0].startswith('{"id": "chatcmpl-6f1c2e", "object": "chat.completion.chunk"')
        assert "\\\\u00e9" in payloads[last_content]  # é, escaped once in extra and once in the chunk

    def test_completions_have_text_and_document_sources_only(self, client: openai.OpenAI) -> None:
        completion = client.completions.create(model="openrag", prompt="CA 2024 ?")
        assert completion.model_extra is not None
        sources = json.loads(completion.model_extra["extra"])["sources"]
        assert sources and all(s["source_type"] == "document" for s in sources)

    def test_completions_refuse_streaming_like_openrag(self, client: openai.OpenAI) -> None:
        with pytest.raises(openai.BadRequestError) as error:
            client.completions.create(model="openrag", prompt="x", stream=True)
        assert isinstance(error.value.body, dict)
        assert error.value.body["message"] == "Streaming is not supported for this endpoint"


class TestAzureOnYourData:
    def test_body_context_has_citations_and_scored_retrieved_documents(self, http: httpx.Client) -> None:
        _, body = chat_body(http, "azure-on-your-data")
        message = body["choices"][0]["message"]
        citations = message["context"]["citations"]
        assert all("content" in c and isinstance(c["chunk_id"], str) for c in citations)
        retrieved = message["context"]["all_retrieved_documents"]
        assert all(
            {"original_search_score", "rerank_score", "filter_reason", "search_queries"} <= d.keys() for d in retrieved
        )
        assert {d["filter_reason"] for d in retrieved} == {None, "rerank"}
        assert isinstance(message["context"]["intent"], str)

    def test_answer_cites_with_doc_markers_including_adjacent_ones(self, http: httpx.Client) -> None:
        _, body = chat_body(http, "azure-on-your-data")
        content = body["choices"][0]["message"]["content"]
        assert "[doc1]" in content and "[doc2]" in content and "[doc1][doc3]" in content
        assert "[doc4]" not in content  # not every citation is cited

    def test_stream_puts_context_on_the_role_only_first_chunk(self, http: httpx.Client) -> None:
        _, chunks = raw_chunks(http, "azure-on-your-data")
        assert chunks[0]["choices"] == [] and "prompt_filter_results" in chunks[0]
        first = chunks[1]["choices"][0]["delta"]
        assert first["role"] == "assistant" and "content" not in first
        assert len(first["context"]["citations"]) == 4
        assert not any("context" in c["choices"][0]["delta"] for c in chunks[2:])


class TestOpenAIUrlCitation:
    def test_body_has_nested_annotations_covering_the_markdown_links(self, http: httpx.Client) -> None:
        _, body = chat_body(http, "openai-url-citation")
        message = body["choices"][0]["message"]
        annotations = message["annotations"]
        assert all(a["type"] == "url_citation" and "url_citation" in a for a in annotations)
        covered = span_texts(message["content"], annotations)
        assert covered[0].startswith("([uefa.com](") and covered[1].startswith("([rfef.es](")
        # An emoji before the first link: code point and UTF-16 offsets differ there.
        start = annotations[0]["url_citation"]["start_index"]
        assert len(message["content"][:start].encode("utf-16-le")) // 2 != start

    @pytest.mark.parametrize(("model", "nested"), [("openai-url-citation", True), ("openai-url-citation-flat", False)])
    def test_stream_sends_annotations_in_an_annotation_only_chunk_after_the_text(
        self, http: httpx.Client, model: str, nested: bool
    ) -> None:
        _, chunks = raw_chunks(http, model)
        with_annotations = [i for i, c in enumerate(chunks) if "annotations" in c["choices"][0]["delta"]]
        assert len(with_annotations) == 1
        delta = chunks[with_annotations[0]]["choices"][0]["delta"]
        assert set(delta) == {"annotations"}
        assert with_annotations[0] > content_chunks(chunks)[-1]
        assert all(("url_citation" in a) is nested for a in delta["annotations"])
        text = "".join(chunks[i]["choices"][0]["delta"]["content"] for i in content_chunks(chunks))
        assert all(t.startswith("([") for t in span_texts(text, delta["annotations"]))


class TestOpenAIResponses:
    def test_body_has_flat_url_and_file_citations(self, client: openai.OpenAI) -> None:
        part = output_text(client.responses.create(model="openai-responses", input="x"))
        url, file = part.annotations
        assert isinstance(url, AnnotationURLCitation)
        assert part.text[url.start_index : url.end_index].startswith("([who.int](")
        assert isinstance(file, AnnotationFileCitation)
        assert file.filename.endswith(".pdf") and file.file_id.startswith("file-")

    def test_stream_announces_each_annotation_after_the_text(self, client: openai.OpenAI) -> None:
        events = list(client.responses.create(model="openai-responses", input="x", stream=True))
        types = [e.type for e in events]
        added = [i for i, t in enumerate(types) if t == "response.output_text.annotation.added"]
        last_delta = max(i for i, t in enumerate(types) if t == "response.output_text.delta")
        assert len(added) == 2 and min(added) > last_delta
        annotations = [e.annotation for e in events if isinstance(e, ResponseOutputTextAnnotationAddedEvent)]
        assert [a and a.type for a in annotations] == ["url_citation", "file_citation"]
        completed = events[-1]
        assert isinstance(completed, ResponseCompletedEvent)
        assert len(output_text(completed.response).annotations) == 2


class TestGrok2apiPython:
    def test_body_has_search_sources_and_annotations_on_spaced_markers(self, http: httpx.Client) -> None:
        raw, body = chat_body(http, "grok2api")
        assert {s["type"] for s in body["search_sources"]} == {"web", "x_post"}
        message = body["choices"][0]["message"]
        covered = span_texts(message["content"], message["annotations"])
        assert [c[:7] for c in covered] == [" [[1]](", " [[2]](", " [[3]]("]
        assert "🚀" in raw and "𝕏" in raw  # orjson: non-ASCII as is, compact separators
        assert raw.startswith('{"id":"chatcmpl-')

    def test_stream_final_chunk_carries_annotations_and_search_sources(self, http: httpx.Client) -> None:
        payloads, chunks = raw_chunks(http, "grok2api")
        *text_chunks, final = chunks
        assert all("finish_reason" not in c["choices"][0] for c in text_chunks)
        assert all(c["choices"][0]["delta"]["role"] == "assistant" for c in chunks)
        assert not any("search_sources" in c for c in text_chunks)
        assert final["choices"][0]["finish_reason"] == "stop"
        assert final["choices"][0]["delta"]["content"] == ""
        assert len(final["choices"][0]["delta"]["annotations"]) == 3
        assert len(final["search_sources"]) == 4

    def test_sources_block_variant_streams_the_block_as_its_own_chunk(self, http: httpx.Client) -> None:
        _, chunks = raw_chunks(http, "grok2api-sources-block")
        block = chunks[-2]["choices"][0]["delta"]["content"]
        assert block.startswith("\n\n## Sources\n[grok2api-sources]: #\n- [\\[Exclusif\\] Cloudflare")
        _, body = chat_body(http, "grok2api-sources-block")
        assert body["choices"][0]["message"]["content"].endswith(block)


class TestGrok2apiGo:
    def test_body_has_citations_list_and_annotations_on_unspaced_markers(self, http: httpx.Client) -> None:
        raw, body = chat_body(http, "grok2api-go")
        assert all(isinstance(url, str) for url in body["citations"]) and len(body["citations"]) == 3
        message = body["choices"][0]["message"]
        covered = span_texts(message["content"], message["annotations"])
        assert [c[:5] for c in covered] == ["[[1]]", "[[2]]", "[[1]]"]  # [[1]] cited twice
        assert "server_side_tool_usage" in body
        assert raw.startswith('{"choices":[{"finish_reason":"stop"')  # Go sorts keys
        assert "\\u0026" in raw  # and escapes &

    def test_stream_sends_annotation_only_chunks_after_their_marker(self, http: httpx.Client) -> None:
        _, chunks = raw_chunks(http, "grok2api-go")
        assert chunks[0]["choices"][0]["delta"] == {"role": "assistant"}
        text = ""
        annotation_chunks = 0
        for chunk in chunks:
            delta = chunk["choices"][0]["delta"]
            text += delta.get("content", "")
            if "annotations" in delta:
                annotation_chunks += 1
                assert set(delta) == {"annotations"}
                assert span_texts(text, delta["annotations"])[0].startswith("[[")  # the marker came first
        assert annotation_chunks == 3
        final = chunks[-1]
        assert final["choices"][0]["delta"] == {} and "annotations" not in json.dumps(final)
        assert len(final["citations"]) == 3 and final["usage"]["total_tokens"] > 0


class TestPerplexity:
    def test_body_has_citations_and_search_results_in_the_same_order(self, http: httpx.Client) -> None:
        _, body = chat_body(http, "perplexity")
        assert body["citations"] == [r["url"] for r in body["search_results"]]
        assert all(
            {"title", "url", "date", "last_updated", "snippet", "source"} <= r.keys() for r in body["search_results"]
        )
        assert "étoiles[1][2]." in body["choices"][0]["message"]["content"]

    def test_every_stream_chunk_repeats_the_sources_and_the_text_so_far(self, http: httpx.Client) -> None:
        _, chunks = raw_chunks(http, "perplexity")
        assert len(chunks) > 10
        text = ""
        for chunk in chunks:
            assert len(chunk["citations"]) == 3 and len(chunk["search_results"]) == 3
            text += chunk["choices"][0]["delta"]["content"]
            assert chunk["choices"][0]["message"]["content"] == text


class TestAnswerSpans:
    def test_body_citations_carry_verbatim_quotes_with_byte_offsets(self, http: httpx.Client) -> None:
        _, body = chat_body(http, "answer-spans")
        citations = body["citations"]
        keys = {"section_id", "title", "page_start", "page_end", "quote", "quote_start", "quote_end", "content"}
        assert all(keys <= c.keys() for c in citations)
        verbatim = [c for c in citations if c["quote_start"] >= 0]
        for c in verbatim:
            section = c["content"].encode("utf-8")
            assert section[c["quote_start"] : c["quote_end"]].decode("utf-8") == c["quote"]
        # Non-ASCII before a quote: byte offsets differ from code point offsets.
        assert any(c["content"].find(c["quote"]) != c["quote_start"] for c in verbatim)

    def test_one_paraphrased_quote_has_sentinel_offsets(self, http: httpx.Client) -> None:
        _, body = chat_body(http, "answer-spans")
        paraphrased = [c for c in body["citations"] if c["quote_start"] == -1]
        assert len(paraphrased) == 1
        assert paraphrased[0]["quote_end"] == -1 and paraphrased[0]["quote"] not in paraphrased[0]["content"]

    def test_stream_sends_citations_on_the_finish_chunk_only(self, http: httpx.Client) -> None:
        _, chunks = raw_chunks(http, "answer-spans")
        assert [i for i, c in enumerate(chunks) if "citations" in c] == [len(chunks) - 1]
        assert chunks[-1]["choices"][0]["finish_reason"] == "stop"
        text = "".join(c["choices"][0]["delta"].get("content", "") for c in chunks)
        assert "[1]" in text and "[2]" in text and "[3]" in text
