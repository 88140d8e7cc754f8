"""How people tell of a diagnosis or a new medicine, read as the plain statement it means.

A chat rarely says "I have gestational diabetes." It says "had my glucose test today and they say I have
gestational diabetes", "GP did bloods and says I'm anaemic", "just been diagnosed with type 2", "she put me on
ferrous sulphate", "my HbA1c is up so she's added gliclazide, one in the morning". :func:`as_diagnosis` reads such
a clause as "I have gestational diabetes", "I'm anaemic", "I've been diagnosed with type 2 diabetes", "I take
ferrous sulphate", "I take gliclazide, one in the morning"; the rules then rewrite it ("User has gestational
diabetes.") and mark it core when it is a condition or a medicine (:mod:`.core_facts`).

Only what a clinician or a test found, of a lasting condition, is read so: "they say I have a good chance",
"she put me on the rota", "the doctor says I have a cold" (it passes) are not. Pure: patterns, English only.
"""

from __future__ import annotations

import re

from ..number_words import number_words
from ..ranking.care import is_care_fact
from .leads import CLINICIAN
from .patterns import rx
from .restated import as_own_treatment

__all__ = ["LASTING_CONDITION", "MEDICINE_FORMS", "as_diagnosis", "is_lasting_condition", "is_medicine"]

LASTING_CONDITION = (
    r"(?:(?:type\s*[12]|gestational|pre-?|borderline|adult[\s-]onset)\s+)?diabet(?:es|ic)|pre-?diabet(?:es|ic)|"
    r"ana?emi(?:a|c)|iron[\s-]deficien(?:t|cy)(?:\s+ana?emia)?|"
    r"(?:vitamin\s+(?:b12|d)|b12|folate)[\s-]deficien(?:t|cy)|"
    r"coeliac(?:\s+disease)?|celiac(?:\s+disease)?|asthma(?:tic)?|epilep(?:sy|tic)|"
    r"(?:an?\s+)?(?:under|over)active\s+thyroid|hypo-?thyroid(?:ism)?|hyper-?thyroid(?:ism)?|hashimoto'?s|"
    r"graves'?\s+disease|"
    r"high\s+blood\s+pressure|hypertension|high\s+cholesterol|(?:atrial\s+fibrillation|af|afib)|angina|"
    r"heart\s+failure|(?:chronic\s+)?kidney\s+disease|ckd|fatty\s+liver(?:\s+disease)?|gout|"
    r"(?:rheumatoid\s+|osteo-?|psoriatic\s+)?arthritis|osteoporosis|lupus|fibromyalgia|"
    r"multiple\s+sclerosis|ms|parkinson'?s(?:\s+disease)?|crohn'?s(?:\s+disease)?|(?:ulcerative\s+)?colitis|ibs|"
    r"irritable\s+bowel(?:\s+syndrome)?|pcos|polycystic\s+ovar(?:y|ies)(?:\s+syndrome)?|endometriosis|"
    r"(?:sleep\s+)?apno?ea|adhd|autism|autistic|dyslexi(?:a|c)|depression|anxiety|bipolar(?:\s+disorder)?|"
    r"long\s+covid|psoriasis|eczema|migraines|glaucoma|cataracts|tinnitus|pre-?eclampsia|obstetric\s+cholestasis|"
    r"lactose\s+intoleran(?:t|ce)|gluten\s+intoleran(?:t|ce)|allergic\s+to\s+[\w\s-]{2,30}|(?:an?\s+)?\w+\s+allergy|"
    r"(?:a\s+)?hiatus\s+hernia|cancer|(?:breast|prostate|bowel|skin|lung)\s+cancer|leuka?emia|lymphoma|copd|"
    r"(?:(?:early|young)[\s-]onset\s+|vascular\s+|frontotemporal\s+|lewy\s+body\s+|mixed\s+)?(?:dementia|"
    r"alzheimer'?s(?:\s+disease)?)|motor\s+neurone?\s+disease|mnd|macular\s+degeneration|huntington'?s(?:\s+disease)?"
)
"""A regex alternation of lasting conditions a diagnosis names ("gestational diabetes", "anaemic", "an underactive
thyroid"); no passing illness ("a cold", "flu", "a chest infection")."""

_LASTING = re.compile(rf"^(?:(?:mild|severe|mildly|severely|quite|a\s+bit|slightly|very)\s+)?(?:{LASTING_CONDITION})"
                      r"(?:\s+(?:now|too|as\s+well|again))?\s*[.!]*$", re.IGNORECASE)


def is_lasting_condition(words: str) -> bool:
    """Whether ``words`` ("gestational diabetes", "anaemic", "mildly asthmatic") name a lasting condition only."""
    return bool(_LASTING.match(words.strip()))


