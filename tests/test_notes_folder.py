"""A folder of markdown notes: written in chunks of files, read again cheaply, and each passage's
author taken from the notes, never from their paths."""

import pytest

from memo_tui.engine import ingest
from memo_tui.engine.ingest import ingest_paths
from memo_tui.store import Passage

NS = "default"


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "notes"
    for n in range(30):
        sub = folder / f"topic{n % 3}"
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"note{n}.md").write_text(f"# Note {n}\n\nThe Acme Gateway needs Redis {n}.\n")
    return folder


def test_a_folder_of_notes_is_written_in_chunks_of_files_not_one_write_a_file(store, notes, monkeypatch):
    writes, write = [], ingest.PassageWriter.write

    def counted(self, records, *args):
        writes.append(len(records))
        return write(self, records, *args)

    monkeypatch.setattr(ingest.PassageWriter, "write", counted)
    report = ingest_paths(NS, [str(notes)])
    assert report.files == 30 and report.passages_new == 30
    assert writes == [30]


def test_an_unchanged_folder_is_read_again_without_extracting_anything(store, notes, monkeypatch):
    ingest_paths(NS, [str(notes)])
    extracted, extract_chunks = [], ingest.extract_chunks

    def counted(chunks, known):
        extracted.extend(chunks)
        return extract_chunks(chunks, known)

    monkeypatch.setattr(ingest, "extract_chunks", counted)
    (notes / "topic0" / "note0.md").write_text("# Note 0\n\nThe Acme Gateway moved to Postgres.\n")
    report = ingest_paths(NS, [str(notes)])
    assert report.passages_unchanged == 29 and report.passages_revised == 1
    assert [[r.external_id for r in chunk] for chunk in extracted] == [[f"{notes}/topic0/note0.md#note-0"]]


def test_a_record_given_twice_is_written_in_order_even_when_one_copy_matches_the_store(store, tmp_path):
    first = tmp_path / "a.md"
    first.write_text("# Same\n\nVersion one of the Acme Gateway note.\n")
    ingest_paths(NS, [str(first)])
    stream = tmp_path / "twice.jsonl"
    ext = f"{first}#same"
    stream.write_text(
        f'{{"id": "{ext}", "text": "Version two of the Acme Gateway note."}}\n'
        f'{{"id": "{ext}", "text": "# Same\\n\\nVersion one of the Acme Gateway note."}}\n'
    )
    ingest_paths(NS, [str(stream)])
    live = Passage.get((Passage.external_id == ext) & Passage.retired_at.is_null())
    assert live.text == "# Same\n\nVersion one of the Acme Gateway note."  # the last one given stands


@pytest.mark.parametrize(
    ("front", "given", "author"),
    [
        ("---\nauthor: Hiro Tanaka\ntags: [x]\n---\n", "alice", "Hiro Tanaka"),  # the note says who wrote it
        ("", "alice", "alice"),  # else the folder's owner, given with --source
        ("", None, ""),  # else unknown: never the path, which would make every file an author
    ],
)
def test_a_markdown_passage_author_is_its_front_matter_then_the_given_source(store, tmp_path, front, given, author):
    note = tmp_path / "standup.md"
    note.write_text(f"{front}# Standup\n\nPriya Raman moved Redis.\n")
    ingest_paths(NS, [str(note)], author=given)
    [passage] = Passage.select()
    assert passage.source == author
    assert "author:" not in passage.text and passage.text.startswith("# Standup")


def test_a_file_that_opens_with_a_rule_but_never_closes_it_is_read_as_it_is(store, tmp_path):
    note = tmp_path / "rule.md"
    note.write_text("---\nauthor: nobody\n\nThe Acme Gateway text.\n")
    ingest_paths(NS, [str(note)])
    [passage] = Passage.select()
    assert passage.source == "" and "author: nobody" in passage.text
