"""What the user tells in their own words, read as the plain statements the rules already read.

A chat rarely says "I'm not allergic to shellfish; my brother Sam is." It says "wait no, I'm not allergic to
shellfish, that's my brother Sam". It says "doctor says the gestational diabetes is gone", "I can stop the
metformin", "the vegetarian thing wasn't working for me", "met someone! his name is Marco", "started seeing
someone. leo. hes a nurse", "We live in Austin, my husband Luis and me", "WE GOT A PUPPY. a cockapoo called
Biscuit". :func:`as_plain_statements` rewrites the clauses of one message into what they mean ("I'm not allergic
to shellfish", "My brother Sam is allergic to shellfish", "I no longer have gestational diabetes", "I stopped
taking metformin", "I'm no longer vegetarian", "I'm seeing Marco", "Leo is a nurse", "I'm married to Luis", "we
got a cockapoo puppy called Biscuit"), which the rules then rewrite and use to end what no longer holds. A
sentence that only says the rest was a joke ("April fools!", "jk") takes back what the message said before it.
Pure: no model, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..ranking.care import is_care_fact
from ..slots import NAME, PERSON, placed
from .cues import is_change
from .counts import as_count_now
from .diagnoses import as_diagnosis
from .genders import may_be
from .introductions import work_pattern
from .grammar import contracted_verb, is_past
from .leads import CLINICIAN, strip_lead
from .other_referents import others_named
from .passed_on import as_passed_on
from .patterns import I_AM
from .activities import PETS
from .begun_since import as_held_now
from .health import BODY_PART, health_news
from .slots import slots_of
from .staples import as_staple

__all__ = ["as_plain_statements", "is_joke_marker"]

_I = re.IGNORECASE
_MY_ONE = rf"(?:my|our)\s+{placed('best')}(?:{PERSON})"
# "my brother", "my sister Ana": one of the user's, with their name when it follows.
_MY_ONE_NAMED = rf"{_MY_ONE}(?:\s+(?-i:[A-Z])[\w-]+)?"
# "that's", "it was", "that would be": what points back at a fact just said, before whose it is.
_THAT_IS = r"(?:that's|that\s+is|that\s+was|that'd\s+be|that\s+would\s+be|it's|it\s+is|it\s+was)"

# "that's my brother Sam", "that was my sister's", "my brother is": whose a fact just denied is, ending the clause
# (:func:`_owner`).
_OWNER = (rf"(?:{_THAT_IS}\s+(?P<who>{_MY_ONE_NAMED})(?:'s)?(?:\s+(?:who|that)\b.*)?"
          rf"|(?P<who2>{_MY_ONE_NAMED})\s+(?:is|was))\s*[.!]*$")
# "I'm not allergic to shellfish, that's my brother Sam", "I'm not vegan - that was my sister", "I'm not
# allergic to shellfish, my brother is": a denial, and whose the fact is.
_DENIED_FOR = re.compile(rf"^{I_AM}\s+not\s+(?P<what>[^,\u2014\u2013]+?)\s*(?:,|\s+-|\s*[\u2014\u2013])\s*{_OWNER}", _I)
# "my sister is", "that was my brother", after "I'm not allergic to peanuts": whose the denied fact is, said on
# its own (a clause is cut before ", that was ...", not before ", that's ...", which _DENIED_FOR reads whole).
_ELLIPTICAL_OWNER = re.compile(rf"^{_OWNER}", _I)
_DENIAL = re.compile(rf"^{I_AM}\s+not\s+(?P<what>[^,]+?)\s*[.!]*$", _I)
# "doctor says ...", "the midwife said that ...": the clinician's words are the user's news.
_CLINICIAN_SAYS = re.compile(
    rf"^(?:(?:the|my|our|her|his)\s+)?(?:new\s+)?(?:{CLINICIAN})\s+(?:says|said|confirmed|told\s+(?:me|us)|thinks|"
    r"reckons|has\s+said)(?:\s+that)?\s+",
    _I,
)
# "the gestational diabetes is gone after birth", "my asthma has cleared up", "the allergy went away": a condition
# over (one in remission is not gone: .state_enders ends the stored one by the remission).
_GONE = (r"(?:is|are|has|have|'s|has\s+been|is\s+now)\s+(?:(?:all|completely|totally|finally|now|officially|fully|"
         r"basically)\s+)*(?:gone|cleared(?:\s+up)?|resolved|cured|over|gone\s+away|disappeared)"
         r"|(?:(?:has|have)\s+)?(?:went\s+away|cleared\s+up|resolved|disappeared)")
_CONDITION_GONE = re.compile(
    rf"^(?:the|my|our)\s+(?P<cond>(?:[\w'-]+\s+){{0,3}}?[\w'-]+)\s+(?:{_GONE})\b(?P<rest>.*)$", _I
)
# "I can stop the metformin", "I'm allowed to come off the insulin", "I'm off the metformin now": a medicine stopped.
_STOP_MEDICINE = re.compile(
    r"^(?:i|we)(?:\s+|(?='))(?:(?:can|could|get\s+to|am\s+allowed\s+to|'m\s+allowed\s+to|was\s+told\s+(?:i\s+can\s+|to\s+)|"
    r"have\s+been\s+told\s+to|'ve\s+been\s+told\s+to)\s+(?:now\s+|finally\s+)?(?:stop|come\s+off|quit|drop)"
    r"|(?:am|'m)\s+(?:now\s+|finally\s+)?off|(?:finally\s+)?came\s+off|(?:have|'ve)\s+(?:been\s+taken|come)\s+off)"
    r"\s+(?:taking\s+)?(?:(?:the|my|that)\s+)?(?P<drug>[\w-]+(?:\s+[\w-]+)?)\b",
    _I,
)
# "the vegetarian thing wasn't working for me", "my vegan phase is over": a diet given up.
_DIETS = (r"vegetarian|vegan|pescatarian|keto|paleo|gluten-free|dairy-free|plant-based|low-carb|sober|teetotal|"
          r"dry\s+\w+|carnivore|raw\s+food")
_DIET_DROPPED = re.compile(
    rf"^(?:the|my|this|that|whole)\s+(?:whole\s+)?(?P<diet>{_DIETS})\s+(?:thing|phase|experiment|diet|life|"
    r"lifestyle|kick|streak|journey)\s+(?:(?:just|really|clearly|obviously|kinda|kind\s+of)\s+)?"
    r"(?:wasn't\s+working|isn't\s+working|didn't\s+work(?:\s+out)?|is\s+over|was\s+over|didn't\s+last|is\s+done|"
    r"ended|failed|had\s+to\s+go|went\s+out\s+the\s+window|lasted\s+\w+|is\s+dead)\b",
    _I,
)
_DIET_AFTER_COMMA = re.compile(r"\s*,\s+(?=(?:the|my|this|that|whole)\s+(?:whole\s+)?(?:" + _DIETS + r")\s)", _I)
# "still no red meat though", "no alcohol for me": what the user does not eat or drink, typed without "I".
_NO_FOOD = re.compile(
    r"^(?:(?:but\s+)?(?P<still>still)\s+)?no\s+(?P<food>red\s+meat|meat|pork|beef|dairy|gluten|alcohol|booze|caffeine|"
    r"sugar|fish|shellfish|seafood|eggs|nuts|peanuts)\b(?P<tail>(?:\s+(?:though|tho|for\s+me|ever|at\s+all))*)\s*[.!]*$",
    _I,
)
_DRINKS = frozenset({"alcohol", "booze", "caffeine"})
# "my husband Luis and me", "me and my wife": the user and their partner, after what they do together.
_PARTNER_WORDS = r"wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|other\s+half"
_WITH_PARTNER = re.compile(
    rf"^(?:(?P<role>(?:my|our)\s+(?:{_PARTNER_WORDS}))(?:\s+(?P<name>(?-i:[A-Z])[\w-]+))?\s+and\s+(?:me|i|myself)"
    rf"|(?:me|i)\s+and\s+(?P<role2>(?:my|our)\s+(?:{_PARTNER_WORDS}))(?:\s+(?P<name2>(?-i:[A-Z])[\w-]+))?)\s*[.!]*$",
    _I,
)
# "met someone!", "I'm seeing someone new", "started dating someone": someone new, whose name may follow.
_SOMEONE_NEW = re.compile(
    r"^(?P<head>(?:(?:i|we)\s+)?(?:(?:just|finally|recently|have|'ve|am|'m|have\s+been|'ve\s+been|been|kind\s+of|"
    r"kinda|sort\s+of|officially)\s+)*(?:met|meeting|seeing|dating|started\s+(?:seeing|dating)|"
    r"(?:i'm|i\s+am|i've\s+been)\s+(?:seeing|dating)))\s+(?P<someone>(?:someone|somebody)(?:\s+new)?)\b(?P<rest>.*)$",
    _I,
)
# "his name is Marco", "her name's Chloé", "he's called Leo", "leo.", "Leo!": the name of the someone just told of.
_THEIR_NAME = re.compile(
    r"^(?:and\s+)?(?:(?:his|her|their)\s+name(?:'s|\s+is)|(?:he|she|they)(?:'s|\s+is|\s+are|'re)\s+called|"
    r"called|named)\s+(?P<name>[A-Za-z\u00c0-\u00ff][a-z\u00e0-\u00ff]+)\b[.!]*(?:\s*,\s*(?P<tail>\S.*))?$",
    _I,
)
_BARE_NAME = re.compile(r"^(?P<name>[A-Za-z\u00c0-\u00ff][a-z\u00e0-\u00ff]{1,14})\s*[.!]*$")
_NOT_NAME_ENDINGS = ("ous", "ful", "ing", "ed", "ish", "less", "ic", "ble", "ly")
# "I have a dog, her name is Rex", "I'm seeing someone, his name is Marco": the name after a comma, a clause of its own.
_NAME_AFTER_COMMA = re.compile(r"\s*,\s+(?=(?:and\s+)?(?:its|his|her|their)\s+name(?:'s|\s+is)\s)", _I)
# Words that are no name, typed alone after "met someone": "met someone! finally."
_NOT_A_NAME = frozenset(
    """yes yeah yep no nope ok okay lol haha omg wow finally anyway anyways sorry thanks cool nice great
    cute hot amazing wild crazy honestly seriously literally basically ugh yay hmm so and but well oh ah
    again already today yesterday weird idk brb tbh""".split()
)
# "my son is 5", "My sister Ana moved": someone of the user's as a clause's subject, whom a "he" / "she" after it is.
_MY_PERSON_SUBJECT = re.compile(rf"^(?P<who>{_MY_ONE_NAMED})\s+(?-i:[a-z'])", _I)
# What is kept of one of the user's told of by "he" / "she": their job, home, age, relationship (and care facts).
_THEIR_LIFE = frozenset({"job", "residence", "age", "relationship"})
# "he's a nurse", "she has coeliac", "hes coeliac": what is told of the one just named.
_PRONOUN_START = re.compile(r"^(?P<pronoun>he|she)(?P<be>'s|\s+is)?\s+(?P<rest>\S.*)$", _I)
# "her name is Pepper" after "we adopted a cat", "a cockapoo called Biscuit" after "we got a puppy": a pet's name.
_PET_WORD = re.compile(rf"\b(?:{PETS})\b(?!\s+(?:called|named)\b)", _I)
_PET_FRAGMENT = re.compile(
    r"^(?:(?:a|an)\s+(?P<kind>[\w-]+(?:\s+[\w-]+)?)\s+)?(?:called|named)\s+(?P<name>[A-Za-z][\w-]+)\s*[.!]*$", _I
)
_PET_NAME = re.compile(
    r"^(?:and\s+)?(?:(?:his|her|its|their)\s+name(?:'s|\s+is)|(?:he|she|it)(?:'s|\s+is)\s+called)\s+"
    r"(?P<name>[A-Za-z][\w-]+)\s*[.!]*(?:\s*,\s*(?P<tail>\S.*))?$",
    _I,
)
# "knee is much better, physio says I can walk again": what a clinician said of the user after a comma, a clause of
# its own.
_CLINICIAN_AFTER_COMMA = re.compile(
    rf"\s*,\s+(?=(?:(?:the|my|our)\s+)?(?:{CLINICIAN})\s+(?:says|said|told\s+me|thinks|reckons|confirmed)\s+"
    r"(?:that\s+)?(?:i|i'm|i've|i'll|my|we)\b)",
    _I,
)
# "knee is much better", "the ankle's healed": news of a part of the body, typed without "my": the user's.
_BODY_NEWS = re.compile(rf"^(?:the\s+|my\s+)?(?P<part>{BODY_PART})(?P<rest>(?:'s|\s+)\s*\S.*)$", _I)
# "I said London before", "I typed it wrong": talk of what was said, no fact.
_WHAT_I_SAID = re.compile(
    r"^(?:but\s+)?i\s+(?:said|typed|wrote|put|told\s+you|mentioned)\b.*\b(?:before|earlier|wrong|by\s+mistake|"
    r"last\s+time)\s*[.!]*$",
    _I,
)
# "but I meant I moved FROM London", "what I meant is I live in Leeds": what the user meant is the statement.
_WHAT_I_MEANT = re.compile(
    r"^(?:but\s+)?(?:what\s+)?i\s+meant(?:\s+was|\s+is)?(?:\s+that)?\s+(?P<rest>(?:i|i'm|i've|we|we're|my|our)\b.+)$", _I
)
# A sentence that only says what came before it was a joke: "April fools!", "jk", "just kidding lol".
_JOKE_MARKER = re.compile(
    r"^\W*(?:(?:haha+|lol+|lmao)\s*,?\s*)?(?:april\s+fools?(?:'s)?(?:\s+day)?|jk|j/k|just\s+kidding|(?:only|just)\s+"
    r"joking|kidding|not\s+really|/s)\b\s*(?:haha+|lol+|lmao|xd)?\W*$",
    _I,
)


def is_joke_marker(sentence: str) -> bool:
    """Whether ``sentence`` only says that what came before it was a joke ("April fools!", "jk lol")."""
    return bool(_JOKE_MARKER.match(sentence.strip()))


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]


def _owner(m: re.Match[str]) -> str:
    """Whom a match of :data:`_OWNER` names, capitalised to open a sentence ("My brother Sam")."""
    return _capital((m.group("who") or m.group("who2")).strip())


def _denied_for(said: str) -> list[str] | None:
    """ "I'm not allergic to shellfish, that's my brother Sam" -> "I'm not allergic to shellfish", "My brother Sam
    is allergic to shellfish"."""
    m = _DENIED_FOR.match(said)
    if m is None:
        return None
    what = m.group("what").strip()
    return [f"I'm not {what}", f"{_owner(m)} is {what}"]


