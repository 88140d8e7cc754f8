"""Which "slot" of a user's life a fact fills (where they live, their job, diet...), and whose fact it is.

English keyword rules, pure. Capture (``extraction/``) supersedes the stored fact of a slot on a change;
the ranking (``ranking/recency.py``) lets the newer of two facts of one slot win a near-tie.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from .calendar_words import WEEKDAY_STEMS

__all__ = ["NAME", "NO_HOME", "OCCUPATIONS", "PARTNERS", "PERSON", "SEEING_NAME", "SLOTS", "TOOLS", "fold", "holder",
           "names_no_home", "slot_keys", "slots_of", "speaks_of_a_group"]

# Occupations and workplaces: "User is a paralegal.", "User is a junior designer at an ad agency.".
_OCCUPATIONS = (
    r"barista|nurse|paramedic|developer|engineer|teacher|lecturer|professor|tutor|chef|cook|baker|pilot|vet|"
    r"doctor|surgeon|dentist|pharmacist|therapist|lawyer|attorney|paralegal|solicitor|accountant|auditor|"
    r"bookkeeper|designer|analyst|programmer|student|cashier|manager|consultant|architect|scientist|researcher|"
    r"biologist|chemist|physicist|electrician|plumber|carpenter|mechanic|waiter|waitress|bartender|"
    r"receptionist|secretary|assistant|clerk|librarian|journalist|writer|editor|translator|photographer|"
    r"firefighter|police\s+officer|officer|soldier|driver|trucker|farmer|cleaner|caretaker|carer|"
    r"salesperson|recruiter|intern|ceo|cto|founder|entrepreneur|director|administrator|technician|"
    r"social\s+worker|midwife|psychologist|physiotherapist|optician|hairdresser|butcher|"
    r"realtor|estate\s+agent|banker|trader|economist|actuary|data\s+scientist|"
    r"blogger|vlogger|influencer|youtuber|streamer|content\s+creator|artist|illustrator|animator|musician|actor|"
    r"actress|dancer|personal\s+trainer|fitness\s+instructor|instructor|life\s+coach|pastor|priest|vicar|rabbi|"
    r"imam|nanny|babysitter|childminder|courier|postman|postwoman|miner|welder|builder|gardener|landscaper|florist|"
    r"tailor|shopkeeper|shop\s+assistant|sales\s+assistant|sous\s+chef|dietitian|nutritionist|counsell?or|"
    r"veterinarian|radiographer|sonographer|judge|barrister|civil\s+servant|teaching\s+assistant|postdoc|"
    r"undergrad|undergraduate|copywriter|marketer|flight\s+attendant|cabin\s+crew|sailor|fisherman|zookeeper|"
    r"ranger|archaeologist|historian|curator|care\s+worker|support\s+worker|software\s+developer|web\s+developer|"
    r"product\s+owner|sysadmin|coder|surveyor|optometrist|paramedic|chiropractor|osteopath|podiatrist|"
    r"contractor|handyman|decorator|locksmith|roofer|security\s+guard|bouncer|chauffeur|mortgage\s+advisor|"
    r"financial\s+advisor|insurance\s+broker|broker|real\s+estate\s+agent|supervisor|dispatcher|hygienist|"
    r"foreman|warehouse\s+worker|porter|paralegal|dev|software\s+dev|web\s+dev|cop|"
    r"principal|vice-principal|headteacher|headmaster|headmistress|deputy\s+head|dean|superintendent|coordinator|"
    r"specialist|(?:shift|team|tech|store)\s+(?:lead|leader)|shift\s+manager|anaesthetist|anesthetist|examiner"
)
OCCUPATIONS = _OCCUPATIONS
"""A regex alternation of occupation words ("nurse", "paramedic", "data scientist", "shift lead")."""
_WORKPLACES = (
    # a food bank or a blood bank is no employer
    r"company|firm|agency|startup|start-up|(?<!food\s)(?<!blood\s)bank|hospital|clinic|school|factory|warehouse|"
    r"restaurant|cafe|"
    r"café|shop|store|office|studio|lab|laboratory|charity|ngo|council|ministry|university|practice|"
    r"(?:fulfil?ment|call|distribution|data|leisure|garden|care)\s+cent(?:re|er)|depot"
)

# The words between "is" and the job it names: "is now a nurse", "'s also the manager".
_IS_WORDS = r"(?:(?:now|also|still|currently|actually|finally|officially|just|already|a|an|the)\s+)"

# Owned things named by brand or model ("a Pixel", "my old Honda Civic", "the Corolla"): a word of these
# lists names a phone or a car only after an article, a possessive or an age, and not before a word that
# makes it something else ("a Samsung TV", "the civic centre").
_OWNED = r"(?:a|an|the|my|our|their|his|her|new|old|used|second-hand|secondhand|second\s+hand|refurbished|\d{4})"
_PHONE_BRANDS = (
    r"pixel|(?:samsung\s+)?galaxy\s+(?:s|a|z|note|fold|flip)\s*\d*|samsung|oneplus|xiaomi|huawei|motorola|nokia|"
    r"blackberry|fairphone|sony\s+xperia"
)
_NOT_A_PHONE = (
    r"tv|television|fridge|freezer|washer|washing|dryer|tablet|tab|watch|laptop|monitor|buds|earbuds|"
    r"headphones|vacuum|microwave|oven|camera|art|bar|chocolate|chocolates"
)
_NOT_THE_PHONE = r"case|cases|cover|charger|cable|screen|number|numbers|plan|bill|call|calls|contract|line"
_CAR_MAKES = (
    r"honda|toyota|ford|volkswagen|vw|bmw|audi|mercedes|mercedes-benz|tesla|nissan|mazda|subaru|kia|hyundai|"
    r"volvo|peugeot|renault|citroen|citroën|fiat|skoda|škoda|jeep|chevy|chevrolet|porsche|lexus|"
    r"land\s+rover|range\s+rover|dodge|chrysler|cadillac|buick|mitsubishi|suzuki|dacia|alfa\s+romeo|opel|"
    r"vauxhall|saab|mini\s+cooper|rivian|polestar|byd"
)
_CAR_MODELS = (
    r"civic|corolla|prius|camry|yaris|rav4|cr-v|crv|jetta|passat|tiguan|f-150|f150|impreza|miata|mx-5|"
    r"qashqai|model\s+[3sxy]|cybertruck|octavia|twingo|3\s+series|5\s+series|e-class|c-class|golf|polo|corsa|clio|"
    r"astra|micra|fabia|"
    # models named without their make ("picked up a second-hand Ioniq", "the hilux"): none of them a common word, a
    # place or a name
    r"ioniq|niro|ev6|ev9|elantra|i10|i20|sportage|sorento|picanto|xpander|vios|hilux|fortuner|innova|"
    r"land\s+cruiser|crosstrek|cx-?[3-9]0?|altima|sentra|x-trail|navara|4runner|kuga|mondeo|mehran|e-tron|"
    r"hr-v|hrv|tiida|ertiga|wagon\s+r"
)
# Models that are words too ("a park ranger", "a new leaf"): a car only right after a car's age or condition
# ("a secondhand Ranger", "a used Leaf", "a 2019 Swift").
_WORD_MODELS = r"ranger|leaf|swift|fit|jazz|focus|accord|bolt|beetle"
_CAR_AGE = r"(?:used|second-hand|secondhand|second\s+hand|\d{4})"
_NOT_A_CAR = (
    r"centre|center|duty|duties|pride|society|engagement|hall|sense|leaders?|lawnmower|generator|motor|outboard|"
    r"foundation|dealership|factory|plant|"
    # "a golf club", "the polo match": the game, not the car
    r"clubs?|course|courses|balls?|lessons?|bags?|carts?|swing|games?|rounds?|trips?|holidays?|matche?s?|shirts?|"
    r"shoes|tournaments?|membership|pros?|days?|team|neck|mints?"
)

TOOLS: frozenset[str] = frozenset({
    "slack", "teams", "notion", "jira", "trello", "asana", "basecamp", "confluence", "obsidian", "evernote",
    "onenote", "figma", "linux", "ubuntu", "debian", "fedora", "windows", "mac", "macos", "ios", "iphone", "ipad",
    "android", "chromebook", "google", "gmail", "outlook", "zoom", "discord", "whatsapp", "telegram", "github",
    "gitlab", "bitbucket", "aws", "azure", "gcp", "kubernetes", "python", "rust", "typescript", "spotify", "tidal",
    "netflix", "firefox", "chrome", "safari", "vim", "neovim", "emacs", "vscode", "excel", "sheets", "dropbox",
    "icloud", "onedrive", "substack", "mastodon", "bluesky",
})
"""Tools, apps and platforms people "move to" or "switch to" that are no home ("We moved to Slack", "I moved
to Notion for my notes"): a move to one is no change of residence."""

# What a move can go to that is no place to live: a day ("moved to Thursdays only at the food bank"), a time of
# day or a clock time ("moved to mornings", "moved to 7am"), a shift, a team or a role ("moved to nights", "moved to
# the late shift", "moved up to manager").
NO_HOME = (
    r"(?:(?:a|the|another|new|different|my|our|their)\s+)*(?:[\w-]+\s+)?(?:team|department|role|position|job|"
    r"shifts?|rota|days|nights|evenings|mornings|afternoons|weekends|weekdays|part-time|full-time|management|sales|"
    rf"marketing|branch|project|office|site|ward|unit|class|group|(?:{WEEKDAY_STEMS})days?|"
    r"(?:early|late|day|night|evening|morning|afternoon|weekend)s?|\d{1,2}(?::\d\d)?\s*(?:am|pm)|\d{1,2}:\d\d|"
    r"(?:half|full|four|three|two|fewer|more)[\s-]+days?)\b"
    # "moved to Sunday Street", "moved to Mayfield Road": a day's name in a street's is a place
    r"(?!\s+(?:street|st|road|rd|avenue|ave|lane|close|drive|way|place|square|park|hill|green|court|terrace|"
    r"crescent|gardens|row|mews|walk|estate)\b)"
)
"""A pattern: the start of what a move goes to that is no home (a day, a time, a shift, a team, a role)."""
_NO_HOME = re.compile(NO_HOME, re.IGNORECASE)


def names_no_home(value: str) -> bool:
    """Whether ``value``, what a move goes to, is a day, a time, a shift, a team or a role, not a place.

    >>> names_no_home("Thursdays only at the food bank"), names_no_home("the night shift"), names_no_home("Leeds")
    (True, True, False)
    """
    return bool(_NO_HOME.match(value.strip())) or value.strip().split()[0].lower() in TOOLS


SLOTS: dict[str, re.Pattern[str]] = {
    "residence": re.compile(
        # "moved to Leeds", not "moved to day shifts" / "moved on" / "moved up to manager" (a job's changes)
        # "lives on a teacher's pension", "living off savings" is what the user lives by, not where
        r"\b(?:(?:live|lives|(?<!a\s)living|lived)\b(?!\s+(?:on|off)\s+(?:(?:a|an|the|my|his|her|their|our|one)\s+)?"
        r"(?:[\w'-]+\s+){0,2}?(?:pensions?|benefits|income|salary|wages?|savings|budget|allowance|loans?|"
        r"social\s+security|disability|stipend)\b)|"
        r"(?:moved|move|moving)\b(?!\s+(?:on|up|over|across|(?:in)?to\s+" + NO_HOME +
        r"|(?:in)?to\s+(?:" + "|".join(sorted(TOOLS)) + r")\b))|"
        r"relocated|relocating|reside|resides|settled\s+in|based\s+in|"
        r"rent|rents|renting|rented|apartment|condo|homeowner|landlord|tenant|[1-5]\s?bhk|bedsit|"
        r"(?:a|an|the|my|our|their|shared|rented|own)\s+(?:\w+\s+)?(?:flat|house|home)\b(?!\s+white)|"
        r"(?:my|our|their)\s+own\s+place|landlord|landlady|"
        # where someone of the user's is, the chat way: "User's sister Dana's over in Regina." (not a visit's time)
        r"(?<=^user's\s)[^.]*?(?:'s|\s+is|\s+are)\s+(?:over|out|up|down)\s+in\s+(?!.*\b(?:week|weekend|today|tonight|"
        r"tomorrow|month|until|till|for\s+(?:a|an|the|two|three|\d+))\b))\b"
    ),
    "job": re.compile(
        # "works at a bank", not "bikes to work" or "runs before work" (a way there, a time of day)
        r"\b(?:(?<!to\s)(?<!into\s)(?<!from\s)(?<!before\s)(?<!after\s)(?<!at\s)"
        r"(?:work|works|working|worked)\b(?!\s+(?:out|from\s+home|remotely|hard|on\s+(?:my|it|that)))|"
        r"(?:to|into)\s+work\s+(?:as|at|for|in)\b|"
        r"job|jobs|employed|teach|teaches|teaching|hired|laid\s+off|fired|made\s+redundant|redundant|"
        r"retired(?!\s+(?:my|our|the|that|this|his|her)\s)|retiring|unemployed|resigned|promoted|promotion|career|employer|freelance|freelancer|freelancing|"
        r"let\s+go(?!\s+of)|sacked|job\s+hunting|job-hunting|job\s+offer|offer\s+from|(?:full|part)-time|"
        r"back\s+to\s+work|(?:for|makes?|making|earns?|earning)\s+a\s+living|majoring|(?:my|their|his|her)\s+major|"
        r"at\s+(?:uni|university|college|med\s+school|law\s+school)|"
        r"self-employed|notice|studying|studies|degree|graduated|internship|phd|doctorate|apprenticeship|master's|"
        # driving as the work itself: "drives long-haul for Prairie Freight", "driving local delivery", not "drives
        # a Civic" (a car) nor "drives to work" (a commute)
        r"(?:drive|drives|driving|drove)\s+(?:long-haul|long\s+haul|(?:local\s+)?deliver(?:y|ies)|trucks|lorries|taxis|"
        r"cabs|buses|for\s+(?:uber|lyft|deliveroo|ups|fedex|dhl|amazon|a\s+living))|"
        r"left\s+(?:my|the|our)\s+(?:lab|bank|agency|hospital|clinic|practice|studio|startup|start-up)|"
        # an occupation the user is or works as ("is a nurse", "is a school principal", "works as a paralegal",
        # "is a teacher's assistant"), not one they see ("seeing a therapist", "my dentist", "User's doctor": an
        # "'s" is a verb only before its article or adverb, "User's a nurse") nor someone's ("is a nurse's
        # daughter", "is a teacher's assistant's friend")
        r"(?:(?:am|is|are|was|were|be|been|being|'m|'re|became|become|becoming|as|trained\s+to\s+be)\s+"
        rf"{_IS_WORDS}*|'s\s+{_IS_WORDS}+)"
        r"(?:(?!(?:seeing|visiting|meeting|dating|marrying|married|engaged|with|to|at|for|from|by|and|or|of|my|your)\b)"
        rf"[\w'-]+\s+){{0,3}}?(?:{_OCCUPATIONS})(?:e?s\b)?(?!'s\b)|^(?:{_OCCUPATIONS})(?!'s\b)|"
        rf"(?:start|starts|started|starting)\s+at|(?:at|for)\s+(?:a|an|the)\s+(?:[\w-]+\s+)?"
        rf"(?:{_WORKPLACES}))\b"
    ),
    "diet": re.compile(
        r"\b(?:vegetarian|vegan|pescatarian|carnivore|omnivore|meat|fish|eggs|dairy|cheese|diet|keto|paleo|"
        r"gluten|gluten-free|coeliac|celiac|halal|kosher|plant-based|picky\s+eater|"
        r"(?:eat|eats|eating)\b(?!\s+(?:lunch|breakfast|dinner|out|in|at|together|alone|late|early)\b))\b"
    ),
    "relationship": re.compile(
        r"\b(?:single|engaged|engagement|married|marriage|divorced?|divorcing|girlfriend|boyfriend|fianc[ée]e?|"
        r"partner|broke\s+up|dating|separated|separating|split\s+up|wife|husband|spouse|widowed|widow|widower|ex|"
        r"ex-\w+|relationship|tied\s+the\s+knot|other\s+half|significant\s+other|"
        # "I'm seeing someone", "we've been seeing each other" (not "seeing a doctor": only these objects)
        r"seeing\s+(?:someone|somebody|anyone|anybody|each\s+other|a\s+(?:guy|girl|man|woman|boy|lady))"
        r"(?!\s+(?:about|for|at|regarding|tomorrow|today|tonight|on|this|next)\b)|"
        r"(?:stopped|stop)\s+seeing\s+(?:him|her|them)|(?:not|no\s+longer|back)\s+together|called\s+it\s+(?:quits|off)|"
        # "User and Idris have been together 4 years."
        r"(?:have|has|'ve)\s+been\s+together|"
        r"broke\s+it\s+off|parted\s+ways|went\s+(?:our|their)\s+separate\s+ways|met\s+(?:someone|somebody))\b"
    ),
    "smoking": re.compile(r"\b(?:smoke|smokes|smoking|smoked|smoker|cigarettes?|cigs|fags|rollies|roll-?ups|cigars?|vape|vapes|vaping|nicotine)\b"),
    "hot_drink": re.compile(
        r"\b(?:coffees?|teas?|espressos?|decaf|caffeine|caffeinated|lattes?|cappuccinos?|americanos?|"
        r"macchiatos?|mochas?|flat\s+whites?|cold\s+brews?|matcha|chai|cuppas?|earl\s+grey|rooibos)\b"
    ),
    "alcohol": re.compile(
        r"\b(?:alcohol|alcoholic|wine|beer|beers|booze|sober|sobriety|teetotal|teetotaler|cocktails?|whisky|whiskey|"
        # drinking with no drink named is alcohol: "I've stopped drinking altogether", "User doesn't drink."
        r"(?:stopped|stop|quit|quitting|gave\s+up|given\s+up|giving\s+up|don't|do\s+not|doesn't|does\s+not|"
        r"no\s+longer|never)\s+drink(?:s|ing)?(?=\s*(?:[.,!;]|$|altogether|completely|entirely|at\s+all|for\s+good|"
        r"anymore|any\s+more|now)))\b"
    ),
    # "User's daughter is 5.", "User turned 30 yesterday." (not "is 5 minutes away")
    "age": re.compile(
        r"\b(?:\d{1,3}\s+(?:years?\s+old|yo)|(?:is|am|'m|'s|are)\s+(?:now\s+|just\s+)?\d{1,3}"
        r"(?=\s*(?:[.,!;]|$|and\b|now\b|today\b|years?\b|this\s+year\b))|(?:turned|turns|turning)\s+\d{1,3}\b|"
        r"aged\s+\d{1,3})"
    ),
    "commute": re.compile(
        r"\b(?:commute|commutes|commuting|commuter|(?:work|works|working)\s+(?:from\s+home|remotely)|remote|wfh|"
        r"(?:to|into|in|at)\s+the\s+office|(?:to|into)\s+work)\b"
    ),
    "phone": re.compile(
        rf"\b(?:iphones?|android|(?:smart|cell|mobile\s+)?phones?(?!\s+(?:{_NOT_THE_PHONE}))|"
        rf"{_OWNED}\s+(?:[\w-]+\s+)?(?:{_PHONE_BRANDS})\b(?!\s+(?:{_NOT_A_PHONE})))\b"
    ),
    "car": re.compile(
        rf"\b(?:drive|drives|driving|cars?|vehicle|truck|pick-?up\s+truck|suv|motorbike|motorcycle|"
        rf"(?:bikes?|biking|cycles?|cycling|walks?|walking)\s+to\s+work|"
        rf"{_OWNED}\s+(?:[\w-]+\s+){{0,2}}(?:{_CAR_MAKES})\b(?!\s+(?:{_NOT_A_CAR}))|"
        rf"{_OWNED}\s+(?:(?:{_CAR_MAKES})\s+)?(?:[\w-]+\s+)?(?:{_CAR_MODELS})\b(?!\s+(?:{_NOT_A_CAR}))|"
        rf"{_CAR_AGE}\s+(?:(?:{_CAR_MAKES})\s+)?(?:{_WORD_MODELS})\b(?!\s+(?:{_NOT_A_CAR})))\b"
    ),
}
"""Slot name -> the words (casefolded text) that put a fact in it."""

# "I've been seeing Marco", "User is seeing Jonas.": seeing someone named is dating them (read before
# casefolding: the capital tells a name; "seeing Dr Patel" is an appointment).
SEEING_NAME = re.compile(
    r"\b(?:(?:is|am|'m|are|'re|been|was|were|started|start)\s+(?:now\s+|still\s+|officially\s+)?seeing"
    r"|(?:not|no\s+longer|n't)\s+(?:seeing|dating))\s+"
    r"(?!(?:Dr|Mr|Mrs|Ms|Miss|Prof|Doctor|Professor)\b)[A-Z][a-z\u00e0-\u00ff]+",
)
"""Seeing a person named, or no longer ("is seeing Jonas", "I'm not seeing Tom anymore"), read on the text as
written (the capital tells a name): a relationship. "No longer with Tom" is not read: "no longer with Google"
says the same of a job."""

# Whose fact it is: "My sister moved to Paris" is not the user's move. A possessive of a person names
# someone else; any other fact (the user's, or "my job", "my car") is the user's.
PERSON = (
    r"(?:sister|brother|mother|mom|mum|mam|father|dad|parents?|son|daughter|kids?|children|child|baby|wife|husband|"
    r"partner|girlfriend|boyfriend|fianc[ée]e?|spouse|friend|best\s+friend|boss|colleague|coworker|co-worker|"
    r"roommate|flatmate|housemate|neighbou?r|grandma|grandpa|grandmother|grandfather|grandparents|aunt|uncle|"
    r"nan|nana|nanna|gran|granny|grandad|granddad|grandsons?|granddaughters?|grandchild(?:ren)?|grandkids?|"
    r"cousin|niece|nephew|in-laws|step\w+|ex)"
)
"""A regex alternation of the words that name a person in the user's life (sister, wife, boss...)."""
PLACED = ("older", "younger", "elder", "eldest", "oldest", "youngest", "little", "big", "twin")
"""The words that place a relative among their siblings ("my older sister", "our eldest son", "my twin brother")."""


def placed(*more: str) -> str:
    """A regex fragment for an optional word of :data:`PLACED`, or one of ``more`` ("best", "late"), and the space
    after it, as it stands before the word naming a relative."""
    return rf"(?:(?:{'|'.join(PLACED + more)})\s+)?"


# People of the user's work and days, whose moves and jobs are theirs ("my manager moved to Galway").
_WORK_AND_DAYS = r"line\s+manager|manager|supervisor|landlord|landlady|teacher|tutor|coach|mentor|therapist|mate|pal|" \
    r"buddy|classmate|teammate|tenant|client"
# Someone of the user's a leading possessive names, kept apart from whom the word is built on: an in-law from the
# parent or sibling ("mother-in-law"), a generation further back from the one before ("great-grandmother"), and an
# auntie from the user.
_OTHER_HOLDER = re.compile(rf"^(?:user's|my|our)\s+{placed()}"
                           rf"(?P<great>(?:great[\s-]+(?=great|gran|nan|aunt|uncle))*)"
                           rf"(?P<who>{PERSON}|aunt(?:ie|y)|{_WORK_AND_DAYS})"
                           rf"(?P<law>-in-law)?\b")
PARTNERS: frozenset[str] = frozenset(
    "wife husband partner girlfriend boyfriend fiance fiancé fiancee fiancée spouse ex".split())
"""The words (lower case) that name the user's partner: in the ``relationship`` slot their fact is the user's."""
# One parent or grandparent, whatever the word: "User's mum" and "User's mother" are the same person's facts.
_SAME_KIN = {"mum": "mother", "mom": "mother", "dad": "father", "grandma": "grandmother", "nan": "grandmother",
             "nana": "grandmother", "nanna": "grandmother", "gran": "grandmother", "granny": "grandmother",
             "grandpa": "grandfather", "grandad": "grandfather", "granddad": "grandfather", "auntie": "aunt",
             "aunty": "aunt"}


def fold(text: str) -> str:
    """``text`` NFKC-normalised, casefolded, with curly apostrophes straight."""
    return unicodedata.normalize("NFKC", text).casefold().replace("\u2019", "'")


_GROUP = re.compile(r"^\W*(?:user's|my|our)\s+(?:[\w-]+\s+)?(?:team|company|firm|office|department|startup|business|"
                    r"employer|school|band|club|project|church|lab)\b")


def speaks_of_a_group(text: str) -> bool:
    """Whether ``text`` is about a group the user belongs to ("Our team moved to Slack.", "User's company moved
    to Berlin."): its move is of its office or its tools, no change of the user's home."""
    return _GROUP.match(fold(text)) is not None


def slots_of(text: str) -> frozenset[str]:
    """The slots ``text`` (a fact or a user message) speaks of (empty when none)."""
    folded = fold(text)
    found = frozenset(name for name, rx in SLOTS.items() if rx.search(folded))
    if "residence" in found and _GROUP.match(folded):
        found -= {"residence"}
    if "relationship" not in found and SEEING_NAME.search(unicodedata.normalize("NFKC", text)):
        found |= {"relationship"}
    return found


def holder(text: str, slot: str | None = None) -> str:
    """Whose fact ``text`` is: ``"user"``, or the person a leading possessive names ("sister" for "User's
    sister moved to Paris."; a parent or grandparent by one word whatever the user calls them: "mother" for
    "User's mum ...", "mother-in-law" for "User's mum-in-law ...", "great-grandmother" for "User's great gran ...").
    In the ``relationship`` slot a partner's fact is the user's relationship."""
    folded = fold(text).strip()
    m = _OTHER_HOLDER.match(folded)
    if m is None:
        return _owner_before(folded, slot) or _clause_subject(text.strip(), folded, slot) or "user"
    who, great, law = m.group("who"), m.group("great").count("great"), m.group("law") or ""
    if slot == "relationship" and who in PARTNERS and not (great or law):
        return "user"
    return "great-" * great + _SAME_KIN.get(who, re.sub(r"\s+", " ", who)) + law


_OWNER_BEFORE = re.compile(rf"(?:\b(?:user's|my|our)\s+(?P<who>{PERSON})'s|"
                           r"\b(?P<name>(?!(?:user|what|who|where|when|why|how|that|it|there|here|he|she|let)'s)"
                           r"[a-z][\w-]*)'s)"
                           r"\s+(?:[\w-]+\s+)?$")


# Slot words that open with a verb or "as" say what the clause's subject is or does, never what a possessive owns:
# "User has been at St James's as a trainee sonographer." is the user's job, at a place called St James's.
_SAID_OF_THE_SUBJECT = re.compile(r"(?:am|is|are|was|were|be|been|being|became|become|becoming|as|trained)\b")


def _owner_before(folded: str, slot: str | None) -> str | None:
    """Whose the words of ``slot`` are when a possessive of someone else stands right before them ("User moved
    to Bath for Tom's new job.": Tom's job, not the user's; "...for my wife's job": the wife's)."""
    rx = SLOTS.get(slot) if slot is not None else None
    hit = rx.search(folded) if rx is not None else None
    if hit is None or _SAID_OF_THE_SUBJECT.match(hit.group()):
        return None
    m = _OWNER_BEFORE.search(folded[: hit.start()])
    if m is None:
        return None
    return re.sub(r"\s+", " ", m.group("who") or m.group("name"))


NAME = r"(?-i:[A-Z])[a-z\u00e0-\u00ff'-]+"
"""A name as typed: one word opening with a capital letter, also inside a pattern that ignores case ("Max",
"Zo\u00eb", "Lisbon"): how every rule that reads a person or a place by name spells one (a regex)."""

# Where a clause of its own begins inside a fact: "User broke up with Sam; he moved out.".
_CLAUSE_BREAK = re.compile(r"[;,:]|\b(?:and|but|so|then|because|after|when|while|since)\b")
# A clause's subject that is someone else: "he", "she", or one name ("Sam"), an adverb allowed before the verb.
_SOMEONE_ELSE = re.compile(rf"^(?P<who>he|she|{NAME})(?:\s+(?:just|finally|also|already|"
                           r"then|has|had|have|recently|suddenly))*\s*$", re.IGNORECASE)


def _clause_subject(text: str, folded: str, slot: str | None) -> str | None:
    """Whose the words of ``slot`` are when they stand in a later clause with someone else as its subject ("User
    broke up with Sam; he moved out.": his move, not the user's home; a "he" or "she" only when the clause before
    names someone); ``None`` when the clause is the user's."""
    rx = SLOTS.get(slot) if slot is not None else None
    hit = rx.search(folded) if rx is not None else None
    if hit is None or len(folded) != len(text):
        return None
    parts = _CLAUSE_BREAK.split(text[: hit.start()])
    if len(parts) < 2 or (len(parts) == 2 and parts[0].strip().casefold() == "user"):
        return None  # the fact's own subject, "User ...", "User and Karim ..."
    m = _SOMEONE_ELSE.match(parts[-1].strip())
    if m is None or m.group("who").casefold() in ("user", "i", "we", "they"):
        return None
    before = " ".join(parts[:-1])
    if m.group("who").casefold() in ("he", "she") and not (
            _NAMED.search(before) or re.search(rf"\b{PERSON}\b", fold(before))):
        return None  # "User got a job in Bath, so she moved there.": a model's "she" for the user, no one else named
    return m.group("who").casefold()


# Someone named as the user's company: "with Sam", "and Sam", "dating Sam" (not a place: "a job in Bath").
_NAMED = re.compile(rf"\b(?:with|and|dating|seeing|married\s+to)\s+(?!User\b){NAME}")


@functools.lru_cache(maxsize=8192)  # the gate reads the same facts' slots on every recall
def slot_keys(text: str) -> frozenset[str]:
    """``"<holder>:<slot>"`` for every slot ``text`` speaks of ("user:residence" for "User lives in Porto.");
    two facts sharing a key say something of the same person's same slot."""
    return frozenset(f"{holder(text, slot)}:{slot}" for slot in slots_of(text))
