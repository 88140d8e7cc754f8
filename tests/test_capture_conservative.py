"""The rules' storing policy: ``RuleBasedFactExtractor(policy="strict")`` captured into a real embedded Chroma store
(what it keeps, what it drops that ``"broad"`` stores), the rule path every kept fact reports, and the policy's
checks (the extractor, ``check_extractor``)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from _capture import SAID_AT, ended_texts, valid_texts
from _helpers import ungated_engine
from memori_core import RuleBasedFactExtractor, capture_facts
from memori_core.capture import check_extractor
from memori_core.extraction import ExtractedFact, Message
from memori_core.extraction.provenance import FACT_PATHS, fact_topic, policy_keeps

STRICT = RuleBasedFactExtractor(policy="strict")
BROAD = RuleBasedFactExtractor()


def _stored(extractor: RuleBasedFactExtractor, *turns: str) -> tuple[list[str], list[str]]:
    """Each of ``turns`` captured in order with ``extractor`` into a new engine over embedded Chroma, said a
    second apart from :data:`SAID_AT`; the user's valid and ended facts afterwards."""
    engine = ungated_engine()
    for n, turn in enumerate(turns):
        capture_facts(engine, "u1", [("user", turn)], extractor, created_at=SAID_AT.replace(second=n))
    return valid_texts(engine), ended_texts(engine)


@dataclass(frozen=True)
class _Stored:
    id: str
    content: str


# -- what strict keeps ----------------------------------------------------------------


def test_strict_stores_facts_of_recognised_slots_care_and_the_users_name() -> None:
    valid, _ = _stored(STRICT, "I live in Porto.", "I'm allergic to peanuts.", "I work at Google.",
                       "I'm Maya, by the way.", "My daughter Mia is 7.")
    assert valid == ["User is allergic to peanuts.", "User lives in Porto.", "User works at Google.",
                     "User's daughter Mia is 7.", "User's name is Maya."]


def test_strict_stores_who_someone_in_the_users_life_is() -> None:
    assert _stored(STRICT, "My sister is Eva.")[0] == ["User's sister is Eva."]


def test_strict_still_supersedes_a_stored_fact_on_a_change() -> None:
    valid, ended = _stored(STRICT, "I live in Lisbon.", "I moved to Porto last month.")
    assert valid == ["User lives in Porto."]
    assert ended == ["User lives in Lisbon."]


def test_strict_keeps_a_plan_with_its_expiry() -> None:
    engine = ungated_engine()
    capture_facts(engine, "u1", [("user", "I have a dentist appointment tomorrow at 4pm.")], STRICT,
                  created_at=SAID_AT)
    facts = engine.list("u1")
    assert [f.content for f in facts] == ["User has a dentist appointment on Saturday 2026-08-08 at 4pm."]
    assert facts[0].expires_at is not None


def test_strict_keeps_news_of_someone_the_stored_facts_name_though_no_slot_holds_it() -> None:
    # "named" is a recognised path: strict reads only the generic rewrite by its topic
    facts = STRICT.extract([("user", "Pretzel died.")], [_Stored("old", "User has a beagle called Pretzel.")])
    assert [(f.text, f.path, f.supersedes) for f in facts] == [("User's beagle Pretzel died.", "named", ("old",))]
    assert fact_topic(facts[0].text) == "other"


def test_strict_keeps_a_rewrite_outside_the_slots_when_it_ends_a_stored_fact() -> None:
    facts = STRICT.extract([("user", "I don't play the violin anymore.")],
                           [_Stored("old", "User plays the violin.")])
    assert [(f.text, f.supersedes) for f in facts] == [("User doesn't play the violin anymore.", ("old",))]


# -- what strict drops ----------------------------------------------------------------


@pytest.mark.parametrize("said, broad", [
    ("I'm sleeping really well.", "User is sleeping really well."),
    ("I'm a bus person.", "User is a bus person."),
    ("My sister Dana is mad about curling.", "User's sister Dana is mad about curling."),
])
def test_strict_drops_a_generic_rewrite_in_no_recognised_slot_that_broad_stores(said: str, broad: str) -> None:
    assert _stored(BROAD, said)[0] == [broad]
    assert _stored(STRICT, said)[0] == []


def test_strict_drops_only_the_unslotted_clause_of_a_message() -> None:
    said = "I live in Leeds and I'm sleeping really well."
    assert _stored(BROAD, said)[0] == ["User is sleeping really well.", "User lives in Leeds."]
    assert _stored(STRICT, said)[0] == ["User lives in Leeds."]