# What names a medicine beside the drug names the care rule knows: its form ("iron tablets", "a steroid inhaler"),
# its salt ("ferrous sulphate", "amlodipine besylate"), a kind of medicine ("antibiotics", "HRT").
MEDICINE_FORMS = r"tablets?|pills?|capsules?|injections?|jabs?|inhalers?|puffers?|patch(?:es)?"
"""The forms a medicine comes in, as a regex alternation: a word that names no drug of its own ("my tablets")."""
_MEDICINE_WORD = rx(
    rf"\b(?:{MEDICINE_FORMS}|pessar(?:y|ies)|"
    r"suppositor(?:y|ies)|eye\s*drops|nasal\s+spray|sulphate|sulfate|fumarate|gluconate|hydrochloride|citrate|"
    r"carbonate|succinate|maleate|besylate|besilate|mesylate|tartrate|phosphate|sodium|potassium|antibiotics?|"
    r"steroids?|antidepressants?|antihistamines?|painkillers?|statins?|hrt|folic\s+acid|vitamin\s+(?:b12|d|d3)|b12|"
    r"iron|co-\w+|insulin)\b"
)


def is_medicine(words: str) -> bool:
    """Whether ``words`` ("ferrous sulphate", "gliclazide", "iron tablets") name a medicine: a drug the care rule
    knows (:func:`~memori_core.ranking.care.is_care_fact`), or a medicine's form, salt or kind."""
    return is_care_fact(f"User takes {words}.") or bool(_MEDICINE_WORD.search(words))

# Who reports a finding: a clinician ("GP", "the consultant"), "they", "she", "he", or a test ("the bloods",
# "the results", "the scan").
_CLINICIAN_NOUN = rf"(?:(?:the|my|our|her|his)\s+)?(?:new\s+)?(?:{CLINICIAN})"
_REPORTER = rf"(?:{_CLINICIAN_NOUN}|they|she|he)"
_TEST = (r"(?:the|my)\s+(?:blood\s+)?(?:tests?|bloods|results|scan|biopsy|glucose\s+test|blood\s+work|"
         r"x-?ray|mri|ultrasound)")
# "they say I have X", "GP did bloods and says I'm anaemic", "the results show I'm anaemic", "doctor confirmed I've
# got asthma": what a clinician or a test found, the user's statement after it.
_FOUND = rx(
    rf"(?:^|,\s*|\b(?:and|so|but)\s+)(?:(?P<who>{_REPORTER})\s+(?:(?:\w+\s+){{1,3}}?and\s+)?"
    r"(?:(?:have|has)\s+)?(?:says?|said|told\s+me|confirmed|reckons?|thinks?|think|diagnosed\s+me\s+with)"
    rf"|(?P<test>{_TEST})\s+(?:(?:have|has)\s+)?(?:shows?|showed|say|says|said|confirmed|"
    r"came\s+back\s+(?:and\s+)?(?:says?|said|showing)))(?:\s+that)?\s+(?P<said>.+)$"
)
# "Got the blood results back - iron deficiency anaemia", "my results came back and it's coeliac disease", "Results
# are back, it's type 2 diabetes": a test's results back, then what they found.
_RESULTS_BACK = rx(
    r"^(?:(?:i|we)\s+)?(?:(?:just|finally)\s+)?(?:(?:got|had|have\s+got|have)\s+)?(?:(?:the|my|our)\s+)?"
    r"(?:blood\s+|test\s+|scan\s+|biopsy\s+)?(?:tests?|bloods|results|blood\s*work|scan|biopsy)(?:\s+results)?\s+"
    r"(?:(?:are|is|have|has)\s+)?(?:(?:came|come)\s+)?back(?:\s+(?:today|yesterday|now|finally))?"
    r"(?:\s*[-:,\u2014\u2013]+\s*|\s+and\s+)(?:(?:it's|its|it\s+is|it\s+was|they\s+(?:show|showed|say|said))\s+)?"
    r"(?P<what>\S.*)$"
)
# The user's statement of a condition: "I have X", "I've got X", "I'm X", "I am X", "it's X" (of a test).
_HAS = rx(r"^(?:i\s+(?:have|am|definitely\s+have)|i've\s+got|i'm|i\s+have\s+got|i've|it's|it\s+is|its)\s+"
          r"(?P<what>.+?)\s*[.!]*$")
