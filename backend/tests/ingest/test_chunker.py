"""Chunks fit MiniLM's 256 word pieces (real tokenizer), overlap, and never cut a word."""

import re
from itertools import pairwise

from bookchat.ingest.chunker import chunk_section
from bookchat.ingest.tokens import count_tokens, model_length

PATH = ("Practical Git", "Undoing changes", "Reset modes")


def _prose(sentences: int) -> str:
    return " ".join(
        f"Sentence number {i} explains how git reset moves the branch pointer and the index."
        for i in range(sentences)
    )


def test_every_chunk_fits_the_model_including_its_heading_prefix() -> None:
    chunks = chunk_section(PATH, _prose(80))
    assert len(chunks) > 3
    assert all(model_length(c.embed_text) <= 256 for c in chunks)
    assert all(
        c.embed_text.startswith("Practical Git › Undoing changes › Reset modes\n") for c in chunks
    )


def test_consecutive_chunks_overlap_by_whole_sentences() -> None:
    chunks = chunk_section(PATH, _prose(80), overlap=0.18)
    for first, second in pairwise(chunks):
        first_sentences = re.split(r"(?<=\.) ", first.text)
        second_sentences = re.split(r"(?<=\.) ", second.text)
        shared = next(
            n
            for n in range(len(first_sentences), 0, -1)
            if first_sentences[-n:] == second_sentences[:n]
        )
        ratio = count_tokens(" ".join(first_sentences[-shared:])) / count_tokens(first.text)
        assert 0.10 <= ratio <= 0.20


def test_chunks_never_cut_inside_a_word() -> None:
    body = _prose(40) + " " + " ".join(f"word{i}" for i in range(600))
    source_words = set(body.split())
    for chunk in chunk_section(PATH, body):
        assert set(chunk.text.split()) <= source_words


def test_a_long_code_block_is_split_on_line_boundaries() -> None:
    lines = [f'echo "step {i}: checking staged files for problems"' for i in range(120)]
    body = "Intro sentence.\n\n```bash\n" + "\n".join(lines) + "\n```"
    chunks = chunk_section(PATH, body)
    assert len(chunks) > 2
    source_lines = set(body.split("\n"))
    for chunk in chunks:
        assert model_length(chunk.embed_text) <= 256
        assert set(chunk.text.split("\n")) <= source_lines


def test_a_single_giant_line_is_split_between_words() -> None:
    body = "```text\n" + " ".join(f"token{i}" for i in range(1500)) + "\n```"
    chunks = chunk_section(PATH, body)
    assert all(model_length(c.embed_text) <= 256 for c in chunks)
    assert "token1499" in chunks[-1].text


def test_tables_keep_their_rows_whole() -> None:
    rows = "\n".join(f"| --soft{i} | keeps index | keeps tree |" for i in range(60))
    chunks = chunk_section(PATH, "| Mode | Index | Tree |\n|---|---|---|\n" + rows)
    for chunk in chunks:
        assert all(line.startswith("|") and line.endswith("|") for line in chunk.text.split("\n"))


def test_an_empty_section_has_no_chunks() -> None:
    assert chunk_section(PATH, "  \n\n ") == []


def test_short_sections_are_one_chunk_with_the_text_unchanged() -> None:
    chunks = chunk_section(PATH, "Use `git reset --soft HEAD~1` to undo a commit.")
    assert [c.text for c in chunks] == ["Use `git reset --soft HEAD~1` to undo a commit."]
