"""The install hint an error gives for a missing extra: one command, from where this install of memori-recall came
(what pip recorded, PEP 610's ``direct_url.json``), never a placeholder to fill in nor the PyPI form (memori-recall
is not on PyPI)."""

from __future__ import annotations

import json
from importlib import metadata
from urllib.parse import unquote, urlsplit

import pytest

from memori_core import extras


def test_the_hint_of_this_install_names_where_pip_installed_it_from() -> None:
    record = metadata.distribution("memori-recall").read_text("direct_url.json")
    hint = extras.install_hint("mcp")
    assert "<" not in hint and hint.count("pip install") == 1 and "[mcp]" in hint
    if record:
        url = json.loads(record)["url"]
        where = unquote(urlsplit(url).path) if url.startswith("file://") else url
        assert where in hint, hint
    else:
        assert '`pip install ".[mcp]"` in your clone of memori-recall' in hint


@pytest.mark.parametrize(("record", "hint"), [
    ({"url": "file:///srv/memori-recall", "dir_info": {"editable": True}},
     '`pip install -e "/srv/memori-recall[local]"`'),
    ({"url": "file:///srv/memori%20recall", "dir_info": {}}, '`pip install "/srv/memori recall[local]"`'),
    ({"url": "https://git.example.org/team/memori-recall.git",
      "vcs_info": {"vcs": "git", "requested_revision": "v1.2.0", "commit_id": "abc123"}},
     '`pip install "memori-recall[local] @ git+https://git.example.org/team/memori-recall.git@v1.2.0"`'),
    ({"url": "https://git.example.org/team/mono.git", "subdirectory": "python/memori-recall",
      "vcs_info": {"vcs": "git", "commit_id": "abc123"}},
     '`pip install "memori-recall[local] @ git+https://git.example.org/team/mono.git@abc123'
     '#subdirectory=python/memori-recall"`'),
    ({"url": "file:///srv/mono", "subdirectory": "python/memori-recall", "dir_info": {}},
     '`pip install "/srv/mono/python/memori-recall[local]"`'),
    (None, '`pip install ".[local]"` in your clone of memori-recall (it is not on PyPI)'),
])
def test_the_hint_follows_each_kind_of_recorded_install(monkeypatch: pytest.MonkeyPatch, record, hint) -> None:
    monkeypatch.setattr(extras, "_installed_from", lambda: record)
    assert extras.install_hint("local") == hint
