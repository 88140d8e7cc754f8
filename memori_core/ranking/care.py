"""The gate's second signal: a personal question about food or health opens the user's care facts.

MiniLM scores "Is a ham sandwich OK for me?" against "User is vegetarian." at 0.27, below the gate,
though any assistant would want that fact. Cosines cannot say that ham is meat; two cheaper signals
can say that the fact matters here:

- the question is about **food or health** (its share of those two life domains, from the embedding's
  similarity to a few prototype sentences per domain, :data:`DOMAIN_PROTOTYPES`), and it is **personal**
  (first person, or read with a conversation);
- the fact is a **care fact**: an allergy or intolerance, a medication, a dietary restriction
  (:func:`is_care_fact`, the same rule the extractors use to mark facts core).

When both hold, a care fact among the ``limit`` best is kept (and opens the gate) from a cosine of
``gate_care_cosine`` on. Measured on the four development sets (docs/ranking.md): app memory needed-fact
hit 0.580 -> 0.624, follow-ups 0.646 -> 0.667, off-topic clean 0.545 -> 0.530; PrefEval hit@5
0.748 -> 0.760 at clean abstentions 0.505 -> 0.500; LongMemEval and LoCoMo hits unchanged.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

import numpy as np

from ..calendar_words import WEEKDAY_STEMS
from ..number_words import number_words

__all__ = [
    "CARE_DOMAINS",
    "DRUG_ENDINGS",
    "asks_if_advisable",
    "DOMAIN_PROTOTYPES",
    "DOMAIN_TEMPERATURE",
    "FIRST_PERSON",
    "FROM_HOME",
    "KIN",
    "OFF_FOODS",
    "SULFONYLUREAS",
    "care_share",
    "domain_shares",
    "for_the_asker",
    "is_care_fact",
    "is_personal",
    "kin_holder",
    "names_holder",
    "names_them",
    "named_by",
    "negated_at",
    "outside_holder",
    "prototype_texts",
    "speaks_of_the_asker",
]

DOMAIN_PROTOTYPES: dict[str, tuple[str, ...]] = {
    "food": ("food, meals, cooking, recipes and what to eat", "restaurants, ordering food, takeaway and snacks",
             "diet, vegetarian or vegan eating, food allergies and intolerances",
             "drinks, coffee, alcohol, wine and beer"),
    "health": ("health, illness, symptoms and doctors", "medication, prescriptions, pills and side effects",
               "allergies, asthma, chronic conditions and pregnancy", "sleep, tiredness, stress and mental health"),
    "fitness": ("exercise, running, gym, training and sport", "hiking, cycling, swimming and yoga",
                "injuries, joints and physical limits"),
    "family": ("family, partner, spouse, children and parents", "kids, school, childcare and birthdays",
               "relatives visiting, friends and relationships"),
    "pets": ("pets, dogs, cats and animals", "vet visits, pet food and walking the dog"),
    "work": ("job, career, office, colleagues and boss", "work schedule, shifts, meetings and deadlines",
             "business, clients and freelancing"),
    "commute": ("commuting, driving, car, bike, bus and train", "getting around town, traffic and parking"),
    "travel": ("travel, holidays, flights, hotels and trips abroad", "packing, passports, visas and sightseeing"),
    "home": ("home, flat, house, rent, mortgage and neighbours", "garden, cleaning, furniture and home repairs"),
    "money": ("money, budget, savings, debt and bills", "spending, prices, shopping costs and investments"),
    "hobbies": ("hobbies, music, instruments, games and crafts", "reading books, films, TV series and podcasts",
                "learning a language, courses and studying"),
    "shopping": ("shopping, clothes, gifts and buying things", "products, brands, gadgets and technology"),
}
"""Everyday life domains, each described by a few short sentences. A question's share of a domain is a
softmax over the domains' best prototype similarity; the other domains are there so that food and health
are measured against the rest of a life, not alone."""

CARE_DOMAINS: tuple[str, ...] = ("food", "health")
"""The domains whose questions open care facts."""

DOMAIN_TEMPERATURE = 0.05
"""Softmax temperature over the domains' best prototype cosines (MiniLM cosines differ by a few hundredths)."""

FIRST_PERSON = re.compile(
    r"\b(?:i|i'm|i've|i'd|i'll|im|me|my|mine|myself|we|we're|we've|we'd|we'll|us|our|ours|ourselves)\b",
    re.IGNORECASE,
)
"""A word by which the asker speaks of themselves, singular or plural."""
# a sentence that drops its "I", as chat does: "Got a small bonus from work.", "Need to paint the ceiling.",
# "Thinking of heading out to Hakone on Sunday."
_DROPPED_I = re.compile(
    r"(?:^|[.!?]\s+)\W*(?:got|need|needing|going|gonna|thinking|planning|heading|want|wanna|trying|looking|hoping|"
    r"been|just\s+(?:got|had|found|started|booked|bought)|off\s+to|feeling|starting|gotta|found|bought|booked|"
    r"stuck|craving|fancy|fancying|finally|managed|saw)\b",
    re.IGNORECASE,
)
# a dropped "I" after a comma: "Sewin are running on the Dyfi, thinking of going out tonight"
_DROPPED_I_AFTER = re.compile(
    r",\s+(?:thinking|thinkin|planning|hoping|heading|feeling|feelin|gonna|wanna|trying|been\s+up)\b", re.IGNORECASE)
