"""Secrets in an extracted fact: :func:`secret_in` says which kind; capture drops such facts before it stores a turn
(stored, a password or a card number would be kept for good and injected into later prompts, so sent to the model
provider on every turn that recalls it)."""

from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter


# A password-like word, then its value: "password is hunter2", "PIN: 4821", "Netflix password for the TV is ...".
_SECRET_WORD = (r"(?:pass(?:word|code|phrase)s?|passwd|pwd"
                r"|(?:door|alarm|gate|safe|security|access|login|unlock|verification)\s+code)")
# What a password "is" when the fact describes it rather than gives it: "password is too weak", "was reset".
_NOT_A_VALUE = (r"(?!(?:not|n't|too|very|weak|strong|easy|hard|long|short|expired|wrong|incorrect|correct|saved"
                r"|stored|written|kept|changed|reset|locked|secure|safe|same|the\s+same|a\s+secret|private)(?![\w-]))")
_IS = rf"\s*(?:\bis\b|\bwas\b|:|=)\s*{_NOT_A_VALUE}\S"
_STATED_SECRET = re.compile(rf"\b{_SECRET_WORD}(?:\s+(?:for|to|on|of|at)\s+[^.;:=]{{1,40}}?)?{_IS}", re.IGNORECASE)
_SECRET_AS = re.compile(rf"\S\s+as\s+(?:my|their|his|her|your|the|a|our)\s+(?:\w+\s+)?{_SECRET_WORD}\b",
                        re.IGNORECASE)
# A PIN: "PIN" in capitals with any value, "pin"/"pin code"/"pin number" only with a number (a lapel pin is not).
_PIN = re.compile(rf"\bPIN\b(?:\s+(?:code|number))?{_IS}"
                  r"|\b[Pp]in(?:\s+(?:code|number))?\s*(?:\bis\b|\bwas\b|:|=)\s*\d{3,12}\b")
# An API key or token named as such, with a value carrying a digit: "API key is abc123XYZ".
_NAMED_KEY = re.compile(
    r"\b(?:api[\s_-]?key|(?:access|auth|bearer|refresh|session|api|github|personal\s+access)[\s_-]?token"
    r"|secret(?:[\s_-]?key)?|client[\s_-]?secret|private[\s_-]?key|token)\s*(?:\bis\b|:|=)\s*(?=\S*\d)\S{6,}",
    re.IGNORECASE)
# Vendors' key formats: OpenAI / Anthropic "sk-...", GitHub "ghp_...", Slack "xoxb-...", AWS "AKIA...", Google
# "AIza...", GitLab "glpat-...", Hugging Face "hf_...", Stripe "rk_live_...", a JWT, a PEM private key.
_KEY_FORMAT = re.compile(
    r"(?<![\w-])(?:sk-(?:[a-z]+-)*[A-Za-z0-9_-]{16,}|(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}"
    r"|github_pat_[A-Za-z0-9_]{20,}|xox[abprs]-[A-Za-z0-9-]{10,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}"
    r"|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{30,}|[rs]k_(?:live|test)_[A-Za-z0-9]{16,}"
    r"|eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+)"
    r"|-----BEGIN [A-Z ]*PRIVATE KEY-----")
# A long run of key-like characters (checked for randomness by :func:`_random_looking`).
_LONG_TOKEN = re.compile(r"(?<![\w+/=-])[A-Za-z0-9_+/=-]{24,}(?![\w+/=-])")
_DIGIT_RUN = re.compile(r"(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d])")
_SSN_DASHED = re.compile(r"(?<![\d-])(\d{3})-(\d{2})-(\d{4})(?![\d-])")
_SSN_NAMED = re.compile(r"\b(?:SSN|social\s+security(?:\s+number)?|SS\s?#)\D{0,20}?(\d{3})[ -]?(\d{2})[ -]?(\d{4})\b",
                        re.IGNORECASE)
_IBAN = re.compile(r"\b([A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30})\b", re.IGNORECASE)
# An identity document's number given with its value: "passport number is X1234567", "driver's licence: D123-4567",
# "national ID 12345678Z" (not "passport expires in May", "renewed their passport": no value with a digit follows).
_ID_DOCUMENT = (r"(?:passport|(?:driver'?s'?|driving)\s+licen[cs]e|national\s+(?:id|identity|insurance)(?:\s+card)?"
                r"|(?:id|identity)\s+(?:card|document)|tax\s+(?:id|identification|file)|social\s+insurance"
                r"|residence\s+permit|aadhaa?r|dni|nie|nif)")