def _condition_gone(said: str) -> list[str] | None:
    """ "the gestational diabetes is gone after birth" -> "I no longer have gestational diabetes" (a care condition
    only: "my knee is better" says nothing the rules keep)."""
    m = _CONDITION_GONE.match(_CLINICIAN_SAYS.sub("", said, count=1))
    if m is None:
        return None
    cond = m.group("cond")
    if not is_care_fact(f"User has {cond}."):
        return None
    return [f"I no longer have {cond}"]


def _medicine_stopped(said: str) -> list[str] | None:
    """ "I can stop the metformin" -> "I stopped taking metformin" (a medicine the care rule knows)."""
    m = _STOP_MEDICINE.match(_CLINICIAN_SAYS.sub("", said, count=1))
    if m is None:
        return None
    drug = m.group("drug")
    words = drug.split()
    for n in (1, len(words)):  # "the metformin now": the drug, not the time after it; "birth control": both
        name = " ".join(words[:n])
        if is_care_fact(f"User takes {name}."):
            return [f"I stopped taking {name}"]
    return None


def _diet_dropped(said: str) -> list[str] | None:
    """ "the vegetarian thing wasn't working for me" -> "I'm no longer vegetarian"; "started eating chicken again,
    the vegetarian thing wasn't working" -> both."""
    cut = _DIET_AFTER_COMMA.search(said)
    if cut is not None and _DIET_DROPPED.match(said[cut.end():]):
        return [said[: cut.start()], *(_diet_dropped(said[cut.end():]) or [])]
    m = _DIET_DROPPED.match(said)
    if m is None:
        return None
    return [f"I'm no longer {m.group('diet').lower()}"]