# the asker in Scots and other dialect spellings: "ma period pain", "what can a take", "so a can go out", "a've
# reported it twice", "am bricking it" ("ma" as "Ma" too, a mother; not "MA", a degree, nor "Ma Rainey")
_DIALECT_I = re.compile(
    r"\b(?-i:ma|Ma(?!\s+[A-Z]))\b|\b(?:masel|a've|a'm|a'll|a'd)(?!\w)"
    r"|\b(?:can|could|should|shall|will|would|do|did|might|must|cannae|canny|dinnae|widnae|shouldnae)\s+a\s+"
    r"(?:take|try|use|get|make|go|have|eat|drink|give|do|be|buy|bring|wear|ask|see|call|book|stop|start|keep|put|"
    r"cook|feed|let|leave|say|tell|send|pay|find|sleep|walk|drive|run|fly|mix|skip|add)\b"
    r"|\b(?:so|and|but|if|when|till|until|before|then)\s+a\s+(?:can(?!\s+of\b)|could|should|might|cannae|canny|"
    r"dinnae|need\s+to|want\s+to|have\s+to)\b"
    r"|(?:^|[,.!?;]\s*)am\s+\w+(?:ing|in)\b",
    re.IGNORECASE,
)
# "Is it okay to eat kale every day?", "Would the ferry be a good idea?": asked in a chat, the asker's own case
_ADVICE = re.compile(
    r"\b(?:is|are|would|will)\s+(?:it|that|this|they|[\w-]+)\s+(?:be\s+)?(?:still\s+)?"
    r"(?:ok|okay|safe|fine|alright|all\s+right|wise|sensible|healthy|bad|normal|serious|"
    # a decision asked of the assistant: "is it smart to buy a new car this year", "is it worth fixing" (item 57)
    r"smart|daft|silly|stupid|crazy|too\s+(?:late|early|soon|much)|worth\s+(?:it|\w+ing)|"
    r"a\s+(?:good|bad)\s+(?:idea|fit|choice|option|plan))\b"
    r"|\b(?:a\s+)?(?:good|bad)\s+idea\b"
    # which things are safe for the asker's home or table: "Which houseplants are safe to keep at home?"
    r"|\b(?:which|what)\s+(?:\w+\s+){1,3}?(?:is|are)\s+(?:still\s+)?safe\s+(?:to|for|around|with)\b",
    re.IGNORECASE,
)


# where the asker is, said from there: "How long is the drive from here?", "What can we do round here?", "I want to
# run a 10k here in Tampere" (not "Here's my code", "What does 'here' mean here?")
_HERE = re.compile(r"\b(?:from|round|around|near|out|up|down|over)\s+here\b|\bhere\s+in\s+(?-i:[A-Z])",
                   re.IGNORECASE)
# the sky over the asker, asked for a time or for "here" with no place named: "What's the weather like for netball
# tonight?", "What time does the sun set here?" ("the weather in Oslo tomorrow" names one; "How does a forecast work?"
# asks for no time)
_SKY = re.compile(r"\b(?:weather|forecast|temperature|sunset|sunrise|sun\s+(?:sets?|rises?|goes\s+down|comes\s+up)|"
                  r"(?:gets?|getting)\s+dark|(?:will|is|gonna|going\s+to)\s+(?:it\s+)?(?:be\s+)?(?:rain|snow)(?:ing)?)\b",
                  re.IGNORECASE)
_SKY_WHEN = re.compile(r"\b(?:here|today|tonight|tomorrow|this\s+(?:week|weekend|morning|afternoon|evening)|"
                       r"on\s+(?-i:[A-Z])[a-z]+day|at\s+the\s+weekend|later)\b", re.IGNORECASE)
_PLACE_NAMED = re.compile(rf"\b(?:in|at|for|over|near|around)\s+(?!(?:{WEEKDAY_STEMS.title()})day\b)"
                          r"(?-i:[A-Z])[a-z]")


def asks_the_sky_here(text: str) -> bool:
    """Whether the question asks the weather or the daylight where the asker is (:data:`_SKY`)."""
    return (_SKY.search(text) is not None and _SKY_WHEN.search(text) is not None
            and _PLACE_NAMED.search(text) is None)


def _words(*items: str) -> str:
    """An alternation of words/phrases, longest first (spaces match any run of spaces)."""
    return "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in sorted(items, key=len, reverse=True))


SULFONYLUREAS = ("gliclazide", "glipizide", "glimepiride", "glibenclamide", "glyburide", "sulfonylurea", "sulphonylurea")
"""The tablets that lower blood sugar by making more insulin (with alcohol or a skipped meal, a hypo): care facts
here, and what meets a drink or a meal in :mod:`.concerns`."""

_DRUGS = _words(
    "metformin", "insulin", "warfarin", "levothyroxine", "lisinopril", "atorvastatin", "simvastatin", "statin",
    "statins", "sertraline", "fluoxetine", "citalopram", "lithium", "methotrexate", "prednisone", "antidepressant",
    "antidepressants", "blood thinner", "blood thinners", "beta blocker", "beta blockers", "ssri", "ssris",
    "adderall", "ritalin", "the pill", "birth control", "naproxen", "aspirin", "ibuprofen", "paracetamol",
    "acetaminophen", "escitalopram", "venlafaxine", "bupropion", "mirtazapine", "lamotrigine", "levetiracetam",
    "valproate", "carbamazepine", "clopidogrel", "digoxin", "allopurinol", "hydroxychloroquine", "tamoxifen",
    "letrozole", "finasteride", "tamsulosin", "sildenafil", "tadalafil", "spironolactone", "amiodarone",
    *SULFONYLUREAS,
    # Brand names are how most users name what they take.
    "eliquis", "xarelto", "coumadin", "plavix", "brilinta", "pradaxa", "zoloft", "lustral", "prozac", "lexapro",
    "cipralex", "celexa", "paxil", "seroxat", "wellbutrin", "cymbalta", "effexor", "abilify", "seroquel",
    "lamictal", "keppra", "depakote", "epilim", "tegretol", "xanax", "valium", "ativan", "klonopin", "ambien",
    "concerta", "vyvanse", "elvanse", "strattera", "lyrica", "neurontin", "ozempic", "wegovy", "mounjaro",
    "zepbound", "rybelsus", "trulicity", "victoza", "saxenda", "jardiance", "farxiga", "forxiga", "januvia",
    "glucophage", "lantus", "humalog", "novolog", "novorapid", "levemir", "tresiba", "lipitor", "crestor", "zocor",
    "synthroid", "levoxyl", "eltroxin", "norvasc", "zestril", "toprol", "lopressor", "diovan", "cozaar", "lasix",
    "entresto", "humira", "enbrel", "remicade", "stelara", "dupixent", "otezla", "plaquenil", "nexium", "prilosec",
    "losec", "protonix", "singulair", "ventolin", "symbicort", "seretide", "advair", "flovent", "spiriva",
    "flomax", "cialis", "viagra", "valtrex", "accutane", "roaccutane", "suboxone", "imitrex", "topamax", "fosamax",
    "aricept", "sinemet", "paxlovid", "microgynon", "yasmin", "mirena", "baclofen", "tizanidine", "modafinil",
    "zyrtec", "claritin", "clarityn", "benadryl", "piriton", "xyzal", "telfast", "reactine",
)
DRUG_ENDINGS: dict[str, tuple[str, ...]] = {
    "blood pressure": ("pril", "sartan", "olol", "dipine", "thiazide", "semide"),
    "mood": ("oxetine", "alopram", "faxine", "triptyline", "pramine"),
    "cholesterol": ("statin",),
    "blood sugar": ("formin", "gliptin", "glitazone", "glutide", "gliflozin"),
    "stomach acid": ("prazole", "tidine"),
    "blood thinning": ("xaban", "gatran", "parin"),
}
"""What a medicine is for -> the endings (USAN/INN stems) of the names of the drugs for it (ramipril, sertraline,
omeprazole...): the care rule reads a drug by them, and capture which use two medicines share
(:data:`~memori_core.extraction.medicine_classes.MEDICINE_USES`)."""
# Drug names by their USAN/INN stems (amlodipine, gabapentin, methylphenidate, omeprazole...): a list of names
# cannot keep up with what users take, the naming system's endings can. Those of a use above, and the others.
_DRUG_STEMS = r"[a-z]{2,}(?:" + "|".join((*(e for endings in DRUG_ENDINGS.values() for e in endings),
    "zepam", "azolam", "pentin", "gabalin", "phenidate", "amfetamine", "amphetamine", "cillin", "mycin", "cycline",
    "floxacin", "conazole", "thyroxine", "nisone", "nisolone", "cortisone", "profen", "fenac", "coxib", "codone",
    "morphone", "triptan", "setron", "lukast", "buterol", "meterol", "moterol", "butamol", "sonide", "tropium",
    "zapine", "tiapine", "peridone", "tirzepatide", "umab", "imab", "trigine", "racetam", "dronate", "fibrate",
    "steride", "afil", "tadine", "fenadine", "tirizine", "azosin", "ulosin")) + ")"
