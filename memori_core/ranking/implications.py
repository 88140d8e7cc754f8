"""The gate's fourth signal: what a question implies for the user's constraints.

"Can I have a beer at the pub on Friday?" never says gluten, "Is pad thai safe for me?" never says
peanuts, and MiniLM scores them at 0.1-0.2 against "User has coeliac disease." and "User is allergic to
peanuts.": the cosine cannot know that beer is brewed from barley or that pad thai is made with peanuts.
A person answering would know, and would not answer without the fact.

This module holds that knowledge as two small tables over the same **concerns** (gluten, peanuts,
alcohol, pregnancy, blood thinners...):

- :data:`FACT_CONCERNS`: what a care fact (:func:`~.care.is_care_fact`: an allergy, a medication, a
  condition, a dietary restriction) constrains: "User has coeliac disease." -> gluten, and any meal;
  :data:`LIMIT_CONCERNS`: what any fact says the user cannot or will not do: "User gets seasick." -> motion;
  :data:`SITUATION_CONCERNS`: what any fact says about a situation that shapes plans: "User's daughter Mia
  is 6." -> children, "User lives on a pension." -> money;
- :data:`QUESTION_CONCERNS`: everyday words that touch a concern: beer, bread, pizza -> gluten; sushi,
  brie, a litter box -> pregnancy; kale, ibuprofen, the dentist -> blood thinners; a ferry -> motion.

A fact whose concerns meet the question's (:func:`with_implied`) is kept by the gate and ranked into the
``limit`` best, for a personal question about what to do (:func:`asks_what_to_do`; not a general one:
"What is satay sauce made of?" asks for no one's allergy). A follow-up that names no concern goes on with
those of the question it follows (:func:`asks_for_advice`). A name the question uses ("Can I take Dash on a
long hike?") opens the few facts that hold it (:func:`named_rows`). The words are common knowledge about food,
drink, medicine and travel (allergen sources, what pregnancy and anticoagulants rule out, what a clinician
asks about), written from general knowledge, though some were added after reading the app sets' misses
(docs/ranking.md says which); they are a floor, not a complete list: an unknown dish falls back on the cosine.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np

from ..slots import slot_keys
from .care import NOT_FOOD, for_the_asker, is_care_fact, named_by
from .conversation import asks_something, goes_on_from_the_conversation, leans_on_the_conversation, points_back
from .pipeline import PoolScores

__all__ = ["FACT_CONCERNS", "LIMIT_CONCERNS", "MOST_NAMED", "QUESTION_CONCERNS", "SITUATION_CONCERNS",
           "asked_slots", "asks_about_named", "asks_for_advice", "asks_to_be_reminded", "day_rows", "named_days", "asks_what_to_do", "goes_on", "recalls_the_asker", "thread_of", "fact_concerns", "implied_rows", "named_rows", "named_words",
           "question_concerns", "with_implied"]


def _any(*words: str) -> str:
    """An alternation of words and phrases, longest first; a trailing ``*`` allows any ending."""
    parts = []
    for w in sorted(words, key=len, reverse=True):
        stem = w.rstrip("*")
        body = re.escape(stem).replace(r"\ ", r"[\s-]+")
        parts.append(body + (r"\w*" if w.endswith("*") else "(?:s|es)?"))
    return r"\b(?:" + "|".join(parts) + r")\b"


FACT_CONCERNS: dict[str, str] = {
    "peanut": _any("peanut", "groundnut", "nut", "tree nut"),
    "tree nut": _any("nut", "tree nut", "almond", "walnut", "cashew", "hazelnut", "pecan", "pistachio"),
    "shellfish": _any("shellfish", "shrimp", "prawn", "crab", "lobster", "seafood", "mussel", "oyster", "clam"),
    "fish": _any("fish", "seafood", "vegan*"),
    "egg": _any("egg", "vegan*"),
    "dairy": _any("lactose", "dairy", "milk", "cheese", "casein", "vegan*"),
    "gluten": _any("gluten", "coeliac*", "celiac*", "wheat"),
    "meat": _any("vegetarian*", "vegan*", "meat", "pescatarian*", "pork", "beef", "halal", "kosher", "gout"),
    "alcohol": _any("alcohol*", "booze", "sober*", "teetotal*", "drink", "wine", "beer", "sobriety", "blood pressure",
                    "hypertension", "gout"),
    "pregnancy": _any("pregnan*", "prenatal", "expecting a baby", "breastfeed*", "breast feed*"),
    "sugar": _any("diabet*", "low carb", "keto*", "sugar*", "carb", "insulin", "metformin", "prediabet*", "gout"),
    "salt": _any("salt", "sodium", "blood pressure", "hypertension"),
    "blood thinner": _any("warfarin", "blood thinner", "anticoagulant", "apixaban", "rivaroxaban",
                          "dabigatran", "edoxaban", "heparin", "clopidogrel", "coumadin", "eliquis", "xarelto"),
    "latex": _any("latex"),
    "caffeine": _any("caffeine", "decaf*"),
    "diabetes": _any("diabet*", "prediabet*", "insulin", "metformin", "blood sugar"),
    "exertion": _any("asthma*", "inhaler", "puffer", "epilep*", "heart condition", "angina", "pacemaker", "pregnan*"),
    # the rest of the EU's fourteen food allergens, and the drug allergies a painkiller or a prescription meets
    "sesame": _any("sesame", "tahini"),
    "soy": _any("soy", "soya", "soybean"),
    "mustard": _any("mustard"),
    "celery": _any("celery", "celeriac"),
    "lupin": _any("lupin", "lupine"),
    "mollusc": _any("mollusc", "mollusk", "squid", "octopus", "mussel", "oyster", "clam", "scallop", "snail"),
    "sulphite": _any("sulphite", "sulfite", "sulphur dioxide", "sulfur dioxide"),
    "buckwheat": _any("buckwheat"),
    "gut": _any("ibs", "irritable bowel", "fodmap", "crohn*", "colitis", "low fat", "fatty food", "gallbladder",
                "diverticul*"),
    "painkiller": _any("aspirin", "ibuprofen", "nsaid", "naproxen", "anti-inflammator*", "diclofenac"),
    "antibiotic": _any("penicillin", "amoxicillin", "antibiotic", "sulfa", "sulphonamide*", "sulfonamide*",
                       "cephalosporin*", "erythromycin"),
}
"""What a care fact constrains: a concern is the fact's when the pattern occurs in it. Veganism rules out
fish, eggs and dairy too; a diabetic or low-carb diet is about sugar and starch; alcohol is limited with high
blood pressure; gout is managed by limiting alcohol, sugary drinks and red meat; asthma, epilepsy, a heart
condition and pregnancy are what a coach asks about before exercise. Every food concern also makes the fact
one a **meal** question opens ("What should I cook tonight?")."""

LIMIT_CONCERNS: dict[str, str] = {
    "motion": _any("seasick*", "sea sick*", "motion sick*", "travel sick*", "car sick*", "carsick*", "airsick*"),
    "flying": r"\b(?:(?:afraid|scared|terrified|fear)\s+of\s+flying|hates?\s+flying|"
              r"(?:rather\s+than|never|won't|doesn't|don't|does\s+not|do\s+not)\s+fly\b|aviophobi\w*)",
    "dogs": r"\b(?:afraid|scared|terrified|fear|phobia)\s+of\s+dogs\b|\bcynophobi\w*",
    "heights": r"\b(?:vertigo|acrophobi\w*|(?:afraid|scared|terrified|fear)\s+of\s+heights|avoids?\s+heights)\b",
    "water": r"\b(?:can't|cannot|can\s+not|doesn't|does\s+not|don't|never\s+learned\s+to)\s+swim\b|"
             r"\b(?:afraid|scared|terrified|fear|phobia)\s+of\s+(?:the\s+)?(?:water|swimming|the\s+sea|deep\s+water)\b",
    "exertion": _any("bad back", "bad lower back", "lower back pain", "back problem", "back pain", "sciatica",
                     "slipped disc", "herniated disc", "arthritis", "arthritic", "bad knee", "knee replace*",
                     "hip replace*", "knee replaced", "hip replaced", "still recovering", "recovering from", "stitches",
                     "keyhole surgery", "no heavy lifting", "hernia")
                + r"|\bnot\s+(?:to\s+)?lift\w*|\b(?:had|has\s+had)\s+(?:\w+\s+){0,3}(?:surgery|operation|removed)\b",
    "mobility": _any("wheelchair*", "spinal cord injury", "paraplegi*", "tetraplegi*", "quadriplegi*", "paralys*",
                     "paralyz*", "crutches", "mobility scooter", "walking stick", "walking frame", "limited mobility",
                     "pressure sore"),
    "hearing": _any("hearing loss", "hearing aid", "hard of hearing", "deaf*", "tinnitus", "cochlear implant"),
}
"""What a fact says the user cannot or will not do, whatever their health: travel sickness, a fear of flying,
of dogs, of heights or of water, a back or joint or a recent operation that limits exertion, a wheelchair or
crutches (a place's steps, a trip), hearing loss (a loud room, a call)."""

_CHILD = (r"(?:sons?|daughters?|kids?|children|child|toddlers?|bab(?:y|ies)|twins|eldest|youngest|"
          r"grand(?:children|child|kids?|sons?|daughters?)|step(?:sons?|daughters?|kids?))")
SITUATION_CONCERNS: dict[str, str] = {
    "children": rf"\b{_CHILD}\b(?!')",
    "money": r"\b(?:sav(?:ing|es)\s+(?:up\s+)?(?:for|to)|savings|budget\w*|debts?|loans?|skint|broke|pension|"
             r"social\s+security|401\(?k\)?|sends?\s+money|mortgage|overdraft|tight\s+on\s+money|money\s+is\s+tight|"
             r"can(?:'t|not)\s+afford|paying\s+(?:off|back)|credit\s+card|low\s+income|unemployed|on\s+benefits)\b",
    "getting around": r"\b(?:(?:don't|doesn't|do\s+not|does\s+not|never|can't|cannot)\s+(?:drive|have\s+a\s+car|own\s+a\s+car)|"
                      r"(?:never\s+had|has\s+no|have\s+no|no|without|doesn't\s+have|don't\s+have)\s+(?:a\s+)?"
                      r"(?:driving|driver'?s)\s+licen[cs]e|never\s+(?:learned|learnt)\s+to\s+drive|"
                      r"no\s+car|car[\s-]free|without\s+a\s+car|walks?\s+everywhere|gets?\s+around\s+by|"
                      r"commutes?\s+(?:by|on)|cycles?\s+to\s+work|rather\s+than\s+(?:fly|drive)|"
                      r"(?:uses?|takes?|relies\s+on)\s+a\s+wheelchair|wheelchair\s+user)\b",
    "stairs": r"\b(?:walk[\s-]?up|no\s+(?:lift|elevator)|"
              r"(?:lift|elevator)\s+(?:\w+\s+){0,2}(?:breaks|broken|out\s+of\s+order)|"
              r"(?:\w+\s+)?floor\s+(?:flat|apartment)\s+(?:with\s+)?(?:no|without)\s+(?:a\s+)?(?:lift|elevator))",
    "sleep": r"\b(?:night\s+shifts?|works?\s+nights|shift\s+work|insomnia|sleep\s+apno?ea|cpap|pregnan\w*|"
             r"(?:poor|bad|lack\s+of|too\s+little|not\s+enough)\s+sleep|sleep\s+deprivation)\b",
    "travel": r"\bpregnan\w*",
    "outdoors": r"\b(?:grows?|growing|garden\w*|allotment|raised\s+beds?|greenhouse|beehives?|bees|backyard|"
                r"(?:swimming\s+)?pool|chickens|hens|vegetable\s+patch|orchard|lawn)\b",
    "work": r"\b(?:works?\s+(?:as|at|for|in)|working\s+(?:as|at|for)|job|employer|employed|self[\s-]employed|"
            r"freelanc\w*|runs?\s+(?:a|an|the|his|her|their|my|our)\s+(?:\w+\s+){0,3}(?:business|shop|company|firm|"
            r"practice|nursery|bakery|caf[eé]|restaurant|studio)|"
            r"owns?\s+(?:a|an)\s+(?:\w+\s+){0,3}(?:business|shop|company|firm|nursery|bakery)|"
            r"I'm\s+a\s+\w+\s+(?:at|for)|drives?\s+(?:a|an)\s+(?:\w+\s+){0,2}(?:bus|taxi|cab|truck|lorry|van|tram)|(?:is|am)\s+a\s+(?:\w+\s+){0,2}(?:nurse|teacher|developer|engineer|lawyer|"
            r"accountant|driver|manager|designer|translator|doctor|student|chef|analyst|consultant|tester|courier|"
            r"farmer|attendant|cleaner|carer|electrician|plumber|mechanic|pharmacist|paramedic|officer|writer))\b",
    "caring": r"\b(?:(?:shouldn't|should\s+not|can't|cannot|can\s+not|mustn't|must\s+not)\s+be\s+left\s+alone|"
              r"dementia|alzheimer'?s|(?:is|am|are)\s+(?:a|the|her|his|their)\s+(?:main\s+|full[\s-]time\s+)?"
              r"carer|caregiver|cares\s+for\s+(?:his|her|their|my)|"
              r"(?:pill|tablet|medication|medicine|insulin|injection|eye\s+drops?)s?\s+(?:\w+\s+)?"
              r"(?:twice|three\s+times|every\s+\w+\s+hours)(?:\s+a\s+day)?)\b",
    "renting": r"\b(?:landlord|landlady|letting\s+agent|tenan(?:t|ts|cy)|(?:rents?|renting)\s+(?:a|an|the|our|my|his|her|"
               r"their)\s+(?:\w+\s+){0,2}(?:flat|house|apartment|home|place|room|studio|condo)|"
               r"(?:no|doesn't\s+allow|don't\s+allow|does\s+not\s+allow|not\s+allowed)\s+(?:any\s+)?(?:more\s+)?pets)\b",
    "power": r"\b(?:inverter|generator|load[\s-]?shedding|power\s+cuts?|cpap|oxygen\s+concentrator|"
             r"electric\s+wheelchair|fridge\s+goes\s+off)\b",
    "home": r"\b(?:originally\s+from|grew\s+up\s+in|born\s+(?:and\s+(?:raised|bred)\s+)?in|hometown|"
            r"(?:parents|mum|mom|dad|father|mother|family|folks)\s+(?:still\s+)?(?:lives?|live)\s+in)\b",
    "fandom": r"\b(?:supports?|supporter\s+of|season[\s-]tickets?)\s+(?:\w+\s+){0,2}?(?-i:[A-Z])\w*|"
              r"(?<!not\s)(?<!not\sa\s)(?<!not\sthe\s)\b(?:big|huge|massive|lifelong|die[\s-]hard|devoted|mad|keen)?\s*"
              r"(?-i:[A-Z])[\w.']*(?:\s+(?-i:[A-Z])[\w.']*){0,2}\s+(?:fan|supporter)s?\b|\bseason[\s-]ticket\s+holder\b",
    "music": r"\b(?:plays?|playing|learning|learns|learnt|learned|lessons?\s+(?:in|on|for)|practis\w*|practic\w*)\s+"
             r"(?:the\s+|a\s+|an\s+|(?:\w+\s+)?lessons?\s+(?:in|on|for)\s+(?:the\s+)?)?(?:piano|keys|keyboard|guitar|"
             r"bass|double\s+bass|drums|violin|viola|cello|flute|clarinet|sax\w*|trumpet|trombone|ukulele|harp|oboe|"
             r"bassoon|banjo|mandolin|accordion|organ|french\s+horn)\b|\bsings?\s+in\s+(?:a|the)\s+\w*\s*choir\b",
    "vehicle": r"\b(?<!n't\s)(?<!not\s)(?<!never\s)(?:drives?|owns?|has|have|got)\s+(?:a|an|the|his|her|their|our|my)\s+(?:\w+\s+){0,3}?"
               r"(?:car|van|motorbike|motorcycle|scooter|ev|electric\s+car|camper(?:van)?|rv|pickup|pick-up|truck|estate|"
               r"saloon|hatchback|sedan|suv|4x4|"
               r"(?-i:[A-Z])[\w-]+\s+(?:\w+\s+)?(?-i:[A-Z0-9])[\w-]*)\b(?!\s+(?:bus|taxi|cab|tram|for\s+a\s+living))",
    "reading": r"\b(?:reads|reading|books|novels|audiobooks|comics|graphic\s+novels|manga|poetry|"
               r"(?:sci[\s-]?fi|crime|fantasy|romance|history|historical)\s+(?:fiction|novels|books))\b",
    "listening": r"\b(?:music|jazz|blues|records|vinyl|albums?|podcasts?|audiobooks|opera|classical\s+music|"
                 r"hip[\s-]hop|folk\s+music|k[\s-]?pop|punk|metal|country\s+music|bands?)\b",
    "watching": r"\b(?:films|movies|cinema|documentar\w+|tv\s+(?:shows|series|dramas)|sitcoms|anime|"
                r"(?:crime|period|costume|medical)\s+dramas|reality\s+(?:tv|shows)|box\s+sets)\b",
    "schedule": r"\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)days|every\s+(?:other\s+)?(?:(?:mon|tues|wednes|thurs|fri|"
                r"satur|sun)day|week|weekend)|on\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day)"
                r"(?:\s+and\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day))?\s+(?:mornings|evenings|nights|afternoons)|"
                r"commute\s+is|commutes?\s+(?:\w+\s+){0,3}(?:minutes|hours?)|(?:minutes|hours?)\s+each\s+way)\b",
}
"""What a fact says about the user's situation that shapes plans, whatever their health: children (a family
outing, a holiday for the three of us), money (a cheap dinner, whether a purchase is worth it), getting around
without a car or in a wheelchair (the way to get somewhere), stairs without a lift (a stroller, a sofa),
sleep (night shifts, insomnia, a CPAP machine, a pregnancy: tiredness, a sleepless night, a night in a tent), what
a trip must allow for (a pregnancy), what the weather means for a garden, bees or a pool, the user's job or
business (a cover letter, a day off, more orders), someone or a pet who cannot be left alone (a weekend away), a
rented home (a puppy, painting the walls), what needs mains power (a power cut, camping) and the week's fixed
hours (a class, a game, a long commute: "Help me fit everything in next week")."""

_FOOD_CONCERNS = frozenset({"peanut", "tree nut", "shellfish", "fish", "egg", "dairy", "gluten", "meat", "sugar",
                            "salt", "sesame", "soy", "mustard", "celery", "lupin", "mollusc", "pregnancy",
                            "buckwheat", "gut"})
_EATEN = (_FOOD_CONCERNS - {"pregnancy"}) | {"meal"}  # what only eating meets

_FOOD_GLUTEN = ("bread", "beer", "ale", "lager", "pasta", "pizza", "pie", "cake", "cupcake", "biscuit", "cookie",
                "sandwich", "burger", "bagel", "croissant", "noodle", "ramen", "udon", "soba", "couscous", "cereal",
                "pastry", "pastries", "doughnut", "donut", "muffin", "lasagne", "lasagna", "dumpling", "soy sauce",
                "seitan", "barley", "rye", "wheat", "toast", "pancake", "waffle", "cracker", "pretzel", "brownie",
                "crumble", "tart", "wrap", "pitta", "pita", "naan", "flour", "breaded", "battered", "fish and chips",
                "sausage roll", "baguette", "stuffing", "bake*", "baking", "scone", "crumpet", "gravy", "spaghetti",
                "gnocchi", "brioche", "sourdough", "pretzel", "tempura", "katsu", "empanada", "pasty", "pasties")
_FOOD_MEAT = ("meat", "burger", "steak", "ham", "bacon", "sausage", "hot dog", "pepperoni", "salami", "chorizo",
              "prosciutto", "chicken", "turkey", "pork", "beef", "lamb", "veal", "duck", "kebab", "barbecue", "bbq",
              "meatball", "rib", "brisket", "pho", "carnitas", "jerky", "pate", "pâté", "deli", "cold cut",
              "sunday roast", "carvery", "bolognese", "ragu", "chilli con carne", "chili con carne", "venison",
              "haggis", "gelatin", "gelatine", "nugget", "wing", "shawarma", "gyro", "taco", "biltong", "meat pie",
              "cheeseburger", "pulled pork", "roast dinner", "goulash", "stew")
_DRINK = ("alcohol*", "booze", "drinks", "a drink", "beer", "ale", "lager", "wine", "prosecco", "champagne", "cava",
          "cocktail", "pub", "bar", "happy hour", "sangria", "whisky", "whiskey", "vodka", "gin",
          "rum", "tequila", "pastis", "sake", "cider", "spritz", "mimosa", "margarita", "mojito", "negroni",
          "aperitif", "aperitivo", "apéritif", "pint", "shots", "brewery", "winery", "vineyard", "wine tasting",
          "pub crawl", "bar crawl", "bottomless", "stag do", "hen do", "bachelor party", "bachelorette", "oktoberfest",
          "mulled wine", "eggnog", "hangover", "drunk", "tipsy", "booze", "bourbon", "brandy", "cognac", "port",
          "sherry", "schnapps", "liqueur", "punch", "piña colada", "pina colada", "toast to", "nightcap", "baijiu",
          "soju", "makgeolli", "shochu", "ouzo", "raki", "rakija", "grappa", "limoncello", "mezcal", "highball",
          "out for a few", "a few pints", "a few beers", "few drinks", "round of drinks", "drinking")
_SWEET = ("sugar*", "sweets", "candy", "chocolate", "dessert", "cake", "cupcake", "cookie", "biscuit", "pastry",
          "pastries", "doughnut", "donut", "ice cream", "gelato", "soda", "coke", "fizzy drink", "juice", "smoothie",
          "milkshake", "pancake", "waffle", "syrup", "honey", "bread", "pasta", "rice", "potato", "potatoes",
          "fries", "chips", "pizza", "cereal", "bagel", "muffin", "brownie", "pie", "tart", "pudding", "crumble",
          "jam", "carbs", "carbohydrate", "noodle", "sandwich", "porridge", "fruit juice", "energy drink",
          "birthday cake", "trifle", "cheesecake", "fudge", "toffee", "marshmallow", "churro")
_BLEEDING = ("dentist", "dental", "tooth extraction", "surgery", "operation", "tattoo", "piercing", "nosebleed",
             "bruise", "bruising", "bleeding", "ibuprofen", "aspirin", "nsaid", "naproxen", "painkiller",
             "fish oil", "turmeric", "ginkgo", "kale", "spinach", "broccoli", "leafy greens", "greens",
             "brussels sprouts", "vitamin k", "cranberry", "grapefruit", "contact sport", "rugby", "boxing",
             "skiing", "snowboarding", "blood test", "blood drawn", "injection", "jab", "vaccine", "vaccination")
_CLINIC = ("dentist", "dental", "doctor", "gp", "nurse", "surgeon", "surgery", "pharmacist", "pharmacy",
           "blood test", "blood drawn", "anaesthetic", "anesthetic", "operation", "procedure", "hospital",
           "a&e", "er visit", "check-up", "checkup", "physio", "physiotherapist", "vaccine", "jab", "prescription",
           # a medicine to take: a pharmacist asks about conditions, other medication, allergies, pregnancy
           "paracetamol", "acetaminophen", "tylenol", "calpol", "antihistamine", "antacid", "cough syrup",
           "cough medicine", "tablets", "pill", "medicine", "medication", "supplement", "remedy", "over the counter",
           "painkiller", "sleeping pill",
           # symptoms: what a clinician would weigh against the user's conditions and medication
           "symptom", "shaky", "sweaty", "dizzy", "dizziness", "light headed", "lightheaded", "faint", "swollen",
           "swelling", "wheez*", "breathless", "short of breath", "chest pain", "palpitation", "rash", "hives",
           "itchy", "nausea", "nauseous", "vomit*", "throwing up", "fever", "headache", "numb", "tingling",
           "blurred vision", "cramp", "sore throat", "stomach ache", "diarrhoea", "diarrhea", "feel sick",
           "feeling sick", "unwell", "under the weather", "in pain", "sprain*", "heartburn", "indigestion", "reflux",
           "antibiotic", "flu", "wound", "bite", "bitten", "insect bite", "sting", "loose stool", "bloated", "bloating",
           "tummy", "migraine", "pounding", "throbbing", "red spot", "sore", "blister")
_MEAL = ("dinner", "lunch", "breakfast", "brunch", "supper", "snack", "meal", "eat", "eating", "cook", "cooking",
         "cookout", "cook out", "braai", "party food",
         "recipe", "restaurant", "takeaway", "takeout", "menu", "dish", "food", "picnic", "packed lunch", "lunchbox",
         "dessert", "potluck", "buffet", "meal prep", "dinner party", "bake", "baking", "groceries", "grocery")
_EXERTION = ("exercise", "yoga", "hot yoga", "pilates", "workout", "work out", "gym", "run", "running", "jog*",
             "football", "soccer", "rugby", "hockey", "tennis", "squash", "netball", "basketball", "hike", "hiking",
             "climb*", "boulder*", "swim*", "cycling", "bike ride", "marathon", "race", "training", "warm up",
             "warm-up", "hiit", "crossfit", "spin class", "sport", "sprint", "ski", "skiing", "altitude", "scuba",
             "diving")

QUESTION_CONCERNS: dict[str, tuple[str, ...]] = {
    "peanut": ("peanut", "satay", "pad thai", "kung pao", "gado gado", "trail mix", "snickers", "reese*",
                   "pb&j", "groundnut", "nut", "nutty", "thai", "praline", "granola"),
    "tree nut": ("nut", "nutty", "almond", "walnut", "cashew", "pecan", "pistachio", "hazelnut", "nutella",
                     "pesto", "marzipan", "praline", "baklava", "nougat", "macaron", "frangipane", "granola",
                     "trail mix", "brazil nut", "macadamia"),
    "shellfish": ("shellfish", "shrimp", "prawn", "crab", "lobster", "scallop", "mussel", "oyster", "clam",
                      "paella", "seafood", "scampi", "crayfish", "crawfish", "gumbo", "bouillabaisse", "calamari",
                      "squid", "octopus", "sushi", "tempura", "jambalaya", "ceviche", "fish market"),
    "fish": ("fish", "salmon", "tuna", "cod", "haddock", "sushi", "sashimi", "anchov*", "caesar", "sardine",
                 "mackerel", "trout", "seafood", "fish and chips", "fish sauce", "poke", "ceviche", "kedgeree"),
    "egg": ("egg", "omelette", "omelet", "quiche", "mayonnaise", "mayo", "meringue", "custard", "carbonara",
                "aioli", "frittata", "pavlova", "brioche", "eggs benedict", "french toast", "pancake", "cake",
                "cupcake", "brownie", "hollandaise", "souffle", "soufflé", "mousse", "eggnog", "scrambled",
                "fried rice", "tiramisu", "muffin", "waffle", "bake*", "baking"),
    "dairy": ("milk", "cheese", "cheesy", "pizza", "ice cream", "gelato", "latte", "cappuccino", "milkshake",
                  "yogurt", "yoghurt", "butter", "cream", "creamy", "alfredo", "mac and cheese", "cheesecake",
                  "fondue", "raclette", "paneer", "tzatziki", "custard", "queso", "brie", "camembert", "mozzarella",
                  "parmesan", "cheddar", "feta", "halloumi", "chocolate", "dairy", "flat white", "hot chocolate",
                  "korma", "tikka masala", "risotto", "quiche", "lasagne", "lasagna", "carbonara"),
    "gluten": _FOOD_GLUTEN,
    "meat": _FOOD_MEAT,
    "alcohol": _DRINK,
    "pregnancy": ("sushi", "sashimi", "raw", "rare", "tuna", "swordfish", "shark", "marlin", "brie", "camembert",
                      "soft cheese", "blue cheese", "unpasteuri*", "deli", "cold cut", "pate", "pâté",
                      "runny egg", "litter box", "litter tray", "cat litter", "hot tub", "hot bath", "jacuzzi", "sauna",
                      "roller coaster", "rollercoaster", "x-ray", "ibuprofen", "retinol", "caffeine", "coffee",
                      "espresso", "energy drink", "scuba", "bungee", "hair dye", "morning sickness", "maternity",
                      "midwife", "antenatal", "prenatal", "oyster", "liver", "cheese", "cheese board", "cheeseboard",
                      "paint", "painting", "decorating", "cafe", "café", "coffee shop", "hot drink", "warm drink",
                      *_DRINK),
    "sugar": _SWEET,
    "salt": ("salt", "salty", "soy sauce", "crisps", "chips", "bacon", "ramen", "instant noodle", "pickle",
                 "olive", "salami", "cured", "anchov*", "takeaway", "takeout", "pizza", "processed", "stock cube",
                 "miso", "fish sauce", "pretzel", "ham", "sausage", "stir fry", "stir-fry", "gravy", "crisp"),
    "blood thinner": (*_BLEEDING, *_DRINK),
    "latex": ("glove", "balloon", "condom", "rubber", "bandage", "plaster", "band-aid", "band aid",
                  "blood drawn", "blood test", "dentist", "dental", "surgery", "operation", "catheter", "swim cap",
                  "elastic", "waistband", "yoga mat", "hot water bottle"),
    "clinic": _CLINIC,
    "meal": _MEAL,
    "diabetes": ("feet", "foot", "toe", "blister", "shaky", "sweaty", "thirsty", "hypo", "blood sugar", "fasting",
                 "ramadan"),
    "exertion": (*_EXERTION, "lift", "lifting", "heavy", "moving house", "move house", "long drive", "stairs",
                 "gardening", "kneel*", "mattress", "golf", "bowling", "dance", "dancing", "badminton", "volleyball",
                 "rowing", "surfing", "martial arts", "karate", "judo", "padel", "pickleball", "skating", "get moving",
                 "moving more", "more active", "big shop", "weekly shop", "food shop", "shopping bags", "carry",
                 "carrying", "duvet", "hang out the washing", "housework", "spring clean", "hoover", "vacuum",
                 "digging", "shovel*", "new hobby"),
    "motion": ("ferry", "boat", "cruise", "sailing", "kayak*", "canoe*", "bus ride", "coach trip", "long drive",
               "road trip", "winding road", "roller coaster", "rollercoaster", "journey", "whale watching"),
    "mobility": ("basement", "upstairs", "downstairs", "steps", "stairs", "step free", "accessible", "venue", "spot",
                 "restaurant", "bar", "pub", "cafe", "café", "hotel", "airbnb", "day trip", "day out", "hike", "hiking",
                 "trail", "beach", "festival", "concert", "gig", "museum", "gallery", "theatre", "theater", "cinema",
                 "stadium", "tour", "sightseeing", "trip", "holiday", "vacation", "getaway", "flight", "fly", "flying",
                 "plane", "train", "ferry", "old town", "cobbled", "cobblestone", "walking", "long walk", "sit",
                 "sitting", "seat"),
    "hearing": ("loud", "noisy", "noise", "call", "video call", "phone call", "conference call", "zoom", "teams call",
                "meeting", "concert", "gig", "nightclub", "club", "party", "lecture", "theatre", "cinema", "hear",
                "hearing", "restaurant", "bar", "pub", "accent"),
    "caring": ("go away", "be away", "away for", "time away", "weekend away", "weekend in", "trip", "holiday", "vacation", "travel",
               "abroad", "transfer", "relocat*", "move abroad", "overnight", "stay over", "sleepover", "conference",
               "business trip", "getaway", "for a week", "for two weeks", "for the week", "all day", "long weekend", "we all", "all of us",
               "do together", "whole family", "night out", "date night", "look after", "pet sit", "house sit"),
    "renting": ("puppy", "puppies", "kitten", "a dog", "a cat", "pet", "get a dog", "get a cat", "paint the", "repaint",
                "wallpaper", "renovat*", "knock through", "put up shelves", "shelves", "drill", "hot tub",
                "trampoline", "shed", "extension", "move out", "deposit", "notice period", "buy a house",
                "buy a flat", "first home", "mortgage"),
    "power": ("load shedding", "load-shedding", "power cut", "power outage", "blackout", "outage", "no power",
              "no electricity", "no mains", "off grid", "camping", "tent", "generator", "inverter", "campsite"),
    "schedule": ("my week", "next week is", "this week is", "fit everything in", "fit it all in", "fit it in",
                 "schedule", "calendar", "timetable", "free time", "spare time", "which night", "which day",
                 "what night", "what day", "free evening", "no time", "never have time", "busy week"),
    "home": ("going home", "go home", "head home", "heading home", "trip home", "back home", "home for christmas",
             "home for the holidays", "home for thanksgiving", "home for easter", "home for eid", "home for diwali",
             "hometown", "visit my parents", "visiting my parents", "see my parents", "seeing my parents",
             "visit my family", "visiting my family", "see my family", "visit my folks", "see my folks"),
    "fandom": ("derby", "match", "the game", "big game", "game tonight", "game this weekend", "home opener",
               "opener", "season opener", "fixture", "kick off", "kickoff", "playoff*", "cup final", "final",
               "super bowl", "world series", "league", "premier league", "champions league", "transfer window",
               "season ticket", "away game", "home game", "stadium", "ballpark", "tailgate", "tailgating",
               "jersey", "kit", "scarf"),
    "music": ("practise", "practice", "practising", "practicing", "scales", "the keys",
              "recital", "sheet music", "repertoire", "music lesson", "music exam", "grade exam", "metronome",
              "sight reading", "chord*", "tune", "tunes", "songs to learn", "standards", "jam session", "audition",
              "orchestra", "rehearsal", "instrument"),
    "vehicle": ("single charge", "charge", "charging", "charger", "range", "mpg", "fuel", "petrol", "diesel",
                "gas mileage", "mileage", "tyre*", "tire", "tires", "oil change", "mot", "car service",
                "service the car", "car wash", "parking", "park", "roof box", "tow", "towing", "snow chains",
                "breakdown", "breaks down", "break down", "car insurance", "road trip", "long drive", "drive to",
                "driving to", "motorway", "highway", "freeway", "get there", "way to get", "how long will it take",
                "the car", "my car", "our car", "clutch", "gearbox", "change gear", "brakes", "engine", "mechanic",
                "dashboard", "warning light"),
    "reading": ("audiobook*", "podcast*", "book recommendation", "good book", "book club", "something to read",
                "book to read", "read next", "reading list", "a book", "books", "novel", "beach read", "kindle"),
    "listening": ("podcast*", "audiobook*", "playlist", "album", "put on", "listen*", "record shop", "vinyl",
                  "spotify", "concert", "gig", "festival", "radio"),
    "watching": ("something to watch", "watch tonight", "a film", "a movie", "movie night", "film night", "tv",
                 "series", "documentary", "netflix", "binge*", "box set", "put on", "cinema", "streaming"),
    "buckwheat": ("buckwheat", "soba", "juwari", "galette", "kasha", "blini", "blinis", "crepe", "crêpe"),
    "gut": ("onion", "garlic", "bean", "lentil*", "chickpea*", "hummus", "hotpot", "hot pot", "curry", "spicy",
            "chilli", "chili", "fried", "fatty", "greasy", "takeaway", "takeout", "kebab", "souvlaki", "gyro",
            "burger", "chips", "fries", "cream", "creamy", "cheese", "pizza", "bloat*", "loose stool", "stomach",
            "tummy", "constipat*", "diarrhoea", "diarrhea", "wind", "gassy", "fish and chips", "fry up", "fry-up"),
    "flying": ("fly", "flying", "flight", "plane", "airport", "airline", "layover", "stopover", "long haul",
               "way to get", "get there", "get to", "travel to"),
    "dogs": ("dog", "puppy", "puppies", "kennel", "dog friendly", "dog walker", "dog sitting", "shiba", "labrador",
             "poodle", "spaniel", "terrier", "retriever", "collie", "husky", "beagle", "dachshund", "pug", "bulldog",
             "corgi", "chihuahua", "schnauzer", "greyhound", "whippet", "rottweiler", "doberman", "alsatian",
             "german shepherd", "cockapoo", "labradoodle", "jack russell", "staffie", "akita", "malamute"),
    "heights": ("climb*", "hike", "hiking", "mountain", "cable car", "gondola", "viewpoint", "tower", "rooftop",
                "balcony", "ladder", "roof", "skydiv*", "bungee", "zip line", "zipline", "ferris wheel",
                "glass floor", "cliff", "summit", "observation deck", "snow", "skyscraper", "hot air balloon", "ceiling",
                "stepladder", "step ladder", "loft", "attic", "gutter", "scaffold", "scaffolding", "treehouse"),
    "water": ("swim*", "pool", "beach", "snorkel*", "scuba", "diving", "kayak*", "surf*", "paddleboard*",
              "water park", "boat", "sailing", "lake"),
    "children": ("kid", "children", "child", "toddler", "the baby", "grandchildren", "grandkid", "family outing",
                 "family day", "family getaway", "family holiday", "family trip", "family friendly", "day out",
                 "school holiday", "half term", "babysitter", "babysitting", "playground", "three of us",
                 "four of us", "five of us", "whole family", "stroller", "pram", "buggy", "pushchair", "car seat"),
    "money": ("cheap", "cheaper", "cheapest", "cheaply", "afford", "affordable", "budget", "expensive", "pricey",
              "cost", "cost much", "worth buying", "worth it", "worth the money", "splurge", "bonus", "save money",
              "saving money", "birthday present", "christmas present", "trade in", "trading in", "upgrade",
              "lend", "loan", "invest*", "savings", "overtime", "extra shift", "side hustle", "second job",
              "pay cut", "salary", "payday", "pay day", "windfall", "inheritance", "tax refund"),
    "getting around": ("way to get", "get to", "get there", "get home", "getting there", "getting to", "travel down",
                       "travel up", "trip home", "commute", "commuting", "drive to", "road trip", "day trip",
                       "car seat", "taxi", "new place", "moving house", "move house", "new flat", "new apartment",
                       "rent a car", "hire a car", "car hire", "rental car", "drive", "driving", "trip", "get around",
                       "getting around"),
    "stairs": ("stroller", "pram", "buggy", "pushchair", "furniture", "sofa", "couch", "mattress", "wardrobe", "piano",
               "carry", "carrying", "heavy", "moving house", "move house", "new place", "wheelchair"),
    "sleep": ("sleep", "sleeping", "can't sleep", "insomnia", "tired", "exhausted", "exhaustion", "fatigue",
              "knackered", "nap", "jet lag", "bedtime", "no energy", "low energy", "camping", "tent", "stay up",
              "staying up", "up late", "late night", "all nighter", "midnight", "1am", "2am", "3am", "4am", "overnight",
              "red eye", "sleeper train", "night bus", "campsite"),
    "work": ("cover letter", "cv", "resume", "résumé", "job interview", "interview", "job application", "boss",
             "manager", "colleague", "coworker", "co-worker", "out of office", "out-of-office", "pay rise", "raise",
             "promotion", "day off", "days off", "annual leave", "sick day", "sick note", "shift", "rota", "overtime",
             "clients", "customers", "orders", "linkedin", "work email", "my team", "performance review",
             "appraisal", "career", "employer", "hr", "occupational health"),
    "outdoors": ("frost", "freeze", "freezing", "heatwave", "heat wave", "hot weather", "degrees", "storm", "hail",
                 "drought", "hosepipe ban", "outside", "outdoors", "yard", "garden", "gardening", "planting", "hive",
                 "bee suit", "swarm"),
    "travel": ("trip", "holiday", "vacation", "getaway", "go away", "weekend away", "travel", "flight", "fly",
               "flying", "abroad", "babymoon", "hotel", "airbnb", "camping", "cruise", "road trip"),
    "sesame": ("sesame", "tahini", "hummus", "houmous", "halva", "halwa", "falafel", "baba ganoush", "bagel",
               "burger bun", "sushi", "stir fry", "stir-fry", "bibimbap", "dan dan", "furikake", "za'atar"),
    "soy": ("soy", "soya", "tofu", "edamame", "miso", "tempeh", "soy sauce", "teriyaki", "stir fry", "stir-fry",
            "sushi", "ramen", "veggie burger", "soy milk", "natto", "hoisin"),
    "mustard": ("mustard", "dijon", "vinaigrette", "honey mustard", "hot dog", "piccalilli", "curry", "mayonnaise",
                "pretzel", "sandwich", "ham"),
    "celery": ("celery", "celeriac", "celery salt", "bloody mary", "soup", "stock", "stew", "bolognese",
               "waldorf", "stuffing", "gravy"),
    "lupin": ("lupin", "lupine", "gluten free bread", "gluten-free bread", "gluten free pasta", "gluten-free pasta"),
    "mollusc": ("squid", "calamari", "octopus", "mussel", "oyster", "clam", "scallop", "snail", "escargot",
                "paella", "seafood", "oyster sauce", "chowder", "linguine alle vongole", "fritto misto"),
    "sulphite": ("wine", "prosecco", "champagne", "cider", "beer", "dried fruit", "dried apricot", "raisin",
                 "sausage", "burger", "vinegar", "pickle", "cordial"),
    "painkiller": ("painkiller", "pain relief", "pain reliever", "ibuprofen", "aspirin", "advil", "nurofen", "motrin",
                   "naproxen", "aleve", "anti inflammatory", "anti-inflammatory", "nsaid", "diclofenac",
                   "voltaren", "cold and flu", "headache tablet", "period pain", "migraine tablet"),
    "antibiotic": ("antibiotic", "penicillin", "amoxicillin", "amoxil", "augmentin", "prescription", "prescribed",
                   "infection", "chest infection", "strep", "uti", "tooth abscess"),
    "caffeine": ("coffee", "cafe", "café", "coffee shop", "hot drink", "warm drink", "espresso", "latte", "cappuccino",
                 "tea", "cola", "coke", "energy drink", "red bull", "matcha", "chocolate", "pre-workout"),
}
"""Everyday words that touch each concern (allergen sources, what rules out alcohol, pregnancy precautions,
what thins the blood or meets a blood thinner, where latex is, what sugar and salt are in, the painkillers and
antibiotics a drug allergy rules out, a visit to a clinician or a symptom, a meal, what a diabetic watches,
exercise)."""

_FACT_RE = {name: re.compile(p, re.IGNORECASE) for name, p in FACT_CONCERNS.items()}
_LIMIT_RE = {name: re.compile(p, re.IGNORECASE) for name, p in LIMIT_CONCERNS.items()}
_SITUATION_RE = {name: re.compile(p, re.IGNORECASE) for name, p in SITUATION_CONCERNS.items()}


def _fold(text: str) -> str:
    """Lower case, a curly apostrophe straight, a hyphen a space: how table entries and questions are read."""
    return text.lower().replace("\u2019", "'").replace("-", " ")


def _phrase_key(text: str) -> str:
    return " ".join(_TOKEN.findall(_fold(text)))


_TOKEN = re.compile(r"[\w&']+")
_LONGEST = 3


def _phrase_table() -> tuple[dict[str, frozenset[str]], tuple[tuple[str, frozenset[str]], ...]]:
    """Every question word or phrase (with its plural) and every word prefix ("anchov*"), with the concerns
    it touches."""
    words: dict[str, set[str]] = {}
    prefixes: dict[str, set[str]] = {}
    for concern, items in QUESTION_CONCERNS.items():
        for item in items:
            if item.endswith("*"):
                prefixes.setdefault(_phrase_key(item[:-1]), set()).add(concern)
                continue
            key = _phrase_key(item)
            for form in (key, key + "s", key + "es"):
                words.setdefault(form, set()).add(concern)
    return ({k: frozenset(v) for k, v in words.items()},
            tuple((k, frozenset(v)) for k, v in sorted(prefixes.items())))


_PHRASES, _PREFIXES = _phrase_table()
_STARTS = frozenset(k.split(" ", 1)[0] for k in _PHRASES if " " in k)  # first words of the phrases
# an amount of money: "What's the smartest thing to do with R5,000?", "Is 300 euros too much for a pram?"
_AMOUNT = re.compile(r"[$£€¥₹]\s?\d|\b[Rr]\s?\d[\d,]{2,}\b|\b\d[\d,.]*\s*(?:k\s+)?(?:dollars|pounds|euros|quid|bucks|rand|"
                     r"yen|rupees|francs|zloty|pesos)\b", re.IGNORECASE)
_PREFIX_RE = re.compile(r"\b(?:" + "|".join(re.escape(p) for p, _ in _PREFIXES) + r")")
_MEDICAL = re.compile(
    r"\b(?:allerg\w*|intoleran\w*|anaphyla\w*|medication\w*|medicine\w*|takes?|taking|prescri\w*|pregnan\w*|"
    r"diabet\w*|prediabet\w*|asthma\w*|epilep\w*|blood\s+pressure|hypertension|inhaler\w*|coeliac|celiac|gout|"
    r"ibs|irritable\s+bowel|crohn'?s|colitis|breast[\s-]?feed\w*|condition)\b",
    re.IGNORECASE,
)


@functools.lru_cache(maxsize=8192)
def fact_concerns(text: str) -> frozenset[str]:
    """The concerns a stored fact constrains: those of :data:`FACT_CONCERNS` it names, if it is a care fact
    (:func:`~.care.is_care_fact`), plus ``"clinic"`` for a medical one (an allergy, a medication, a
    condition: what a doctor, nurse or dentist should hear). Any other fact constrains nothing.

    A fact that says what the user cannot or will not do whatever their health (:data:`LIMIT_CONCERNS`:
    seasickness, a fear of flying or of dogs, vertigo, a bad back) constrains that, care fact or not.

    >>> sorted(fact_concerns("User has coeliac disease.")), fact_concerns("User lives in Leeds.")
    (['clinic', 'gluten', 'meal'], frozenset())
    """
    limits = {name for name, rx in (*_LIMIT_RE.items(), *_SITUATION_RE.items()) if rx.search(text)}
    if not is_care_fact(text):
        return frozenset(limits)
    found = limits | {name for name, rx in _FACT_RE.items() if rx.search(text)}
    if not _FOOD_CONCERNS.isdisjoint(found):
        found.add("meal")
    if _MEDICAL.search(text):
        found.add("clinic")
    return frozenset(found)


@functools.lru_cache(maxsize=4096)
def question_concerns(text: str) -> frozenset[str]:
    """The concerns the words of a question touch (:data:`QUESTION_CONCERNS`; ``"clinic"``: a visit to a
    clinician, "Anything I should tell the dentist?"). One pass over its words and word pairs and triples.

    >>> sorted(question_concerns("Can I have a beer at the pub?"))
    ['alcohol', 'blood thinner', 'gluten', 'pregnancy', 'sulphite']
    """
    folded = _fold(text)
    tokens = [t.removesuffix("'s") for t in _TOKEN.findall(folded)]  # "the baby's first Easter": the baby
    found: set[str] = set(("money",) if _AMOUNT.search(text) else ())
    get = _PHRASES.get
    for i, token in enumerate(tokens):
        hit = get(token)
        if hit:
            found |= hit
        if token in _STARTS:
            for n in range(2, min(_LONGEST, len(tokens) - i) + 1):
                hit = get(" ".join(tokens[i : i + n]))
                if hit:
                    found |= hit
    if _PREFIX_RE.search(folded):
        for token in tokens:
            for prefix, concerns in _PREFIXES:
                if token.startswith(prefix):
                    found |= concerns
    if not found.isdisjoint(_EATEN) and NOT_FOOD.search(folded):
        found -= _EATEN  # "What should I wear to the dinner?": not a question about what to eat
    return frozenset(found)


_TOLD_PAST = re.compile(r"\b(?:did|was|were|had|went|attended|created|visited)\b", re.IGNORECASE)


def asks_what_to_do(question: str) -> bool:
    """Whether the question asks, in the first person, about what the asker may or should do ("Can I have a
    beer at the pub?", "What should I order?"), not about what happened ("What was the date of the first BBQ I
    went to?", where the user's diet would only push the answer out) or about the world ("What is satay
    made of?").

    >>> asks_what_to_do("Is pad thai safe for me?"), asks_what_to_do("When did I go to the BBQ?")
    (True, False)
    """
    return for_the_asker(question) and _TOLD_PAST.search(question) is None


def asks_for_advice(turn: str) -> bool:
    """Whether a user's turn is a question (a question mark, or the words a question starts with) that
    :func:`asks_what_to_do`: "What should I grab for lunch?" is, "I get seasick on boats." is not.

    >>> asks_for_advice("Stopping for lunch. What should I grab?"), asks_for_advice("I get seasick on boats.")
    (True, False)
    """
    return asks_something(turn) and asks_what_to_do(turn)


def implied_rows(question: str, facts: Sequence[str], conversation: str | None = None) -> np.ndarray:
    """For each fact (in order), whether the question touches a concern it constrains, for the one the fact is
    about (:func:`~.care.named_by`: the user's household, or someone the question or its ``conversation`` names)
    (bool array); all ``False`` without a concern in the question, which is the common case and reads no fact."""
    asked = question_concerns(question)
    if not asked:
        return np.zeros(len(facts), dtype=bool)
    said = question if conversation is None else f"{question}\n{conversation}"
    return np.fromiter((not asked.isdisjoint(fact_concerns(f)) and named_by(f, said) for f in facts),
                       dtype=bool, count=len(facts))


def with_implied(query: str, scores: PoolScores, texts: Callable[[], Sequence[str]],
                 before: str | None = None, told: Callable[[str, str], bool] | None = None,
                 conversation: str | None = None) -> PoolScores:
    """``scores`` with the facts whose concerns the question touches marked ``implied`` (and the concerns met,
    for ``explain``); unchanged when there are none. The question is ``query`` when it :func:`asks_what_to_do`;
    for a follow-up that names no concern of its own, it goes on with ``before`` (the user's turn before it,
    read with its conversation) when that turn is about what the user will do (a question asking to be reminded of
    the asker's own thing, :func:`asked_slots`, never goes on from it), a question ("What about
    something to drink with it?" after "What should I grab for lunch?") or a plan ("And what should I order?"
    after "We're going to a seafood place tonight."). A fact that statement tells itself (``told(fact, turn)``:
    "I get seasick on boats." tells "User gets seasick on boats.") is not implied by it: the model reads that
    turn anyway. Someone else's fact is implied only when the question or the ``conversation`` (the earlier turns
    read with it) names them (:func:`~.care.named_by`). ``texts()`` gives the pool rows' texts in pool order; it is called only when the question
    names a concern or a name (their concerns are cached per text). The caller checks that the relevance gate
    applies."""
    slots = asked_slots(query)
    question = query if asks_what_to_do(query) else None
    statement = None
    # A follow-up goes on from the turns before when it names no concern of its own, or when it is no question of
    # what to do by itself ("How about the satay skewers?" after "What should I order?").
    if (before is not None and not slots and (question is None or not question_concerns(query))
            and asks_what_to_do(before)):
        question = f"{query}\n{before}"
        statement = None if asks_for_advice(before) else before
    subject = _NAME_ASKED.match(query) if question is None else None
    if question is None and not slots and subject is None:
        return scores
    asked = question_concerns(question) if question is not None else frozenset()
    if question is not None:
        names = named_words(query)
    else:
        names = frozenset(subject.groups()) - _NOT_A_NAME if subject is not None else frozenset()
    days = named_days(query) if question is not None else frozenset()
    if not asked and not names and not slots and not days:
        return scores
    facts = texts()
    rows = implied_rows(question, facts, conversation) if asked else np.zeros(len(facts), dtype=bool)
    if statement is not None and told is not None:
        for i in np.flatnonzero(rows).tolist():
            if told(facts[i], statement):
                rows[i] = False
    met = set().union(*(fact_concerns(facts[i]) for i in np.flatnonzero(rows).tolist())) & asked
    if names:
        named, held = named_rows(names, facts)
        rows |= named
        met |= {f"name {n}" for n in held}
    if days:
        on_day, held = day_rows(days, facts)
        rows |= on_day
        met |= {f"day {d}" for d in held}
    if slots:
        of_slot, held = slot_rows(slots, facts, scores.rank_score)
        rows |= of_slot
        met |= {f"slot {k}" for k in held}
    if not rows.any():
        return scores
    return replace(scores, implied=rows, concerns=tuple(sorted(met)))


_NAMED = re.compile(r"(?<=\s)(?<![.!?:;]\s)([A-Z][a-z][\w-]*)")
_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
_MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
           "November", "December")