def _no_food(said: str) -> list[str] | None:
    """ "still no red meat though" -> "I still don't eat red meat"; "no alcohol for me" -> "I don't drink alcohol"
    ("so no dairy", after "I'm vegan", only says what follows from it)."""
    m = _NO_FOOD.match(said)
    if m is None or not (m.group("still") or m.group("tail").strip()):
        return None
    food = m.group("food").lower()
    still = "still " if m.group("still") else ""
    return [f"I {still}don't {'drink' if food in _DRINKS else 'eat'} {food}"]


def _with_partner(said: str) -> list[str] | None:
    """ "my husband Luis and me" (after "We live in Austin") -> "I'm married to Luis"; "my boyfriend Tom and I" ->
    "My boyfriend is Tom"; with no name, "my husband and me" -> "I'm married" (a boyfriend: nothing new)."""
    m = _WITH_PARTNER.match(said)
    if m is None:
        return None
    role = (m.group("role") or m.group("role2")).split()[-1].lower()
    name = m.group("name") or m.group("name2")
    married = role in ("wife", "husband")
    if name is None:
        return ["I'm married"] if married else []
    return [f"I'm married to {name}"] if married else [f"My {role} is {name}"]


# "Alex is my husband", "Tom's my brother": who someone is to the user, told name first (not "This is my wife",
# "Tom is my brother's friend").
_NAME_IS_MY_ONE = re.compile(
    rf"^(?!(?:this|that|he|she|it|there|here|who|which)\b)(?P<name>{NAME})"
    rf"(?:\s+is|'s)\s+(?P<one>{_MY_ONE})\s*(?:now)?\s*$",
    _I,
)