DRUG_NAME = rf"(?:{_DRUGS}|{_DRUG_STEMS})"
"""A medicine's name, from the list or by its USAN/INN stem (a regex alternation, matched case-insensitively)."""
# A drug as a fact names it after "takes" or "on": "takes metformin", "on daily warfarin", "taking her amlodipine".
_A_DRUG = rf"\s+(?:(?:daily|a|an|some|their|her|his)\s+)?{DRUG_NAME}\b"
SUPPLEMENT = (r"(?:iron|folic\s+acid|folate|vitamins?(?:\s+(?:[a-e]\d{0,2}|d3))?|b12|supplements?|magnesium|zinc|"
              r"calcium|potassium|fish\s+oil|omega[\s-]?3s?|probiotics?|melatonin|multivitamins?|cod\s+liver\s+oil)")
"""A supplement taken as a medicine is ("takes iron and folic acid every day", "vitamin D"): a regex alternation."""
# What is taken by the day as a dose: a pill, a tablet, drops, puffs, a dose, or an amount in mg ("takes two pills
# every morning", "takes eye drops nightly", "takes 10mg of it daily").
_DOSE_NOUN = r"(?:pills?|tablets?|capsules?|caps|drops|puffs?|doses?|sachets?|injections?|mg|mcg|ml|iu)"
# Capitalised words one takes by the day that are no medicine: a language or a subject studied, a way to travel
# (a ride app, a rail line), a class or a sport, an app ("takes Spanish / Lyft / Caltrain / Zumba every day").
_NAMED_NOT_A_MEDICINE = (
    r"(?:Spanish|French|German|Italian|English|Mandarin|Cantonese|Chinese|Japanese|Korean|Arabic|Portuguese|Russian|"
    r"Latin|Greek|Hindi|Urdu|Dutch|Polish|Turkish|Swedish|Hebrew|Irish|Welsh|Tagalog|Vietnamese|Thai|Maths?|"
    r"Physics|Chemistry|Biology|History|Calculus|Algebra|Economics|Lyft|Ubers?|Caltrain|Amtrak|Metro\w*|Muni|"
    r"Tube|Overground|Bolt|Grab|Waymo|Citi\s*Bike|Lime|Greyhound|Megabus|Eurostar|Zumba|CrossFit|Pilates|Yoga|"
    r"Peloton|Barre|Ballet|Spin|Piano|Zoom|Teams|Duolingo|Netflix|Instagram|TikTok)"
)
# More forms of a generic drug's name, read only as taken by the day: a salt ("ferrous fumarate", "zinc sulfate"),
# an opioid blocker ("naltrexone"), a levodopa ("co-careldopa") and a cephalosporin ("cephalexin", "cefalexin").
_GENERIC_FORM = (r"(?:[a-z][a-z-]+(?:trexone|dopa)|fumarate|sulfate|sulphate|citrate|gluconate|succinate|tartrate|"
                 r"maleate|ce(?:ph|f)a[a-z]{3,})")
# A medicine's name as taken by the day: a drug's (:data:`DRUG_NAME`) or a supplement's, a word before it or a salt
# after it included ("sodium valproate", "levothyroxine sodium"), or a capitalised word no
# table above holds, read case-sensitively (a brand no list holds: "takes Telfazyl twice a day"), with a letter or
# two after it ("Allegra D"); or what a dose is counted in ("two pills", "eye drops", "10mg of ...").
_DOSED_NAME = (
    rf"(?:(?:[a-z][\w-]*\s+)?(?:{DRUG_NAME}|{SUPPLEMENT}|{_GENERIC_FORM})\b"
    r"(?:\s+(?:sodium|potassium|calcium|hcl|hydrochloride))?"
    rf"|(?-i:(?!{_NAMED_NOT_A_MEDICINE}\b)[A-Z][a-z][\w-]*(?:\s+[A-Z]{{1,2}})?)\b"
    rf"|(?:[a-z0-9][\w.-]*\s+)?{_DOSE_NOUN}\b(?:\s+of\s+[a-z][\w-]*)?)"
)
# The times of a daily dose: "every day", "each morning", "daily", "twice a day", "every 8 hours".
_DAILY = (r"(?:(?:every|each)\s+(?:single\s+)?(?:day|morning|evening|night)|daily|nightly|at\s+bedtime|before\s+bed|"
          r"(?:once|twice|three\s+times|four\s+times|\d\s+times)\s+(?:a|per|each)\s+day|every\s+\d+\s+hours)\b")