_NOT_A_NAME = frozenset({
    "I", "It", "That", "There", "Here", "This", "These", "Those", "He", "She", "They", "We", "You", "My", "Our",
    "Mum", "Mom", "Dad", *(day.capitalize() for day in _WEEKDAYS), *_MONTHS, "Christmas", "Easter", "Mr", "Mrs",
    "Ms", "Dr", "OK", "Ok"})
_WORD = re.compile(r"[\w-]+")
# a question whose subject is a name: "Can Bruno come along on the hike?", "Does Kasia need a visa?" (someone or a
# pet of the asker's, when the user's facts hold the name)
_NAME_ASKED = re.compile(r"^\W*(?i:can|could|should|would|will|does|did|is|has|may|might|must)\s+([A-Z][a-z][\w-]*)\b")
MOST_NAMED = 2
"""A name the question uses opens the facts that hold it when at most this many do: "Can Rosie eat grapes?" opens
"User has a Labrador called Rosie."; a name in every fact (a speaker's) says nothing about which matters."""


def named_words(question: str) -> frozenset[str]:
    """Capitalised words past a sentence's first that may name a person, a pet or a place ("Dash", "Annecy");
    days, months, pronouns and titles are left out."""
    return frozenset(_NAMED.findall(question)) - _NOT_A_NAME


