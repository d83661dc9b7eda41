"""The name rules on the hand-made labelled pair list: folds stay precise, same-pairs are surfaced."""

import json
from pathlib import Path

from memo_tui.quality.evaluate import evaluate, read_pairs

PAIRS = Path(__file__).parent / "data" / "labelled_pairs.jsonl"


def test_the_labelled_file_is_large_and_balanced():
    pairs = read_pairs(str(PAIRS))
    assert len(pairs) >= 300
    assert sum(not p["same"] for p in pairs) >= 100  # enough look-alikes that must stay apart


def test_automatic_folds_are_precise_and_same_pairs_are_surfaced():
    result = evaluate(read_pairs(str(PAIRS)))
    assert result.fold_precision >= 0.95, result.wrong_folds
    assert result.surfaced_share >= 0.90, result.missed


def test_eval_command_reports_the_numbers(run_cli):
    code, out, _ = run_cli("eval", str(PAIRS), "--json")
    data = json.loads(out)
    assert code == 0
    assert data["pairs"] == data["folded"] + data["asked"] + data["rejected"]
    assert data["fold_precision"] >= 0.95 and "wrong_folds" in data


def test_eval_wrong_fold_is_listed(run_cli, tmp_path):
    src = tmp_path / "pairs.jsonl"
    src.write_text(json.dumps({"a": "Claude Code", "b": "Claude-Code", "same": False}) + "\n")
    code, out, _ = run_cli("eval", str(src))
    assert "fold precision: 0.000" in out and "wrong fold: 'Claude Code' / 'Claude-Code'" in out


def test_eval_bad_line_is_one_clear_error(run_cli, tmp_path):
    src = tmp_path / "pairs.jsonl"
    src.write_text('{"a": "x", "b": "y", "same": true}\n{"a": "x"}\n')
    code, _, err = run_cli("eval", str(src))
    assert code == 2 and err.strip() == f'memo-tui: {src}:2: needs "a" and "b" strings'