DAILY_DOSE = (
    rf"(?<!n't\s)(?<!not\s)(?<!never\s)(?<!longer\s)\b(?:takes?|taking)\s+"
    rf"(?:(?:his|her|my|their|a|an|{number_words('twelve')}|half\s+a|\d+(?:\.\d+)?)\s*)?{_DOSED_NAME}"
    rf"(?=\s+{_DAILY})"
)
"""A daily dose (the words up to its times, which it looks ahead at): what is taken by the day when it looks like a
medicine: a drug's or a supplement's name, a capitalised name no table of languages, rides, classes or apps holds
("takes Zyrtec every day", "take Allegra D each morning", "taking Telfazyl twice a day": a brand no list holds), or
what a dose is counted in ("takes two pills every morning", "takes eye drops nightly"). A habit is none ("takes
cold showers / five minutes / Spanish / Lyft / attendance every morning"), nor is what is not taken ("doesn't take
anything daily"): a regex, matched case-insensitively except the capital of a brand."""
CARRIED_MEDICINE = (
    r"\b(?:insulin|inhalers?|puffers?|epi-?pens?|adrenaline\s+pens?|cpap|glucose\s+(?:monitor|sensor)s?|"
    r"libre\s+sensors?|dexcom|pill\s+organi[sz]ers?|medications?|medicines?|meds|prescriptions?|diabet\w*|"
    r"asthma\w*|epilep\w*|anaphyla\w*)\b"
    rf"|\b(?:takes?|taking|on){_A_DRUG}|{DAILY_DOSE}"
)
"""A medicine or a medical device the user takes or relies on (insulin, an inhaler, an EpiPen, a CPAP machine,
"takes levothyroxine"), or a condition that needs one at hand (diabetes, asthma, epilepsy, anaphylaxis): what
they must pack for a trip (a regex)."""
OFF_FOODS = r"dairy|gluten|wheat|meat|red\s+meat|pork|sugar|alcohol|booze|the\s+booze|caffeine|carbs|eggs|nuts"
"""What a user can be "off" as a diet ("I'm off dairy now"): a regex alternation."""
_CARE_TERMS = re.compile(
    r"\b(?:allerg(?:y|ies|ic)|intoleran(?:t|ce|ces)|anaphyla\w*|epi-?pens?|coeliac|celiac|"
    r"medications?|medicines?|meds|prescri(?:bed|ption|ptions)|inhalers?|puffers?|"
    r"pregnan(?:t|cy)|prenatal|breast[\s-]?feed(?:ing|s)?|(?:pre-?)?diabet(?:es|ic)|asthma(?:tic)?|epilep(?:sy|tic)|hypertension|"
    r"high\s+blood\s+pressure|gout|ibs|irritable\s+bowel|crohn'?s|colitis|low[-\s]fat\s+(?:meals|diet|food)|"
    r"sickle[\s-]cell|gallstones?|(?:chronic\s+)?hepatitis(?:\s+[abc])?|cirrhosis|fatty\s+liver|"
    r"vegetarian|vegan|pescatarian|halal|kosher|teetotal(?:l?er)?|"
    # staying off alcohol after an addiction is a restriction like "alcohol-free"
    r"sober|sobriety|recovering\s+alcoholic|alcoholism|alcohol\s+(?:addiction|dependence)|"
    r"(?:aa|alcoholics\s+anonymous)\s+meetings?|"
    r"(?:gluten|lactose|dairy|nut|peanut|alcohol)[-\s]free)\b"
    rf"|\b(?:takes?|taking|took|on){_A_DRUG}|{DAILY_DOSE}"
    rf"|\b(?:switched|changed|moved)\b[^.]{{0,40}}\bto\s+(?:{_DRUGS}|{_DRUG_STEMS})\b"
    rf"|\boff\s+(?:{OFF_FOODS})\b"
    r"|\b(?:doctor|gp|dietitian|dietician)\b[^.]{0,30}\b(?:told|advised|wants|said)\b[^.]{0,30}"
    r"\b(?:cut\s+(?:down|back)\s+on|avoid|stop\s+(?:eating|drinking)|no\s+more|keep\s+(?:\w+\s+)?(?:salt|sugar|sodium|fat)\s+low|"
    r"no\s+(?:alcohol|booze|salt|sugar|caffeine|coffee))\b"
    r"|\b(?:do(?:es)?n't|do(?:es)?\s+not|never|no\s+longer|cannot|can't|can\s+not)\s+(?:drink|drinks|consume)\s+"
    r"(?:any\s+)?(?:alcohol|booze|wine|beer|spirits|liquor)\b"
    r"|\b(?:avoids?|avoiding|abstains?\s+from|stays?\s+away\s+from)\s+(?:all\s+|any\s+)?alcohol\b"
    r"|\b(?:barely|rarely|hardly\s+ever|seldom)\s+drinks?\b"
    r"|\b(?:do(?:es)?n't|do(?:es)?\s+not|never|no\s+longer|cannot|can't|can\s+not|won't)\s+eats?\s+(?:any\s+)?"
    r"(?:red\s+)?(?:meat|pork|beef|fish|seafood|shellfish|dairy|eggs?|gluten|wheat|nuts|peanuts|sugar)\b"
    r"|\b(?:low[-\s]carb|keto(?:genic)?\s+diet|low[-\s](?:salt|sodium|sugar)|sugar[-\s]free)\b"
    r"|\b(?:follows?|following|keeps?|keeping|on)\s+(?:a|an|the)\s+(?:strict\s+)?[\w-]+\s+diet\b"
    r"|\b(?:cutting|cuts?)\s+(?:down|back)\s+on\s+(?:sugar|salt|alcohol|carbs|meat|dairy|caffeine)\b"
    r"|\b(?:do(?:es)?n't|do(?:es)?\s+not|never)\s+drinks?\s*[.!]*$"
    # what a person avoids or keeps to as their diet: "avoids caffeine", "only eats fermented foods",
    # "strongly avoids foods containing soy", "follows a whole-food, plant-based diet"
    r"|\b(?:avoids?|avoiding|cuts?\s+out|cut\s+out|steers?\s+clear\s+of|gave\s+up|quit|aversion\s+to)\s+"
    r"(?:all\s+|any\s+)?(?:kinds?\s+of\s+)?(?:foods?\s+(?:containing|with|that\s+contain)\s+)?"
    r"(?:caffeine|soy|soya|dairy|gluten|wheat|meat|red\s+meat|pork|fish|shellfish|seafood|eggs|nuts|peanuts|"
    r"sugar|refined\s+sugar|animal\s+products|processed\s+foods?|artificial\s+(?:additives|sweeteners)|additives|"
    r"preservatives|fried\s+foods?|spicy\s+foods?)\b"
    r"|\b(?:only\s+(?:eats?|consumes?|drinks?)|(?:eats?|consumes?)\s+only)\s+(?:\w+\s+){0,3}?"
    r"(?:foods?|produce|meat|fish|vegetables|herbs|dishes)\b"
    r"|\b(?:plant[\s-]based|whole[\s-]foods?|raw[\s-]food|paleo|mediterranean|carnivore)\s+diet\b"
    # a diet told as what the user went or keeps to: "User went keto.", "User is doing keto.", "User is on keto."
    r"|\b(?:went|gone|going|goes|doing|does|started|starting|on)\s+(?:full\s+|strict(?:ly)?\s+)?"
    r"(?:keto(?:genic)?|paleo|plant[\s-]based|carnivore|whole30)\b(?![\s-](?:bars?|snacks?|recipes?|cookbooks?))",
    re.IGNORECASE,
)
_DIET_WORD = frozenset({"vegetarian", "vegan", "pescatarian", "halal", "kosher"})
NOT_FOOD = re.compile(
    r"\b(?:cosmetics?|make-?up|beauty|skin\s*care|toiletr(?:y|ies)|shampoos?|soaps?|lotions?|moisturi[sz]ers?|"
    r"sunscreens?|sunblock|sun\s*creams?|spf|"
    r"perfumes?|clothing|clothes|fashion|outfits?|wear|wearing|leather|wool|silk|fabrics?|shoes|footwear|"
    r"furniture|cruelty-free|"
    # a toast that is a speech: "I have to give a toast at my sister's wedding"
    r"(?:give|giving|make|making|propose|proposing|raise|raising)\s+a\s+toast)\b",
    re.IGNORECASE,
)
"""Words about what is worn, bought or put on the skin: a diet word in a fact beside them is not about food
("User only buys vegan cosmetics."), nor is a food word in a question ("What should I wear to the dinner?",
"body lotions or creams")."""
_NEGATED = re.compile(r"\b(?:not|no|no\s+longer|isn't|aren't|wasn't|never|without)\s+(?:\w+\s+){0,2}$", re.IGNORECASE)