def _name_is_my_one(said: str) -> list[str] | None:
    """ "Alex is my husband" -> "I'm married to Alex" (as "my husband Alex and I" is read); "Tom is my brother" ->
    "My brother is Tom"."""
    m = _NAME_IS_MY_ONE.match(said)
    if m is None:
        return None
    one, name = m.group("one"), m.group("name")
    if one.split()[-1].lower() in ("wife", "husband", "spouse"):
        return [f"I'm married to {name}"]
    return [f"{one[:1].upper()}{one[1:]} is {name}"]


def _body_news(said: str) -> list[str] | None:
    """ "knee is much better" -> "My knee is much better", "my ankle's healed" -> "My ankle is healed" (news of its
    health; "back to work" is no knee)."""
    m = _BODY_NEWS.match(said)
    if m is None:
        return None
    rest = m.group("rest")
    rest = " is " + rest[2:].lstrip() if rest.startswith("'s") else rest
    return [f"My {m.group('part').lower()}{rest}"] if health_news(rest) else None


def _what_was_said(said: str) -> list[str] | None:
    """ "I said London before" -> nothing; "I meant I moved from London" -> "I moved from London"."""
    if _WHAT_I_SAID.match(said):
        return []
    m = _WHAT_I_MEANT.match(said)
    return [m.group("rest")] if m is not None else None


