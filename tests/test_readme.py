"""The README's promises: CI runs its test command, its apt line is the one the app prints,
and every file it links exists."""
from __future__ import annotations

import re
from pathlib import Path

from app.shell import qt_check

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _shell_lines(text: str) -> list[str]:
    blocks = re.findall(r"```sh\n(.*?)```", text, flags=re.S)
    return [line for block in blocks for line in block.splitlines()]


def test_ci_runs_exactly_the_readme_test_command():
    test_commands = [line for line in _shell_lines(README) if "pytest" in line]
    assert len(test_commands) == 1
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_commands[0] in ci_lines


def test_readme_launch_command_installs_and_opens_the_app():
    launch = [line for line in _shell_lines(README) if line.endswith(".venv/bin/flexmech")]
    assert launch == ['python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/flexmech']


def test_readme_names_the_apt_line_the_app_prints():
    assert "sudo apt-get install -y " + " ".join(qt_check.APT_PACKAGES) in _shell_lines(README)


def test_linked_documents_exist():
    """Links to pages and folders resolve (pictures are made by docs/screenshots.py)."""
    for page in (ROOT / "README.md", ROOT / "docs" / "README.md", ROOT / "docs" / "cli.md"):
        for target in re.findall(r"(?<!!)\[[^]]*\]\(([^)#:]+)\)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"{page.name} links to missing {target}"