def negated_at(text: str, start: int) -> bool:
    """Whether the words just before ``start`` negate what follows ("User no longer has gestational diabetes.",
    "User does not take any medication.")."""
    return _NEGATED.search(text[max(0, start - 30) : start]) is not None


# "US" in capitals in a turn that is not all capitals is the country ("size 8 in US kids", "US visa rules"); so is "us"
# typed in lower case right before what only a country has ("4200 yen in us dollars", "us citizens"); not the asker
# and those with them after a verb that takes them ("help us open a savings account", "recommend us states to visit")
_THE_US = re.compile(r"\bUS\b|(?<!\w)(?<!(?i:help)\s)(?<!(?i:let)\s)(?<!(?i:give)\s)(?<!(?i:recommend)\s)"
                     r"(?<!(?i:show)\s)(?<!(?i:tell)\s)(?<!(?i:for)\s)(?i:us)\s+(?=(?i:dollars?|cents?|citizens?|citizenship|passports?|embassy|consulate|"
                     r"government|president|presidential|elections?|senate|congress|constitution|federal|military|army|"
                     r"navy|customs|census|states|economy|treasury|gallons?|pints?|cups?|sizes?|open)\b)")


def asks_if_advisable(text: str) -> bool:
    """Whether ``text`` asks if something is okay, safe, wise or a good idea ("Is it okay to eat kale every day?",
    "Would the ferry be a good idea?"): in a chat, a question about the asker's own case (:func:`is_personal`), and
    one whether to do something (:func:`~memori_core.ranking.core.core_turn_concerns`).

    >>> asks_if_advisable("Is it safe to fly at 30 weeks?"), asks_if_advisable("Is it raining in Leeds?")
    (True, False)
    """
    return _ADVICE.search(text.replace("\u2019", "'")) is not None


def is_personal(question: str) -> bool:
    """Whether the question speaks about the asker: in the first person (singular or plural, or with the "I"
    dropped as chat does: "Got a bonus, what should I do with it?"), from where the asker is ("How long is the
    drive from here?"), in a dialect's spelling ("what can a take", "ma mum"), or asking
    whether something is okay, safe or a good idea ("Is it okay to eat kale every day?"), which in a chat is
    asked for the asker's own case."""
    text = question.replace("\u2019", "'")
    if not question.isupper():
        text = _THE_US.sub(" ", text)
    return (FIRST_PERSON.search(text) is not None or _ADVICE.search(text) is not None
            or _DROPPED_I.search(text) is not None or _HERE.search(text) is not None or asks_the_sky_here(text)
            or _DROPPED_I_AFTER.search(text) is not None or _DIALECT_I.search(text) is not None)


# "me" as the one a request is made to, not the one it is about: "Tell me a joke.", "Give me a word for happy.",
# "Explain to me how interest works."; and the asker as the audience an explanation is pitched at ("explain
# idempotency like I'm a PM", "like im 5") or "we" as people at large ("do dogs feel pain like we do?")
_ASKED_OF_ME = re.compile(
    r"\b(?:tell|give|show|write|send|teach|read|explain)\s+(?:(?:it|this|that)\s+)?(?:to\s+)?me\s+"
    r"(?=(?:a|an|the|some|something|one|about|how|why|who|when|where|\d+)\b)"
    r"|\blike\s+(?:i'm|im|i\s+am)\s+(?:a\s+|an\s+)?(?:\d+|five|ten|twelve|child|kid|beginner|newbie|"
    r"layman|pm|manager|grandma|grandpa|toddler|(?:\w+\s+)?(?:year[\s-]old|student|engineer|developer))\b"
    r"|\blike\s+(?:we|us)\s+(?:do|humans|people)\b",
    re.IGNORECASE,
)


def speaks_of_the_asker(turn: str) -> bool:
    """Whether a turn is about the asker (:func:`is_personal`) once the "me" a request is addressed by is left
    out: "Tell me a joke." and "Can you recommend a good podcast?" are not, "Tell me what I can eat." is.

    >>> [speaks_of_the_asker(t) for t in ("Tell me a joke.", "Tell me what to cook.", "Give me a plan for my week.")]
    [False, True, True]
    """
    return is_personal(_ASKED_OF_ME.sub(" ", turn))


