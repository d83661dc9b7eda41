"""`memo-tui eval --kinds`: each kind of text built, run with the calibration fitted without it and with
the packaged one, and scored against its labels (the harness; tests/test_real_text.py gates the real
kinds' figures)."""

import json
import tarfile
from pathlib import Path

import pytest

from memo_tui.cli import main
from memo_tui.names import evidence

DEMO = Path(__file__).parents[1] / "memo_tui" / "demo"


@pytest.fixture
def data(tmp_path):
    """A data folder of one kind: the demo corpus as a notes folder, its mined pairs, and a held-out
    calibration under which no pair is likely enough to ask."""
    folder = tmp_path / "real"
    (folder / "calibration").mkdir(parents=True)
    with tarfile.open(folder / "notes.tar.gz", "w:gz") as tar:
        tar.add(DEMO, arcname="notes")
    (folder / "notes.mined.jsonl").write_text(
        json.dumps({"a": "Redis", "b": "redis", "same": True, "why": "the same server", "mined": "key"}) + "\n"
        + json.dumps({"a": "Redis", "b": "no such name", "same": True, "why": "not in the store", "mined": "edit"})
        + "\n"
    )  # fmt: skip
    packaged = json.loads(evidence.CALIBRATION.read_text(encoding="utf-8"))
    unlikely = {**packaged, "priors": dict.fromkeys(packaged["priors"], 0.001), "fitted_on": []}
    (folder / "calibration" / "without-notes.json").write_text(json.dumps(unlikely))
    return folder


def test_each_kind_is_run_held_out_and_in_sample(data, capsys):
    assert main(["eval", "--kinds", str(data), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert set(found["kinds"]) == {"notes"}
    assert found["absent"] == ["changelogs", "summaries", "commits", "chats"]
    held, inside = found["kinds"]["notes"]["held_out"], found["kinds"]["notes"]["in_sample"]
    assert held["questions"] == 0 < inside["questions"]  # the pass read the held-out file, then the packaged one
    assert held["entities"] == inside["entities"] > 0
    # the one labelled pair served (a mined pair) is judged; the rest are counted unlabelled, never right
    first = inside["first_50"]
    assert (first["same"], first["different"], first["unlabelled"]) == (1, 0, min(50, inside["questions"]) - 1)
    # recall: the mined same-pairs whose two names are in the store, folded or asked
    assert inside["same_pairs_labelled"] == held["same_pairs_labelled"] == 1
    assert inside["surfaced_share"] == 1.0


def test_the_table_puts_the_held_out_figure_first(data, capsys):
    assert main(["eval", "--kinds", str(data)]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("notes"))
    assert "questions/1k entities" in out and "recall (mined)" in out
    assert " 0.0 (" in row  # held out, no question; in sample beside it
    assert "absent here: changelogs, summaries, commits, chats" in out


def test_a_missing_held_out_calibration_is_one_clear_error(data, capsys):
    (data / "calibration" / "without-notes.json").unlink()
    assert main(["eval", "--kinds", str(data)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "calibrate.py --write" in err


@pytest.mark.parametrize("argv", [["eval"], ["eval", "--kinds", "/nowhere/real"], ["eval", "x.jsonl", "--kinds"]])
def test_eval_without_one_source_of_labels_is_one_clear_error(argv, capsys, tmp_path):
    assert main([*argv, "--db", str(tmp_path / "store.db")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("memo-tui: ") and err.count("\n") == 1


def test_the_pass_reads_the_calibration_the_environment_names(run_cli, monkeypatch, tmp_path):
    bad = tmp_path / "calibration.json"
    bad.write_text('{"priors": {}}')
    monkeypatch.setenv(evidence.CALIBRATION_ENV, str(bad))
    run_cli("ingest", str(DEMO))
    code, _, err = run_cli("resolve")
    assert code == 2 and err.count("\n") == 1 and str(bad) in err
    monkeypatch.setenv(evidence.CALIBRATION_ENV, str(tmp_path / "absent.json"))
    code, _, err = run_cli("resolve")
    assert code == 2 and "cannot read the calibration" in err
