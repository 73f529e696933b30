"""Recognition never sees the renderer's answers: nothing outside vision/synthetic imports it or reads its truth."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


# The benchmarks that render tables and score recognition against their truth live in web_dashboard/ (the outer
# layer): recognition imports nothing from there, so it cannot reach the renderer through them either.


def recognition_modules() -> list[Path]:
    files = [p for p in (ROOT / "vision").rglob("*.py") if "synthetic" not in p.relative_to(ROOT / "vision").parts]
    return files + list((ROOT / "calibration").rglob("*.py"))


def imported_names(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = ("." * node.level) + (node.module or "")
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module", "__import__",
        ):
            names += [a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return names


def test_recognition_and_calibration_never_import_the_renderer():
    offenders = []
    for path in recognition_modules():
        for name in imported_names(path):
            relative_into_synthetic = name.startswith(".") and "synthetic" in name
            if name.startswith(("vision.synthetic", "web_dashboard")) or relative_into_synthetic:
                offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not offenders, offenders


def test_recognition_never_reads_the_ground_truth_files():
    offenders = [
        str(p.relative_to(ROOT)) for p in recognition_modules()
        if "truth.jsonl" in p.read_text() or "moves.jsonl" in p.read_text()
    ]
    assert not offenders


def test_the_scan_would_catch_an_offender(tmp_path):
    sneaky = tmp_path / "peek.py"
    sneaky.write_text("import os\nfrom vision.synthetic.render import Renderer\nfrom .synthetic import bots\n")
    names = imported_names(sneaky)
    assert "vision.synthetic.render" in names and ".synthetic" in names