# "the kids", "the baby": in a chat, the asker's own
FROM_HOME = re.compile(r"(?<!\bwork\s)(?<!\bworks\s)(?<!\bworking\s)\b(?:from|to|near)\s+home\b(?!\s+(?:page|screen|button|office|"
                       r"loan|insurance|improvement|decor|made|cooked|baked|school|schooling|assistant|gym)\b)", re.IGNORECASE)
"""The asker's home used rather than named ("How long by train from home?", "the nearest pharmacy to home"); working
from home is a way of working, "home page" and "home loan" no place."""
_OURS = re.compile(rf"\bthe\s+(?:kids|children|baby|twins|grandkids|grandchildren|family)\b|{FROM_HOME.pattern}",
                   re.IGNORECASE)
# a request that names no one else ("Any ideas for a family getaway?", "Anything fun to drink?", "Plan a weekend away.")
_REQUEST = re.compile(
    r"^\W*(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
    r"(?:plan|suggest|recommend|help\s+(?:me|us)|give\s+me|find\s+(?:me|us)|any\s+(?:ideas|suggestions|tips)|"
    r"(?:ideas|tips|advice)\s+(?:for|to|on)|anything|something|any\s+(?:good|nice|decent|fun|cheap|big|great)\b|"
    r"any\s+(?:\w+\s+){1,2}?(?:recommendations|suggestions|ideas|tips)\b)\b"
    # a closing request after the situation is told: "Client dinner at a loud place next week. Any advice?"
    r"|(?:^|[.!?,;]\s+)(?:any\s+(?:advice|ideas|tips|suggestions|recommendations|thoughts)|advice|ideas|"
    r"suggestions|tips)\s*\??\s*$"
    # the request after the plan it is for: "Movie night on Friday, anything good on?"
    r"|[,;]\s*(?:anything|any)\s+(?:good|fun|nice|decent|worth)\b"
    # a request closing the plan it is for: "Cousins are coming for lunch, give me a menu"
    r"|[,;.]\s*(?:please\s+)?(?:give|make|plan|suggest|find)\s+(?:me|us)\b(?!\s+(?:a\s+)?(?:moment|minute|sec|second)\b)",
    re.IGNORECASE,
)


# asking the assistant's own suggestion or opinion, anywhere in the turn ("What starter would you suggest?",
# "The satay looks great, thoughts?"): the answer is for the asker's case
_OPINION = re.compile(
    r"\b(?:would|do|could|can|will)\s+you\s+(?:suggest|recommend|advise|pick|choose|go\s+for|reckon)\b"
    r"|\bwhat\s+do\s+you\s+(?:think|suggest|recommend)\b|\byour\s+(?:thoughts|take|advice|pick|suggestions?)\b"
    r"|\bthoughts\s*\?"
    # advice to pass on: "Yumi asks which week she should come. What would you tell her?"
    r"|\bwhat\s+(?:would|should)\s+you\s+(?:tell|say\s+to)\s+(?:her|him|them)\b"
    # a closing check of a plan told before it: "The exam is on a Saturday morning. Any problem with that date?"
    r"|(?:^|[.!?]\s+)any\s+(?:problems?|issues?|clash(?:es)?|conflicts?)"
    r"(?:\s+with\s+(?:that|this|it|those)(?:\s+\w+)?)?\s*\?\s*$"
    # what a visitor should not miss is asked for the visitor: "What are the must-try dishes in Tokyo?"
    r"|\bmust[\s-](?:try|see|do|visit|eat)\b|\bworth\s+(?:trying|seeing|visiting|doing|going|buying|getting|it)\b"
    r"|\b(?:best|good|efficient|easiest|cheapest|quickest)\s+ways?\s+to\s+(?:get\s+(?:around|to|from|between|into)|"
    r"travel|commute|explore)\b",
    re.IGNORECASE,
)


def for_the_asker(question: str) -> bool:
    """Whether, asked in a chat, the question is about the asker's own case: :func:`is_personal`, or it speaks
    of "the kids" / "the baby" / "the family" (the asker's own), or it is a request that names no one
    ("Any ideas for a family getaway?", "Can you plan a cheap weekend away?"), or it asks the assistant's own
    suggestion or opinion ("What starter would you suggest?", "Looks great, thoughts?").

    >>> for_the_asker("Any ideas for a weekend away?"), for_the_asker("What is the best age for kids to start school?")
    (True, False)
    """
    return (speaks_of_the_asker(question) or _OURS.search(question) is not None
            or _REQUEST.search(question) is not None or _OPINION.search(question) is not None)


@functools.lru_cache(maxsize=4096)
def is_care_fact(text: str) -> bool:
    """An allergy or intolerance, a medication (by name or by its drug-name stem: "takes amlodipine"), a condition
    that constrains food or activity (pregnancy, diabetes, asthma, epilepsy, high blood pressure), a doctor's
    dietary advice ("doctor told her to cut down on salt"), or a dietary restriction (vegetarian, vegan, halal,
    kosher, gluten-free, coeliac, lactose-free, no alcohol...). A term right after a negation does not count
    ("User is not vegan.", "User has no allergies."), nor does a diet word about what the user buys rather than
    eats ("User only buys vegan cosmetics.").

    >>> is_care_fact("User is allergic to peanuts."), is_care_fact("User lives in Leeds.")
    (True, False)
    """
    not_food = None
    for m in _CARE_TERMS.finditer(text):
        if negated_at(text, m.start()):
            continue
        if m.group().lower() in _DIET_WORD:
            if not_food is None:
                not_food = NOT_FOOD.search(text) is not None
            if not_food:
                continue
        return True
    return False


# Whose a fact is, when it is someone's of the user's: "User's colleague Tim is allergic to penicillin." -> "colleague Tim".
_POSSESSOR = re.compile(
    r"^\W*(?:i\s+(?:think|guess|believe|suppose|reckon)\s+)?(?:user['\u2019]s|my|his|her|their|our)\s+"
    r"((?:[\w'-]+\s+){0,2}?[\w'-]+)\s+(?:is|are|was|were|has|have|had|takes?|took|can't|cannot|can|doesn't|does|don't|do|"
    r"eats?|follows?|keeps?|avoids?|told|tells|says|said|gets?|got|needs?|must|should|wants?|reacts?|suffers?)\b",
    re.IGNORECASE,
)
# The user's household: a partner's or a child's diet shapes the user's own meals; a clinician's advice is the
# user's own ("User's doctor told her to..."), as is "User's allergy ...".
# A partner or a child: the user's household by kin.
_HOUSEHOLD_KIN = (r"partner|wife|husband|spouse|boyfriend|girlfriend|fianc[eé]e?|sons?|daughters?|child|children|kids?|"
        r"bab(?:y|ies)|toddlers?|twins|stepsons?|stepdaughters?")