def _name_given(said: str) -> tuple[str, str | None] | None:
    """The name ``said`` gives the someone just told of ("his name is Marco", "leo.") and what it tells after a
    comma ("his name is Marco, he's a chef": "he's a chef"), or ``None``."""
    m = _THEIR_NAME.match(said) or _BARE_NAME.match(said)
    if m is None or m.group("name").lower() in _NOT_A_NAME:
        return None
    if m.re is _BARE_NAME and m.group("name").islower() and m.group("name").endswith(_NOT_NAME_ENDINGS):
        return None  # "met someone. nervous." is no name
    return _capital(m.group("name")), m.groupdict().get("tail")


def _someone_named(said: str, name: str) -> str:
    """ "met someone!" and "Marco" -> "I'm seeing Marco"; "started seeing someone" -> "I started seeing Leo"."""
    m = _SOMEONE_NEW.match(said)
    assert m is not None
    head = m.group("head")
    if re.search(r"\bmet$", head, _I) or re.search(r"\bmeeting$", head, _I):
        return f"I'm seeing {name}"
    if not re.match(r"(?:i|we)\b", head, _I):
        head = "I " + head  # "started seeing someone"
    return f"{head} {name}"


def _may_be(pronoun: str, person: str, clause: str) -> bool:
    """Whether ``pronoun`` may be ``person`` ("my husband"), the subject of ``clause``: of no other gender, and
    ``clause`` names no one else it may be ("My husband and I visited his grandmother": not a "she")."""
    if not all(may_be(pronoun, word.lower(), ungendered=True) for word in re.findall(r"[\w-]+", person)[1:]):
        return False
    return not any(not word or may_be(pronoun, word, ungendered=True) for word in others_named(clause))