# "diagnosed me with X": the finding as a noun.
_DIAGNOSED = rx(
    r"^(?:(?:i|i've|i\s+have|i'm|i\s+was|i\s+got|have|was)\s+)?(?:(?:just|recently|finally|officially|now)\s+)?"
    r"(?:been\s+|got\s+|was\s+)?diagnosed\s+with\s+(?P<what>.+?)"
    r"(?P<when>\s+(?:(?:last|this|on)\s+\w+|yesterday|today|recently|(?:back\s+)?in\s+\w+(?:\s+\d{4})?|"
    r"(?:a\s+(?:few|couple\s+of)|two|three|four|\d+|a)\s+(?:days?|weeks?|months?|years?)\s+ago))?"
    r"\s*[.!]*$"
)
# A medicine one uses rather than takes: "a steroid inhaler", "HRT patches", "eye drops".
_USED = rx(r"\b(?:inhalers?|puffers?|patch(?:es)?|drops|spray|pessar(?:y|ies)|creams?|gels?)\s*$")
# "she put me on ferrous sulphate", "GP's added gliclazide", "he started me on iron tablets", "the consultant prescribed
# me statins": a medicine begun, with who began it.
_BEGUN = rx(
    rf"(?:^|,\s*|\b(?:and|so|but)\s+)(?P<who>{_REPORTER})(?:'s|'ve|\s+has|\s+have)?\s+(?:(?:just|now|also)\s+)?"
    r"(?:put\s+me\s+on|started\s+me\s+on|added|prescribed(?:\s+me)?|gave\s+me|given\s+me)\s+"
    r"(?:(?:a\s+course\s+of|some|a\s+prescription\s+for)\s+)?(?P<drug>[\w-]+(?:\s+[\w-]+){0,2}?)"
    rf"(?P<tail>\s*(?:,\s*|\s+)(?:to\s+take\s+)?(?:{number_words('three')}|half|\d+\s*(?:mg|mcg|ml)?|once|twice|"
    r"three\s+times|daily|every|each|in\s+the\s+(?:morning|evening)|at\s+night|"
    r"with\s+(?:breakfast|food|meals|dinner))\b"
    r"[^,.!?]{0,50})?"
    r"\s*[.!]*$"
)
_NOT_DOSE_START = rx(r"^(?:a|an|the|my|me|to)\b")


# Where the statement of a condition ends and another clause starts: "I have gestational diabetes, so I've been told
# to ...", "I'm anaemic and she put me on iron".
_NEXT_CLAUSE = rx(r"\s*(?:[,;]\s*|\s+-\s+|\s+(?:and|so|but)\s+)(?=(?:and\s+|so\s+|but\s+)?\w+\b\s*(?:'\w+)?\s*\S)")


def _condition(said: str) -> tuple[str, str] | None:
    """The user's statement of a lasting condition at the start of ``said`` ("I have gestational diabetes" ->
    itself, "it's gestational diabetes" -> "I have gestational diabetes"), and what ``said`` goes on with after it
    (``""`` when nothing); ``None`` when it starts with no such statement."""
    for cut in [*(m.start() for m in _NEXT_CLAUSE.finditer(said)), len(said)]:
        head = said[:cut].strip()
        m = _HAS.match(head)
        if m is None or not is_lasting_condition(m.group("what")):
            continue
        what = m.group("what").rstrip(" .!")
        rest = re.sub(r"^[\s,;-]*(?:(?:and|so|but)\s+)?", "", said[cut:]).strip()
        if head.split()[0].lower() in ("it's", "it", "its"):
            adjective = re.search(r"(?:ic|ed|ant|ent)$", what, re.IGNORECASE) is not None
            return (f"I'm {what}" if adjective else f"I have {what}"), rest
        return re.sub(r"\s*[.!]+$", "", head), rest
    return None


def _medicine(said: str) -> tuple[str, int] | None:
    """The plain statement of a medicine begun in ``said`` ("she put me on ferrous sulphate" -> "I take ferrous
    sulphate") and where its telling starts; ``None`` when ``said`` tells of none."""
    begun = _BEGUN.search(said)
    if begun is None or (begun.start() == 0 and as_own_treatment(said) is not None):
        return None  # "The doctor put me on statins": the rules read it as "I'm on statins"
    drug, tail = begun.group("drug"), (begun.group("tail") or "").strip(" ,")
    pronoun = begun.group("who").lower() in ("they", "she", "he")
    if not is_medicine(drug) and (pronoun or _NOT_DOSE_START.match(drug) or _NOT_A_MEDICINE.search(drug)):
        return None
    verb = "use" if _USED.search(drug) else "take"
    return (f"I {verb} {drug}, {tail}" if tail else f"I {verb} {drug}"), begun.start()


_NOT_A_MEDICINE = rx(r"\b(?:list|rota|diet|plan|course|programme|program|scheme|register)\b")