def test_strict_drops_a_generic_rewrite_that_ends_nothing_stored() -> None:
    # the same sentence as above, with no stored fact for it to end
    assert STRICT.extract([("user", "I don't play the violin anymore.")]) == []


# -- the paths ------------------------------------------------------------------------


@pytest.mark.parametrize("said, path", [
    ("I live in Porto.", "rewrite"),
    ("I'm Maya, by the way.", "name"),
    ("I have a meeting tomorrow at 3pm.", "plan"),
    ("day 40 without a cigarette", "life_event"),
    ("met someone! his name is Marco", "retold"),
    ("Job: ER doctor.", "label"),
    ("I think I'm allergic to cats.", "as_said"),
])
def test_every_kept_fact_reports_the_rule_path_that_found_it(said: str, path: str) -> None:
    facts = BROAD.extract([Message("user", said, created_at=SAID_AT)])
    assert facts and {f.path for f in facts} == {path}
    assert path in FACT_PATHS


def test_who_a_plan_names_reports_its_own_path_beside_the_plans() -> None:
    facts = BROAD.extract([Message("user", "My sister Eva and I are going to Rome in May", created_at=SAID_AT)])
    assert [(f.text, f.path) for f in facts] == [
        ("User and their sister Eva are going to Rome in May 2027.", "plan"), ("User's sister is Eva.", "plan_names")]


def test_explain_paths_gives_explains_verdicts_with_a_path_for_each_kept_fact() -> None:
    said = "Hi! I live in Porto. Can you help me?"
    paired = BROAD.explain_paths(said)
    assert [v for v, _ in paired] == BROAD.explain(said)
    assert [(v.fact, path) for v, path in paired if v.fact is not None] == [("User lives in Porto.", "rewrite")]
    assert all(path is None for v, path in paired if v.fact is None)


def test_a_facts_path_is_not_part_of_its_equality_nor_of_its_repr() -> None:
    assert ExtractedFact("User is vegan.", path="rewrite") == ExtractedFact("User is vegan.")
    assert "path" not in repr(ExtractedFact("User is vegan.", path="rewrite"))


def test_strict_returns_the_same_facts_as_broad_minus_those_it_drops() -> None:
    said = "I'm Maya. I live in Leeds, I'm a bus person, and I'm allergic to shellfish."
    broad = BROAD.extract([("user", said)])
    strict = STRICT.extract([("user", said)])
    assert strict == [f for f in broad if policy_keeps("strict", f)]
    assert len(strict) < len(broad)


@pytest.mark.parametrize("text, topic", [
    ("User's name is Maya.", "name"),
    ("User is allergic to peanuts.", "care"),
    ("User lives in Porto.", "slot"),
    ("User's sister is Eva.", "person"),
    ("User's sister Dana is mad about curling.", "someone"),
    ("User's sister Dana is over in Regina.", "slot"),  # her home, told the chat way (issue 21, cap38)
    ("User is sleeping like a baby.", "other"),
])
def test_fact_topic_names_the_part_of_the_users_life_a_fact_speaks_of(text: str, topic: str) -> None:
    assert fact_topic(text) == topic


def test_a_fact_with_no_path_is_stored_by_broad_only() -> None:
    fact = ExtractedFact("User lives in Porto.")
    assert policy_keeps("broad", fact) and not policy_keeps("strict", fact)


# -- the option's checks --------------------------------------------------------------


@pytest.mark.parametrize("bad", ["lenient", "STRICT", None, 1])
def test_an_unknown_policy_is_refused_naming_the_argument(bad: object) -> None:
    with pytest.raises(ValueError, match="policy"):
        RuleBasedFactExtractor(policy=bad)  # type: ignore[arg-type]


def test_the_default_policy_is_broad() -> None:
    assert RuleBasedFactExtractor().policy == "broad"


def test_check_extractor_gives_the_default_rules_storing_by_the_policy() -> None:
    chosen = check_extractor(None, policy="strict")
    assert isinstance(chosen, RuleBasedFactExtractor) and chosen.policy == "strict"
    assert check_extractor(None).policy == "broad"  # type: ignore[attr-defined]


def test_check_extractor_refuses_a_policy_beside_an_extractor_of_ones_own() -> None:
    with pytest.raises(ValueError, match="policy"):
        check_extractor(BROAD, policy="strict")
    assert check_extractor(STRICT) is STRICT
    with pytest.raises(ValueError, match="policy"):
        check_extractor(None, policy="lenient")
