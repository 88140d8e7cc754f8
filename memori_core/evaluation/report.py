"""Markdown tables of an evaluation's metrics, and the progress line."""

from __future__ import annotations

import sys
from typing import Any

from .configs import GATES, RANKINGS

GATE_NAMES = {
    "default": "default",
    "memori_compat": "memori_compat",
    "default_no_threshold": "default, no threshold",
    "dense_no_threshold": "plain cosine, no threshold",
}


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _number(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def _category_header(key: str, label: str) -> str:
    return f"R@10 c{key} ({label})" if label != key else f"R@10 {key}"


def rankings_table(result: dict[str, Any]) -> str:
    """One row per ranking: R@5 / R@10 / nDCG@10 overall, then R@10 per category."""
    labels: dict[str, str] = result["category_labels"]
    head = ["ranking", "R@5", "R@10", "nDCG@10"] + [_category_header(c, labels[c]) for c in labels]
    lines = [_row(head), "|" + "---|" * len(head)]
    for name in RANKINGS:
        r = result["rankings"][name]
        cells = [name] + [_number(r["overall"][m]) for m in ("R@5", "R@10", "nDCG@10")]
        cells += [_number(r[c]["R@10"]) if c in r else "n/a" for c in labels]
        lines.append(_row(cells))
    return "\n".join(lines)


def _gate_label(name: str, result: dict[str, Any]) -> str:
    label = GATE_NAMES.get(name, name)
    if name in ("default", "memori_compat"):
        gate = (result.get("gates") or {}).get(name)
        if gate is None:  # a result written before gates were described
            threshold = result["injection"][name]["threshold"]
            gate = f"threshold {threshold}" if threshold is not None else "threshold off"
        label += f" ({gate})"
    return label


def injection_table(result: dict[str, Any]) -> str:
    """One row per gate: hit@k, R@1, facts per answerable query, clean abstentions, facts per abstention query
    ("n/a" where there are no queries of that kind)."""
    k = result["limit"]
    head = ["ranking / gate", f"hit@{k}", "R@1", f"R@{k}", "facts / answerable q", "clean abstentions",
            "facts / abstention q"]
    lines = [_row(head), "|" + "---|" * len(head)]
    for name in GATES:
        g = result["injection"][name]
        lines.append(_row([
            _gate_label(name, result), _number(g["hit@k"]), _number(g["R@1"]), _number(g.get("R@k")),
            _number(g["facts_per_answerable"], 2), _number(g["clean_abstentions"]),
            _number(g["facts_per_abstention"], 2),
        ]))
    return "\n".join(lines)


def _counts_line(result: dict[str, Any]) -> str:
    n = result["counts"]
    labels: dict[str, str] = result["category_labels"]
    per_cat = ", ".join(
        f"{c} = {labels[c]} (n={result['rankings']['default'][c]['n']})" if labels[c] != c
        else f"{c} (n={result['rankings']['default'][c]['n']})"
        for c in labels
    )
    return (f"{n['answerable']} questions with evidence, {n['abstention']} abstention questions, "
            f"{n['facts']} facts in {n['memories']} memories; categories: {per_cat}")


def _threshold_line(th: dict[str, Any]) -> str | None:
    if "evidence_kept" not in th:
        return None
    return (
        f"a rank-score threshold (gate='threshold') of {th['threshold']}: keeps {th['evidence_kept']:.1%} of the evidence in the top 10 "
        f"({th['evidence_kept_paraphrased']:.1%} if paraphrased with none of its words), removes "
        f"{th.get('non_evidence_removed', 0.0):.1%} of the rest; precision of what it keeps "
        f"{th['precision_of_kept']:.3f}. Largest threshold keeping >= 95% both ways: {th['calibrated']:.3f}"
    )


def _short_queries_table(sq: dict[str, Any]) -> str:
    lines = ["short queries (the question's rarest 1 / 2 words), R@10:",
             "| ranking | 1 word | 2 words |", "|---|---|---|"]
    for name in ("default", "memori_compat"):
        lines.append(f"| {name} | {sq[f'{name}@1']['R@10']:.3f} | {sq[f'{name}@2']['R@10']:.3f} |")
    return "\n".join(lines)


def _updates_line(updates: dict[str, Any]) -> str:
    """How often an update question's newest evidence ranked above its older evidence."""
    counts = ", ".join(f"{v['newest_first']} of {v['questions']} ({name})" for name, v in updates.items())
    return f"knowledge updates (evidence told at different times): the newest ranks above the older in {counts}"


def format_table(result: dict[str, Any]) -> str:
    """The whole report: rankings table, counts, injection table, threshold line, short queries."""
    parts = [
        f"rankings (threshold off, top 10; embedder {result['embedder']}):",
        rankings_table(result),
        _counts_line(result),
        f"injection (what recall() returns, limit {result['limit']}):",
        injection_table(result),
    ]
    threshold = _threshold_line(result.get("threshold") or {})
    if threshold:
        parts.append(threshold)
    if "updates" in result:
        parts.append(_updates_line(result["updates"]))
    if "short_queries" in result:
        parts.append(_short_queries_table(result["short_queries"]))
    return "\n\n".join(parts)


def progress_bar(done: int, total: int, what: str = "questions") -> None:
    """A progress bar on stderr saying what it counts.

    On a terminal it is one line, redrawn at each whole percent; elsewhere (a
    log file, CI) it is a new line at each quarter, so nothing is overwritten.
    """
    if total <= 0:
        return
    tty = sys.stderr.isatty()
    steps = 100 if tty else 4
    crossed = done > 0 and (steps * done) // total != (steps * (done - 1)) // total
    if not (done == total or crossed or (tty and done == 0)):
        return
    width = 40
    filled = int(width * done / total)
    line = f"[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {what}"
    if tty:
        sys.stderr.write("\r" + line + ("\n" if done == total else ""))
    else:
        sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _switch(state: dict[str, Any], on: str, missing: str) -> str:
    """How an optional engine feature was used in an app-memory run, in a few words."""
    if not state["requested"]:
        return "off"
    return on if state["used"] else f"off ({missing})"


def _against_the_gate(dropped: float | None, k: Any) -> str:
    """The end of ``memori eval app``'s headline: the ungated top ``k`` against what the gate injects, said either
    way (the gate can reach needed facts below the top ``k``, and then injects more of them)."""
    if dropped is None:
        return "."
    if round(dropped, 3) > 0:
        return f", {dropped:.3f} more than what the gate lets through."
    if round(dropped, 3) < 0:
        return (f", {-dropped:.3f} less than what the gate injects (it brings needed facts from below the top "
                f"{k}).")
    return ", as often as what the gate lets through."


def app_memory_table(result: dict[str, Any]) -> str:
    """The app-memory report: one row per turn kind, the totals, the headline line, one row per user."""
    k = result["limit"]
    context = _switch(result["context"], "earlier turns of the dialogue", "recall() takes no context= keyword")
    core = _switch(result["core"], "core facts added with core=True", "add() takes no core= keyword")
    head = ["kind", "turns", "needed-fact hit", "all-needed hit", "facts / turn", f"no gate: needed hit@{k}",
            f"no gate: all-needed@{k}", "off-topic clean"]
    lines = [_row(head), "|" + "---|" * len(head)]

    def row(label: str, s: dict[str, Any]) -> str:
        if s["n_needed"]:
            return _row([label, str(s["n_needed"]), _number(s["needed_hit"]), _number(s["all_needed_hit"]),
                         _number(s["facts_per_needed_turn"], 2), _number(s["no_gate_needed_hit"]),
                         _number(s["no_gate_all_needed_hit"]), "n/a"])
        return _row([label, str(s["n_offtopic"]), "n/a", "n/a", _number(s["facts_per_offtopic_turn"], 2),
                     "n/a", "n/a", _number(s["offtopic_clean"])])

    for kind, s in result["kinds"].items():
        if s["n_needed"] or s["n_offtopic"]:
            lines.append(row(kind, s))
    o = result["overall"]
    lines.append(row("all with needs", {**o, "n_offtopic": 0}))
    lines.append(row("all off-topic", {**o, "n_needed": 0}))
    n = result["counts"]
    dropped = (None if o["no_gate_needed_hit"] is None or o["needed_hit"] is None
               else o["no_gate_needed_hit"] - o["needed_hit"])
    headline = (
        f"needed-fact hit {_number(o['needed_hit'])}, all-needed hit {_number(o['all_needed_hit'])}, "
        f"follow-up hit {_number(o['followup_hit'])}, off-topic clean {_number(o['offtopic_clean'])}; "
        f"facts injected per turn: {_number(o['facts_per_needed_turn'], 2)} with needs, "
        f"{_number(o['facts_per_offtopic_turn'], 2)} off-topic. Without the gate the same ranking's top {k} "
        f"holds a needed fact for {_number(o['no_gate_needed_hit'])} of the turns with needs"
        + _against_the_gate(dropped, k)
    )
    users = [_row(["user", "facts", "turns", "needed-fact hit", "all-needed hit", "off-topic clean"]),
             "|---|---|---|---|---|---|"]
    for name, u in result["users"].items():
        users.append(_row([name, str(u["facts"]), str(u["turns"]), _number(u["needed_hit"]),
                           _number(u["all_needed_hit"]), _number(u["offtopic_clean"])]))
    return "\n\n".join([
        f"app memory ({result['name']}: {n['users']} users, {n['facts']} facts, {n['dialogues']} dialogues, "
        f"{n['turns']} turns; embedder {result['embedder']}; limit {k}; {result['gate']}; "
        f"context: {context}; core: {core}):",
        "\n".join(lines),
        headline,
        "\n".join(users),
    ])


def capture_table(result: dict[str, Any]) -> str:
    """The capture report: one row per category and the totals (precision of the stored durable valid
    facts, recall of the gold facts, stale facts still valid, and held in a longer fact, facts stored with an
    expiry)."""
    head = ["category", "conversations", "stored", "precision", "gold", "recall", "stale", "stale valid",
            "stale held", "expiring"]
    lines = [_row(head), "|" + "---|" * len(head)]

    def row(label: str, s: dict[str, Any]) -> str:
        return _row([label, str(s["conversations"]), str(s["stored"]), _number(s["precision"]), str(s["gold"]),
                     _number(s["recall"]), str(s["stale"]), _number(s["stale_valid_share"]),
                     _number(s["stale_held_share"]), str(s["expiring"])])

    for category, s in result["categories"].items():
        lines.append(row(category, s))
    lines.append(row("all", result["overall"]))
    o, m = result["overall"], result["match"]
    return "\n\n".join([
        f"capture ({result['name']}, extractor {result.get('extractor', '?')}; matching: {m['method']}, "
        f"match >= {m['match_cutoff']}, cover >= {m['cover_cutoff']})",
        "\n".join(lines),
        f"precision {_number(o['precision'])}, recall {_number(o['recall'])}, "
        f"stale facts still valid {_number(o['stale_valid_share'])} (held in a longer fact too: "
        f"{_number(o['stale_held_share'])})",
    ])


def capture_locomo_table(result: dict[str, Any]) -> str:
    """The LoCoMo observation report: per conversation and overall, stored facts and observations with
    precision and recall by evidence turn and by content (cosine)."""
    head = ["conversation", "sessions", "turns", "stored", "observations", "precision (turn)", "recall (turn)",
            f"precision (cos >= {result['cosine']})", f"recall (cos >= {result['cosine']})"]
    lines = [_row(head), "|" + "---|" * len(head)]
    for label, s in [(c["conversation"], c) for c in result["conversations"]] + [("all", result["overall"])]:
        lines.append(_row([label, str(s["sessions"]), str(s["turns"]), str(s["stored"]), str(s["observations"]),
                           _number(s["precision_turn"]), _number(s["recall_turn"]),
                           _number(s["precision_content"]), _number(s["recall_content"])]))
    o = result["overall"]
    return "\n\n".join([
        f"capture vs LoCoMo observations ({result['name']}, extractor {result['extractor']}, embedder "
        f"{result['embedder']})",
        "\n".join(lines),
        f"by turn: precision {_number(o['precision_turn'])}, recall {_number(o['recall_turn'])}; by content: "
        f"precision {_number(o['precision_content'])}, recall {_number(o['recall_content'])}",
    ])