_DAY_IN_QUESTION = re.compile(r"\b(" + "|".join(_WEEKDAYS) + r")s?\b", re.IGNORECASE)
_MONTH_IN_QUESTION = re.compile(r"(?<=\s)(" + "|".join(_MONTHS) + r")\b")  # "May", not "may" or a sentence's first word


def named_days(question: str) -> frozenset[str]:
    """The weekdays and months a question names ("the extra Saturday overtime", "a class on Wednesday nights",
    "in May"), lower case: a plan on that day meets what the user does on it."""
    return frozenset(m.lower() for m in (*_DAY_IN_QUESTION.findall(question), *_MONTH_IN_QUESTION.findall(question)))


@functools.lru_cache(maxsize=64)
def _day_re(day: str) -> re.Pattern[str]:
    if day in _WEEKDAYS:
        return re.compile(rf"\b{day}s?\b", re.IGNORECASE)
    return re.compile(rf"\b{day.capitalize()}\b")


def day_rows(days: frozenset[str], facts: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """The facts naming one of ``days`` (bool array: "User's daughter plays netball on Saturday mornings." for a
    question about Saturday), for each day named by at most :data:`MOST_NAMED` facts, and those days."""
    holding: dict[str, list[int]] = {d: [i for i, text in enumerate(facts) if _day_re(d).search(text)] for d in days}
    return _held_by_few(holding, len(facts), MOST_NAMED)


def asks_about_named(question: str, facts: Callable[[], Sequence[str]]) -> bool:
    """Whether the question's subject is a name the user's facts hold ("Can Bruno come along on the hike?" with
    "User has a Labrador called Bruno."): asked in a chat, it is about the asker's own people or pets. ``facts()``
    is called only when the question starts so."""
    m = _NAME_ASKED.match(question)
    if m is None or m.group(1) in _NOT_A_NAME:
        return False
    name = m.group(1)
    return any(name in text and name in _WORD.findall(text) for text in facts())


def named_rows(names: frozenset[str], facts: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """The facts holding one of ``names`` as a word (bool array), for each name held by at most
    :data:`MOST_NAMED` facts, and those names."""
    holding: dict[str, list[int]] = {n: [] for n in names}
    for i, text in enumerate(facts):
        if any(n in text for n in names):  # a substring test first: most facts hold no name of the question
            for w in names.intersection(_WORD.findall(text)):
                holding[w].append(i)
    return _held_by_few(holding, len(facts), MOST_NAMED)


def _held_by_few(holding: dict[str, list[int]], n: int, most: int) -> tuple[np.ndarray, list[str]]:
    """Of ``holding`` (a name or slot -> the positions of the facts holding it, among ``n``), the facts of each one
    held by at most ``most`` facts (bool array), and those names or slots: one that many facts hold says nothing
    about which matters."""
    rows = np.zeros(n, dtype=bool)
    held = sorted(k for k, at in holding.items() if 0 < len(at) <= most)
    for k in held:
        rows[holding[k]] = True
    return rows, held


MOST_OF_SLOT = 2
"""A question about a slot of someone's life opens at most this many facts of that slot: "Where do I work?" opens
"User works at Meta." (MiniLM: cosine 0.15); of a slot that more facts fill, the best ranked."""


_MODAL = r"(?:should|shall|could|can|would|will|might|must|may)"
_ABOUT_ME = re.compile(
    r"^\W*(?:(?:where|what|who|which|when|how(?:\s+(?:old|long|many|much|far))?)"
    r"(?:'s|\s+(?:do|does|did|am|is|are|was|were|have|has|had))?\s+"
    rf"(?:(?!{_MODAL}\b)[\w']+\s+){{0,3}}?(?:i|my|me)\b|(?:do|did|am|was|have|had)\s+i\b|(?:is|are|was|were)\s+my\b)",
    re.IGNORECASE,
)


_MY_THING = re.compile(r"\b(?:my|our)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+", re.IGNORECASE)


def recalls_the_asker(question: str) -> bool:
    """Whether the question asks about the asker's own things or doings ("What instrument do I play?", "Where's my
    passport?", "How old am I?"), not what they should do ("What should I cook?" is not).

    >>> recalls_the_asker("What instrument do I play?"), recalls_the_asker("What should I cook?")
    (True, False)
    """
    return _ABOUT_ME.match(question.replace("\u2019", "'")) is not None


def goes_on(turn: str) -> bool:
    """Whether a user's turn goes on from the turns before it, so that it shares their concerns: it says so by its
    words ("How about the satay?", "Pad thai or green curry?", "...there?"), or it is a short turn or a request for
    advice ("What starter would you suggest?" after "I'm planning a dinner party") that does not ask about the
    asker's own things ("What instrument do I play?" after "Can I eat satay?" is a question of its own).

    >>> goes_on("How about the satay?"), goes_on("What starter would you suggest?"), goes_on("What instrument do I play?")
    (True, True, False)
    """
    return (goes_on_from_the_conversation(turn) or points_back(turn)
            or (not recalls_the_asker(turn) and (leans_on_the_conversation(turn) or asks_for_advice(turn))))


def thread_of(read: Sequence[str]) -> list[str]:
    """The turns of ``read`` (oldest first) a follow-up goes on from, newest first: the newest, and older ones
    while the turn after them :func:`goes_on` from them, up to the turn that opened the topic. "And a main course?"
    after "I'm planning a dinner party." and "What starter would you suggest?" goes on from both.

    >>> thread_of(["I moved to Porto.", "I'm at a Thai place.", "What should I order?"])
    ['What should I order?', "I'm at a Thai place."]
    """
    out: list[str] = []
    for turn in reversed(read):
        out.append(turn)
        if not goes_on(turn):
            break
    return out


def asks_to_be_reminded(question: str) -> bool:
    """Whether the question asks the assistant to recall a slot of the asker's ("Where do I live?", "What's my
    job?", "Do I have a car?"): it names its need itself, so in a chat it is read on its own words, not with the
    turns before it ("What's my job?" after "Is a ham sandwich OK for me?" is not about food).

    >>> asks_to_be_reminded("What's my job?"), asks_to_be_reminded("What do I need to bring there?")
    (True, False)
    """
    return recalls_the_asker(question) and bool(slot_keys(question))


def asked_slots(question: str) -> frozenset[str]:
    """The slot keys (:func:`memori_core.slots.slot_keys`: ``"user:job"``) a question asks the assistant to recall
    about the asker: "Where do I work?", "What do I do for a living?", "What's my sister's job?" (``"sister:job"``),
    "Do I have a car?"; or of the asker's own thing it names ("Any tips for my job?", "My car makes a weird noise,
    what should I do?"); empty for a request for advice that names none ("What should I cook?", "Can you suggest a
    wine?"), where the other signals judge, and for a statement.

    >>> sorted(asked_slots("Where do I work?")), sorted(asked_slots("What should I drink tonight?"))
    (['user:job'], [])
    """
    text = question.replace("\u2019", "'")
    if _ABOUT_ME.match(text) is not None:
        return slot_keys(question)
    if not asks_something(text):
        return frozenset()
    # "Any tips for my job?", "My car makes a weird noise, what should I do?": the user's own one, named
    return frozenset(k for m in _MY_THING.finditer(text) for k in slot_keys(m.group()) if k.startswith("user:"))


def slot_rows(keys: frozenset[str], facts: Sequence[str],
              rank: np.ndarray | None = None) -> tuple[np.ndarray, list[str]]:
    """The facts holding one of the slot ``keys`` (bool array), for each key held by at most :data:`MOST_OF_SLOT`
    facts, and those keys. With ``rank`` (the facts' rank scores), a key more facts hold opens its
    :data:`MOST_OF_SLOT` best ranked: "Am I married?" after months of facts about a partner (his birthday, his job,
    a trip together) still gets the two that read most like the question."""
    holding: dict[str, list[int]] = {k: [] for k in keys}
    for i, text in enumerate(facts):
        for k in slot_keys(text) & keys:
            holding[k].append(i)
    if rank is not None:
        holding = {k: sorted(at, key=lambda i: -rank[i])[:MOST_OF_SLOT] for k, at in holding.items()}
    return _held_by_few(holding, len(facts), MOST_OF_SLOT)