def _of_the_named(said: str, name: str) -> str:
    """ "he's a nurse" of Leo -> "Leo is a nurse"; "she's got asthma" -> "Leo has got asthma"."""
    m = _PRONOUN_START.match(said)
    assert m is not None
    rest = m.group("rest")
    if not m.group("be"):
        return f"{name} {rest}"
    verb = contracted_verb(rest) if m.group("be") == "'s" else "is"
    return f"{name} {verb} {rest}"


def _pet_named(clause: str, name: str, kind: str | None) -> str | None:
    """``clause`` ("we got a puppy!") with the pet it tells of named ("we got a cockapoo puppy called Biscuit");
    ``None`` when it tells of no pet, or of one already named."""
    m = _PET_WORD.search(clause)
    if m is None or re.search(r"\b(?:called|named)\b", clause, _I):
        return None
    pet = m.group(0)
    if kind and not re.fullmatch(rf"(?:{PETS})", kind, _I):
        pet = f"{kind} {pet}"
    elif kind:
        pet = kind
    return clause[: m.start()] + f"{pet} called {_capital(name)}" + clause[m.end():].rstrip(" !.")


# "we split.", "we split last month", "we've split for good": a couple split up, said without its "up" (never "we split
# the bill", "we split it", "we split into teams": there "split" has an object).
_WE_SPLIT = re.compile(
    r"^(?P<who>we|we've|we\s+have|me\s+and\s+\w+|\w+\s+and\s+i)\s+(?P<how>(?:(?:just|finally|officially|have|"
    r"recently|actually)\s+)*)split(?P<when>\s+(?:last|this|on|in|after|before|yesterday|recently|a\s+(?:few|couple)|"
    r"two|three|\d+|over|for\s+good|for\s+real|months?|weeks?)\b.*)?$",
    _I,
)


def _we_split(plain: str) -> list[str] | None:
    """ "we split" -> ["we split up"]; ``None`` for any other clause."""
    m = _WE_SPLIT.match(plain)
    if m is None:
        return None
    return [f"{m.group('who')} {m.group('how')}split up{m.group('when') or ''}"]


# "guess who turned 20 on saturday", "guess who got promoted!", "guess who's moving to Berlin": the riddle's answer is
# the user (not "guess who I saw", "guess who called me": there the user is someone else's object).
_GUESS_WHO = re.compile(
    r"^guess\s+who(?P<be>'s|\s+is)?\s+(?P<rest>(?P<verb>[a-z]+)\b(?:(?!\b(?:i|me|my|we|us|our)\b)[^?])*)\?*$", _I)


def _guess_who(plain: str) -> list[str] | None:
    """ "guess who got promoted" -> ["I got promoted"], "guess who's moving to Berlin" -> ["I'm moving to Berlin"];
    ``None`` for any other clause."""
    m = _GUESS_WHO.match(plain)
    if m is None or not (is_change(m.group("rest")) or slots_of(m.group("rest"))):
        return None  # only news of the user's life: "guess who came to dinner" is someone else
    if m.group("be"):
        return [f"I'm {m.group('rest')}"]
    verb = m.group("verb").lower()
    return [f"I {m.group('rest')}"] if is_past(verb) or verb in ("got", "just", "finally") else None