# The condition a medicine is for, said after it: "... because I'm anaemic", "... for iron deficiency anaemia", ",
# turns out I'm anaemic".
_REASON = rx(
    r"\s*,?\s+(?:because|as|since|cos|'cause)\s+(?=(?:i'm|i\s+am|im|i\s+have|i've\s+got|it's)\s)"
    rf"|\s+for\s+(?=(?:an?\s+|my\s+|the\s+)?(?:{LASTING_CONDITION})\s*[.!]*$)"
    r"|\s*,\s*(?:it\s+)?turns\s+out\s+(?=(?:i'm|i\s+am|im|i\s+have|i've\s+got|it's)\s)"
)
# A medicine told in the part before the reason: "the GP has put me on ferrous sulphate", "I've been put on
# levothyroxine", "I'm on metformin".
_ON_MEDICINE = rx(r"\b(?:put|started)\s+(?:me\s+)?on\s+(?P<drug>.+)$|\bprescribed\s+(?:me\s+)?(?P<drug2>.+)$"
                  r"|^(?:i'm|i\s+am|im|i've\s+been)\s+on\s+(?P<drug3>.+)$|^i\s+take\s+(?P<drug4>.+)$")
_NO_DRUG_NAMED = rx(r"^(?:(?:some|a|my|the|new)\s+)*(?:medication|meds|medicine|tablets|pills|treatment|something)\b")


def _for_a_condition(text: str) -> list[str] | None:
    """``text`` when it tells a medicine and then the lasting condition it is for ("the GP has put me on ferrous
    sulphate because I'm anaemic", "they've started me on iron tablets for iron deficiency anaemia") as the
    condition and the medicine, in that order (``["I'm anaemic", "I take ferrous sulphate"]``); ``None`` otherwise."""
    reason = _REASON.search(text)
    if reason is None:
        return None
    head, why = text[: reason.start()].strip(" ,"), re.sub(r"^(?:my|the)\s+", "", text[reason.end():].strip(),
                                                             flags=re.IGNORECASE)
    on = _ON_MEDICINE.search(head)
    drug = next((d for d in on.groups() if d is not None), "") if on is not None else ""
    if not is_medicine(drug) or _NO_DRUG_NAMED.match(drug):
        return None  # "I'm on medication for high blood pressure" says it whole
    condition = _condition(why if _HAS.match(why) else f"it's {why}")
    if condition is None or condition[1]:
        return None
    return [condition[0], *(as_diagnosis(head) or [as_own_treatment(head) or head])]


# A remark on the diagnosis after it: "... which explains a lot", "..., that explains the tiredness".
_REMARK = rx(r"\s*,?\s+(?:which|that|this)\s+(?:explains|would\s+explain|makes\s+sense|is\s+why)\b.*$")

def as_diagnosis(said: str) -> list[str] | None:
    """``said`` (one clause, its lead cut) as the plain statements of the diagnosis and the medicine it tells of
    ("they say I have gestational diabetes" -> ``["I have gestational diabetes"]``, "GP says I'm anaemic, she put
    me on iron tablets" -> ``["I'm anaemic", "I take iron tablets"]``), with what it goes on to say after the
    diagnosis; ``None`` when it tells of neither.

    >>> as_diagnosis("GP did bloods and says I'm anaemic")
    ["I'm anaemic"]
    >>> as_diagnosis("they say I have a good chance") is None
    True
    """
    text = _REMARK.sub("", said.strip()).rstrip(" .!")  # "it's coeliac disease which explains a lot"
    reasoned = _for_a_condition(text)
    if reasoned is not None:
        return reasoned
    medicine = _medicine(text)
    head = text[: medicine[1]] if medicine is not None else text
    told: list[str] = []
    found = _FOUND.search(head)
    if found is not None:
        if re.search(r"diagnosed\s+me\s+with$", head[: found.start("said")].strip(), re.IGNORECASE):
            condition = _condition(f"I have {found.group('said')}")
        else:
            condition = _condition(found.group("said"))
        if condition is not None:
            told += [condition[0], *([condition[1]] if condition[1] else [])]
    results = _RESULTS_BACK.match(head.strip(" ,"))
    if not told and results is not None:  # "Got the blood results back - iron deficiency anaemia"
        condition = _condition(f"it's {results.group('what')}")
        if condition is not None:
            told += [condition[0], *([condition[1]] if condition[1] else [])]
    diagnosed = _DIAGNOSED.match(head.strip(" ,"))
    if not told and diagnosed is not None and is_lasting_condition(diagnosed.group("what")):
        when = diagnosed.group("when")  # "last month": when it was found, written out by the rules
        told.append(f"I was diagnosed with {diagnosed.group('what')}{when}" if when
                    else f"I've been diagnosed with {diagnosed.group('what')}")
    if medicine is not None:
        own = _condition(head.strip(" ,")) if not told else None  # "I'm anaemic, she put me on iron tablets"
        if own is not None and not own[1]:
            told.append(own[0])
        elif not told and head.strip(" ,") and not re.match(r"\s*so\b", text[medicine[1]:], re.IGNORECASE):
            told.append(head.strip(" ,"))  # not the reason for it: "my HbA1c is up so she's added gliclazide"
        told.append(medicine[0])
    return told or None
