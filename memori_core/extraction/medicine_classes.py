"""What a medicine is: the kinds people name medicines by ("the statins", "my blood thinners", "beta blockers") and
what a medicine is for (:data:`MEDICINE_USES`), each with the names and name endings of the medicines it holds.

"I stopped taking the statins" after "User takes atorvastatin every evening." names the stored medicine by its
kind: :func:`medicines_of_kind_named` gives the stored medicine's words so that the stop ends it, as "I stopped
taking atorvastatin" does. A kind holds only the common medicines of it; one not listed ends nothing. Pure:
patterns, English only.
"""

from __future__ import annotations

import re

from ..ranking.care import DRUG_ENDINGS
from .cues import content_words
from .patterns import rx

__all__ = ["MEDICINE_KINDS", "MEDICINE_USES", "medicines_of_kind_named"]


def _ending_in(use: str) -> str:
    """A drug's name with an ending of the drugs for ``use`` (:data:`~memori_core.ranking.care.DRUG_ENDINGS`, the
    table the care rule reads drugs by), as a regex."""
    return rf"\w+(?:{'|'.join(DRUG_ENDINGS[use])})"


_BLOOD_PRESSURE = (rf"{_ending_in('blood pressure')}|ramipril|norvasc|zestril|diovan|cozaar|lasix|"
                   r"doxazosin|indapamide")
_MOOD = (rf"{_ending_in('mood')}|sertraline|citalopram|mirtazapine|bupropion|zoloft|"
         r"lustral|prozac|lexapro|cipralex|celexa|paxil|seroxat|wellbutrin|cymbalta|effexor")
_CHOLESTEROL = rf"{_ending_in('cholesterol')}|lipitor|crestor|zocor|ezetimibe"
_BLOOD_SUGAR = (rf"{_ending_in('blood sugar')}|gli[a-z]+ide|insulin|ozempic|mounjaro|januvia|"
                r"jardiance|farxiga|forxiga|trulicity|victoza")
_ACID = rf"{_ending_in('stomach acid')}|nexium|prilosec|losec|protonix"
_THINNING = rf"{_ending_in('blood thinning')}|warfarin|clopidogrel|eliquis|xarelto|coumadin|plavix|pradaxa"

MEDICINE_USES: dict[str, re.Pattern[str]] = {
    "blood pressure": rx(rf"\b(?:{_BLOOD_PRESSURE})\b"),
    "mood": rx(rf"\b(?:{_MOOD})\b"),
    "cholesterol": rx(rf"\b(?:{_CHOLESTEROL})\b"),
    "stomach acid": rx(rf"\b(?:{_ACID})\b"),
    "blood sugar": rx(rf"\b(?:{_BLOOD_SUGAR})\b"),
    "blood thinning": rx(rf"\b(?:{_THINNING})\b"),
}
"""What a medicine is for -> the names and name endings of the medicines for it: two of one use are taken one at
a time, so a swap told with a pointer ends the stored one of the new one's use (:mod:`.medicine_switches`)."""

_MEDS = r"(?:meds?|medications?|medicines?|pills?|tablets?|drugs?)"
MEDICINE_KINDS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (rx(r"\bstatins?\b"), rx(r"\b(?:\w+statin|lipitor|crestor|zocor|pravachol|livalo)\b")),
    (rx(rf"\bcholesterol\s+{_MEDS}"), MEDICINE_USES["cholesterol"]),
    (rx(r"\b(?:blood[\s-]+thinners?|anti-?coagulants?)\b"), MEDICINE_USES["blood thinning"]),
    (rx(r"\bbeta[\s-]?blockers?\b"), rx(r"\b\w+olol\b")),
    (rx(r"\b(?:ace[\s-]+inhibitors?)\b"), rx(r"\b(?:\w+pril|zestril)\b")),
    (rx(r"\b(?:ppis?|proton[\s-]+pump\s+inhibitors?|acid\s+(?:reducers?|blockers?))\b"),
     rx(r"\b(?:\w+prazole|nexium|prilosec|losec|protonix)\b")),
    (rx(rf"\b(?:blood\s+pressure|bp|hypertension)\s+{_MEDS}"), MEDICINE_USES["blood pressure"]),
    (rx(rf"\b(?:anti-?depressants?|ssris?|snris?|(?:depression|anxiety|mood)\s+{_MEDS})"), MEDICINE_USES["mood"]),
    (rx(rf"\b(?:diabetes|blood\s+sugar)\s+{_MEDS}"), MEDICINE_USES["blood sugar"]),
    (rx(rf"\b(?:anti-?histamines?|(?:allergy|hay\s*fever)\s+{_MEDS})"),
     rx(r"\b(?:cetirizine|levocetirizine|loratadine|desloratadine|fexofenadine|diphenhydramine|chlorphenamine|"
        r"zyrtec|claritin|clarityn|allegra|benadryl|piriton)\b")),
    (rx(r"\b(?:painkillers?|pain\s+(?:meds?|medications?|pills?|killers?))\b"),
     rx(r"\b(?:ibuprofen|paracetamol|acetaminophen|naproxen|codeine|co-codamol|tramadol|oxycodone|tylenol|advil|"
        r"nurofen|aleve)\b")),
    (rx(rf"\bthyroid\s+{_MEDS}"), rx(r"\b(?:levothyroxine|thyroxine|synthroid|eltroxin|euthyrox)\b")),
)
"""The kinds a medicine is named by ("statins", "blood thinners", "blood pressure pills") -> the names and name
endings of the common medicines of that kind."""


def medicines_of_kind_named(text: str, stored: str) -> frozenset[str]:
    """The stemmed words of the medicines in ``stored`` that are of a kind ``text`` names (``{"atorvastatin"}`` for
    "User stopped taking the statins." and "User takes atorvastatin every evening."); empty when ``text`` names
    no kind, or ``stored`` no medicine of it.

    >>> sorted(medicines_of_kind_named("User stopped the statins.", "User takes atorvastatin daily."))
    ['atorvastatin']
    >>> sorted(medicines_of_kind_named("User stopped the statins.", "User takes warfarin daily."))
    []
    """
    return frozenset(word for kind, members in MEDICINE_KINDS if kind.search(text)
                     for m in members.finditer(stored) for word in content_words(m.group(0)))
