"""The small language make_dev.py, make_dev2.py, make_dev3.py and make_dev4.py write capture conversations in.

``U(text, *facts)`` a user turn and the facts a careful extractor would take from it, ``A(text)`` an
assistant turn, ``F(fact, *replaces)`` one such fact (and the facts it replaces), ``conv(...)`` one
conversation with the facts valid at its end (``gold``) and those that must no longer be (``stale``);
``write(name, about, file)`` writes every conversation declared so far.
"""
import json
from pathlib import Path

C = []


def U(text, *facts):
    return {"role": "user", "text": text, "facts": list(facts)}


def A(text):
    return {"role": "assistant", "text": text}


def F(fact, *replaces):
    d = {"fact": fact}
    if replaces:
        d["replaces"] = list(replaces)
    return d


def conv(cid, cat, turns, gold, stale=()):
    C.append({"id": cid, "category": cat, "turns": turns, "gold": gold, "stale": list(stale)})


def write(name, about, path):
    data = {"name": name, "version": 1, "about": about, "conversations": C}
    with open(Path(path), "w") as out:
        json.dump(data, out, indent=1, ensure_ascii=False)
    print(len(C))