_HOUSEHOLD = re.compile(
    rf"\b(?:{_HOUSEHOLD_KIN}|family|household|doctors?|gp|dieti[ct]ian|nurse|"
    r"specialist|allergist|consultant|midwife|cardiologist|endocrinologist|diabetes|allerg\w*|surgeon|physio\w*|"
    r"dentist|therapist|psychiatrist|neurologist|rheumatologist|dermatologist|gastroenterologist|obstetrician|"
    r"optician|pharmacist|"
    # the user's own body: "User's left knee is bad.", "User's blood pressure is high."
    r"knees?|hips?|back|lower\s+back|neck|shoulders?|elbows?|wrists?|hands?|fingers?|legs?|ankles?|feet|foot|toes?|"
    r"eyes?|eyesight|ears?|hearing|teeth|tooth|skin|stomach|gut|heart|lungs?|chest|"
    r"head(?!\s+(?:of|teacher|chef|coach|nurse|office|gardener))|blood\s+pressure|"
    r"blood\s+sugar|cholesterol|weight|health|joints?|immune\s+system)\b",
    re.IGNORECASE,
)
_SOMEONE_ELSE = re.compile(r"^\W*(?:a|one|some|another)\s+(friend|colleague|co-?worker|neighbou?r|guest)\b",
                           re.IGNORECASE)


# A member of the user's household by kin, not a clinician nor a part of the user's own body.
_KIN_HOLDER = re.compile(rf"\b(?:{_HOUSEHOLD_KIN})\b", re.IGNORECASE)


def kin_holder(fact: str) -> str | None:
    """Who a fact is about, when that is a partner or a child of the user's household: ``"girlfriend Priya"`` for
    "User's girlfriend Priya is coeliac."; ``None`` for the user's own facts, a clinician's advice and anyone
    outside the household (:func:`outside_holder`).

    >>> kin_holder("User's girlfriend Priya is coeliac."), kin_holder("User's doctor told her to cut salt.")
    ('girlfriend Priya', None)
    """
    owner = _POSSESSOR.match(fact)
    if owner is None or not _KIN_HOLDER.search(owner.group(1)):
        return None
    return owner.group(1)


def names_them(holder: str, text: str) -> bool:
    """Whether ``text`` names ``holder`` (a relation or a name, as :func:`kin_holder` gives it) or speaks of "we"
    (those the user lives with)."""
    named = _relations(text)
    return bool(named & _WE) or _names(holder, named)


def outside_holder(fact: str) -> str | None:
    """Who a fact is about, when that is someone outside the user's household: ``"colleague Tim"`` for "User's
    colleague Tim is allergic to penicillin.", ``"friend"`` for "A friend of mine is vegan."; ``None`` for the
    user's own facts and their partner's, children's or clinician's.

    >>> outside_holder("User's best friend Nora is allergic to cats."), outside_holder("User's son is vegan.")
    ('best friend Nora', None)
    """
    other = _SOMEONE_ELSE.search(fact)
    if other is not None:
        return other.group(1)
    owner = _POSSESSOR.match(fact)
    # "User's mum's memory": the thing is the mum's, so she holds the fact (rev39b finding 2)
    if owner is not None and not _HOUSEHOLD.search(held := owner.group(1)) and not (
            _OWN_THING.search(held) and _POSSESSIVE.search(held) is None):
        return held
    return None


_POSSESSIVE = re.compile(r"\w['\u2019]s\b")
# What the user has or does, not someone: "My shift is 9pm to 6am", "User's income is irregular", "User's flat is
# on the fifth floor", "User's favourite cuisine is Thai" (the word the possessive ends on, or a favourite).
_OWN_THING = re.compile(
    r"(?:^favou?rite\b.*|\b(?:shifts?|income|salary|pay|wages?|job|commute|flat|apartment|house|home|car|van|laptop|"
    r"computer|phone|budget|pension|savings|debts?|rent|mortgage|schedule|routine|week|weekends?|diet|hobb(?:y|ies)|"
    r"hours|contract|visa|passport|permit|wedding|plans?|birthday|business|shop|degree|exam|course|name|age|"
    r"bungalow|cottage|cabin|studio|kitchen|garden|roof|room|bedroom|place|bike|days?\s+off|truck|"
    # the user's own body: "My body doesn't regulate temperature well", "My shoulders have started to hurt"
    r"body|skin|back|knees?|hips?|shoulders?|hands?|feet|eyes?|health|own\s+\w+|"
    # what the user can do or how their body works: "User's English is good for emails", "User's blood sugar goes low"
    # (item 61; not a person called English)
    r"english|french|spanish|german|italian|portuguese|arabic|chinese|mandarin|japanese|korean|hindi|russian|"
    r"language|accent|hearing|eyesight|sight|memory|sleep|weight|blood\s+(?:sugar|pressure)|heart(?:\s+rate)?|"
    r"liver|kidneys?|lungs?|teeth|mood)$)",
    re.IGNORECASE,
)


KIN = {"mum": "mother", "mom": "mother", "mam": "mother", "mummy": "mother", "mommy": "mother", "mama": "mother",
        "dad": "father", "daddy": "father", "papa": "father", "gran": "grandmother", "granny": "grandmother",
        "grandma": "grandmother", "nan": "grandmother", "nana": "grandmother", "grandpa": "grandfather",
        "grandad": "grandfather", "granddad": "grandfather", "sis": "sister", "bro": "brother",
        "neighbor": "neighbour", "coworker": "colleague", "co-worker": "colleague", "mate": "friend",
        "pal": "friend", "bestie": "friend", "bff": "friend", "roommate": "flatmate", "housemate": "flatmate",
        "roomie": "flatmate", "mil": "mother-in-law", "fil": "father-in-law"}