def as_plain_statements(clauses: Sequence[str], split: Callable[[str], list[str]] | None = None) -> list[str]:
    """``clauses`` (one user message, split) with each that tells something in the user's own words replaced by
    the plain statements it means (see the module docstring); any other clause as it is. A "he" / "she" that
    starts a clause is the someone just named, or, when it tells a care fact or a part of their life (job, home,
    age, relationship), the one of the user's the clause before told of ("my son is 5. he's allergic to nuts" -> "my son is
    allergic to nuts"); ``split`` cuts such a clause again ("... and he's allergic to nuts").

    >>> as_plain_statements(["wait no, I'm not allergic to shellfish, that's my brother Sam."])
    ["I'm not allergic to shellfish", 'My brother Sam is allergic to shellfish']
    >>> as_plain_statements(["started seeing someone.", "leo.", "hes a nurse"])
    ['I started seeing Leo', 'Leo is a nurse']
    """
    clauses = [part for clause in clauses for name_split in _NAME_AFTER_COMMA.split(clause)
               for part in _CLINICIAN_AFTER_COMMA.split(name_split)]
    out: list[str] = []
    named: str | None = None  # the someone this message named
    person: str | None = None  # the one of the user's the clause before told of
    told_before = ""  # that clause
    said = [strip_lead(c).rstrip(" .!") for c in clauses]
    i = 0
    while i < len(clauses):
        clause, plain = clauses[i], said[i]
        if is_joke_marker(clauses[i]) and out:  # "I'm moving to the moon. April fools!": nothing of it holds
            out = []
            i += 1
            continue
        if _SOMEONE_NEW.match(plain) and i + 1 < len(clauses):
            given = _name_given(said[i + 1])
            if given is not None:  # "met someone! his name is Marco"
                named, tail = given
                out.append(_someone_named(plain, named))
                i += 2
                if tail:  # "his name is Marco, he's a chef"
                    clauses, said = [*clauses[:i], tail, *clauses[i:]], [*said[:i], tail.rstrip(" .!"), *said[i:]]
                continue
        if i + 1 < len(clauses) and _PET_WORD.search(plain):
            fragment = _PET_FRAGMENT.match(said[i + 1]) or _PET_NAME.match(said[i + 1])
            pet = _pet_named(plain, fragment.group("name"), fragment.groupdict().get("kind")) \
                if fragment is not None else None
            if pet is not None:  # "WE GOT A PUPPY. a cockapoo called Biscuit"
                out.append(pet)
                i += 2
                if fragment.groupdict().get("tail"):  # "her name is Pepper, she's a tabby"
                    clauses = [*clauses[:i], fragment.group("tail"), *clauses[i:]]
                    said = [*said[:i], fragment.group("tail").rstrip(" .!"), *said[i:]]
                continue
        owner = _ELLIPTICAL_OWNER.match(plain)
        denied = _DENIAL.match(said[i - 1]) if i > 0 and owner is not None else None
        if denied is not None:  # "I'm not allergic to peanuts, my sister is"
            out.append(f"{_owner(owner)} is {denied.group('what')}")
            i += 1
            continue
        pronoun = _PRONOUN_START.match(plain)
        if named is not None and pronoun is not None:  # "hes a nurse", after "leo."
            said_of = _of_the_named(plain, named)
            out += split(said_of) if split is not None else [said_of]
            i += 1
            continue
        if person is not None and pronoun is not None and _may_be(pronoun.group("pronoun"), person, told_before) and (
                is_care_fact(plain) or slots_of(pronoun.group("rest")) & _THEIR_LIFE):
            said_of = _of_the_named(plain, person)  # "my son is 5. he's allergic to nuts": the son's care fact
            out += split(said_of) if split is not None else [said_of]
            i += 1
            continue
        subject = _MY_PERSON_SUBJECT.match(plain)
        person = subject.group("who") if subject is not None else None
        told_before = plain
        for rewrite in (_denied_for, _condition_gone, _medicine_stopped, as_diagnosis, _diet_dropped, _no_food,
                        _with_partner, _name_is_my_one, _body_news, _what_was_said, _we_split, _guess_who,
                        work_pattern, as_staple, as_count_now, as_held_now, as_passed_on):
            if rewrite is _no_food and re.match(r"\W*so\b", clause, _I):
                continue  # "I'm vegan, so no dairy": what follows from the diet, no fact of its own
            plain_said = rewrite(plain)
            if plain_said is not None:
                out += plain_said
                break
        else:
            out.append(clause)
        i += 1
    return out