_ID_NUMBER = re.compile(
    rf"\b{_ID_DOCUMENT}(?:\s+(?:number|no\.?|num|#))?\s*(?:\bis\b|\bwas\b|:|=|#)?\s*"
    r"(?P<value>(?=[A-Za-z0-9-]*\d)[A-Za-z0-9][A-Za-z0-9-]*(?:\s\d[\d-]*)*)(?![\w-])", re.IGNORECASE)


def _id_number_in(text: str) -> bool:
    # a number of at least five letters and digits: not "passport is 10 years old"
    return any(sum(c.isalnum() for c in m.group("value")) >= 5 for m in _ID_NUMBER.finditer(text))


def _luhn_valid(digits: str) -> bool:
    """Whether ``digits`` passes the Luhn check every payment card number passes."""
    total = 0
    for i, ch in enumerate(reversed(digits)):
        d = int(ch)
        if i % 2 == 1:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return total % 10 == 0


def _card_number_in(text: str) -> bool:
    for match in _DIGIT_RUN.finditer(text):
        digits = re.sub(r"[ -]", "", match.group())
        # A run of one repeated digit ("0000 0000 0000 0") passes Luhn but is no card.
        if 13 <= len(digits) <= 19 and len(set(digits)) > 1 and _luhn_valid(digits):
            return True
    return False


def _ssn_parts_valid(area: str, group: str, serial: str) -> bool:
    """Whether the parts could form a US Social Security number (area not 000, 666 or 9xx; no zero part)."""
    return area not in ("000", "666") and not area.startswith("9") and group != "00" and serial != "0000"


def _ssn_in(text: str) -> bool:
    return any(_ssn_parts_valid(*m.groups()) for m in _SSN_DASHED.finditer(text)) or any(
        _ssn_parts_valid(*m.groups()) for m in _SSN_NAMED.finditer(text))


def _iban_in(text: str) -> bool:
    for match in _IBAN.finditer(text):
        iban = match.group(1).replace(" ", "").upper()
        # Prose such as "ab12 with cheese" has few digits; every IBAN has at least ten.
        if not 15 <= len(iban) <= 34 or sum(c.isdigit() for c in iban) < 10:
            continue
        moved = iban[4:] + iban[:4]
        if int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1:  # ISO 13616 check digits
            return True
    return False


def _random_looking(token: str) -> bool:
    """Whether a long token reads as a generated key rather than a word, a path or a number: letters and digits
    mixed, and high character entropy."""
    core = token.strip("=")
    if not any(c.isdigit() for c in core) or not any(c.isalpha() for c in core):
        return False
    classes = sum((any(c.islower() for c in core), any(c.isupper() for c in core), any(c.isdigit() for c in core)))
    counts = Counter(core)
    entropy = -sum(n / len(core) * math.log2(n / len(core)) for n in counts.values())
    # Hex digests have only 16 symbols (at most 4 bits a character); other keys mix cases and digits.
    if classes == 2 and all(c in "0123456789abcdefABCDEF" for c in core):
        return len(core) >= 32 and entropy >= 3.0
    return classes == 3 and entropy >= 3.5


def secret_in(text: str) -> str | None:
    """What secret ``text`` (an extracted fact) carries, or ``None``: a password, passcode or PIN with its value
    ("User's password is hunter2."), a payment card number (a Luhn-valid run of 13 to 19 digits, spaces or dashes
    allowed), a US Social Security number, an IBAN (its check digits valid), or an API key or token (a vendor's
    format such as "sk-..." or "ghp_...", a value named a key or token, or a long random-looking string), or an
    identity document's number given with its value (a passport, driver's licence, national ID or tax ID number:
    "User's passport number is X1234567.").
    Capture refuses such a fact: stored, it would be kept and injected into later prompts. A fact that only
    mentions one ("User forgot their password.", "User's card number ends in 4242.", "User's passport expires in
    May.") is not a secret."""
    text = unicodedata.normalize("NFKC", text)  # fullwidth digits and letters read as ASCII
    if _STATED_SECRET.search(text) or _SECRET_AS.search(text) or _PIN.search(text):
        return "a password or PIN"
    if _card_number_in(text):
        return "a payment card number"
    if _ssn_in(text):
        return "a Social Security number"
    if _iban_in(text):
        return "a bank account number (IBAN)"
    if _id_number_in(text):
        return "an ID document number"
    if (_KEY_FORMAT.search(text) or _NAMED_KEY.search(text)
            or any(_random_looking(m.group()) for m in _LONG_TOKEN.finditer(text))):
        return "an API key or token"
    return None