"""Everyday words for a relation, read as the word a fact uses."""
_GROUPS = {"parent": {"mother", "father"}, "grandparent": {"grandmother", "grandfather"},
           "grandkid": {"grandson", "granddaughter", "grandchild"}, "grandchildren": {"grandson", "granddaughter",
                                                                                   "grandchild"},
           "grandchild": {"grandson", "granddaughter"}, "guest": {"friend"},
           "sibling": {"sister", "brother"}, "in-law": {"mother-in-law", "father-in-law", "sister-in-law",
                                                        "brother-in-law"}}
"""A word for several relations ("my parents") names each of them."""
_KIN_WORDS = frozenset({"mother", "father", "grandmother", "grandfather", "sister", "brother", "aunt", "uncle",
                        "cousin", "niece", "nephew", "grandson", "granddaughter", "grandchild", "stepmother",
                        "stepfather", "mother-in-law", "father-in-law", "sister-in-law", "brother-in-law"})
_FAMILY = frozenset({"family", "relative", "relatives", "folk", "folks"})
"""A question about the family names every relative ("Christmas dinner with the family"), not a friend."""
_PETS = frozenset({"dog", "cat", "puppy", "kitten", "pet", "rabbit", "bunny", "hamster", "guinea", "parrot", "horse",
                   "pony", "budgie", "tortoise", "ferret", "labrador", "spaniel", "terrier", "collie", "retriever"})
_WE = frozenset({"we", "us", "our", "we're", "we've", "we'll"})
_HOLDER_WORD = re.compile(r"[\w'-]+")


_NOT_RELATIONS = frozenset({"best", "close", "old", "older", "oldest", "eldest", "younger", "youngest", "little", "big",
                            "new", "good", "dear", "late"})
"""Words of a holder that name no one ("best friend Nora": "friend" and "Nora" do)."""


def names_holder(holder: str, text: str) -> bool:
    """Whether ``text`` names ``holder`` (a relation or a name: "daughter Ava", "mum", "Sam") by its relation or
    its name ("Making Ava's lunchbox", "my daughter", "Mum's staying"); unlike :func:`names_them`, "we" names no
    one.

    >>> names_holder("daughter Ava", "Making Ava's lunchbox."), names_holder("daughter Ava", "We're off to Rome.")
    (True, False)
    """
    return _names(holder, _relations(text))


def _names(holder: str, named: set[str]) -> bool:
    """Whether the relations and names ``named`` (:func:`_relations` of a text) include one of ``holder``'s."""
    return not (_relations(holder) - _NOT_RELATIONS).isdisjoint(named)


def _relations(text: str) -> set[str]:
    """The relations and names a text's words name, in the words facts use (plural and possessive endings off)."""
    found: set[str] = set()
    for raw in _HOLDER_WORD.findall(text.lower().replace("\u2019", "'")):
        w = raw.removesuffix("'s").removesuffix("'")
        for word in (w, w[:-1] if w.endswith("s") and len(w) > 3 else w):
            word = KIN.get(word, word)
            found.add(word)
            found |= _GROUPS.get(word, set())
    if found & _FAMILY:
        found |= _KIN_WORDS
    if found & _WE:
        found.add("flatmate")  # "What should we cook tonight?": those the user lives with
    return found


def named_by(fact: str, text: str) -> bool:
    """Whether the asker's ``text`` (a question, with the turns it is read with) names the one a fact is about:
    always for the user's own facts and their household's (:func:`outside_holder` is ``None``); for someone else,
    when the text names their relation or their name ("my mum" for "User's mother ...", "Nora" for "User's best
    friend Nora ..."; "the family" names any relative). A friend's allergy is theirs: it is no answer to "What
    should I cook tonight?", and it is one to "What can I cook when Nora comes over?".

    >>> named_by("User's best friend Nora is allergic to cats.", "Is ibuprofen ok for my headache?")
    False
    >>> named_by("User's mother is diabetic.", "What dessert should I make for my parents?")
    True
    """
    holder = outside_holder(fact)
    if holder is None:
        return True
    if not _PETS.isdisjoint(_relations(holder)):
        return True  # the user's pet lives with them: its diet is the household's, though not core on every turn
    return _names(holder, _relations(text))


def prototype_texts() -> tuple[list[str], np.ndarray]:
    """Every prototype sentence, domain after domain, and the index of each domain's first sentence."""
    texts: list[str] = []
    starts: list[int] = []
    for sentences in DOMAIN_PROTOTYPES.values():
        starts.append(len(texts))
        texts += sentences
    return texts, np.asarray(starts, dtype=np.intp)


def domain_shares(vectors: np.ndarray, prototypes: np.ndarray, starts: np.ndarray,
                  temperature: float = DOMAIN_TEMPERATURE) -> np.ndarray:
    """Each vector's distribution over the life domains: a softmax over each domain's best prototype cosine.

    ``vectors`` (n x d, or one d-vector) and the rows of ``prototypes`` are unit length, domain after domain;
    ``starts[k]`` is the row of domain ``k``'s first prototype (:func:`prototype_texts`). Returns (n x domains),
    or one row for one vector; each row sums to 1. Read by :func:`care_share` and by affinity
    (:mod:`.affinity`).
    """
    one = vectors.ndim == 1
    sims = np.atleast_2d(vectors).astype(np.float64, copy=False) @ prototypes.T.astype(np.float64, copy=False)
    best = np.maximum.reduceat(sims, starts, axis=1)
    z = np.exp((best - best.max(axis=1, keepdims=True)) / temperature)
    shares = z / z.sum(axis=1, keepdims=True)
    return shares[0] if one else shares


def care_share(question: np.ndarray, prototypes: np.ndarray, starts: np.ndarray,
               temperature: float = DOMAIN_TEMPERATURE, domains: Sequence[str] = CARE_DOMAINS) -> float:
    """The question's share of the ``domains`` (0..1): the sum of their parts of its :func:`domain_shares`.

    ``question`` and the rows of ``prototypes`` are unit vectors, domain after domain; ``starts[d]`` is the
    row of domain ``d``'s first prototype (as :func:`prototype_texts` gives them).
    """
    return float(domain_shares(question, prototypes, starts, temperature)[_domain_index(tuple(domains))].sum())


@functools.lru_cache(maxsize=16)
def _domain_index(domains: tuple[str, ...]) -> list[int]:
    names = list(DOMAIN_PROTOTYPES)
    return [names.index(d) for d in domains]
