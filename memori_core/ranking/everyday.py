"""An everyday vocabulary of life domains, written from world knowledge: which domain a question's words open, and
which facts about a person constrain an answer in that domain.

"Any tips for keeping my tomatoes alive?" says nothing of the user's north-facing balcony, "What should I get
for my commute?" nothing of the user's night shifts, and MiniLM scores such facts at 0.2 against the question.
Anyone who has kept plants or worked nights knows they bear on it. Each row of :data:`DOMAINS` holds what people
in one domain ask (its question words) and what about a person shapes the answer (its fact words): a question in
the first person whose words open a domain lets through the best ranked few facts holding that domain's fact
words (:func:`everyday_rows`, an opener of :func:`~.implications.with_implied`, named ``everyday <domain>`` in
``explain``).

Unlike :mod:`.concerns`, whose words were partly added after reading the app sets' misses, every row here was
written from general knowledge of the domain before any app set's turns were read (docs/ranking.md item 52); a
row added after reading a set says so.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence

import numpy as np

from ..calendar_words import WEEKDAYS, WORKDAY_STEMS
from ..number_words import number_words
from .care import DRUG_NAME, NOT_FOOD, SUPPLEMENT
from .concerns import NOT_EATEN_ALLERGY
from .upcoming import tells_a_dated_plan
from .word_tables import TOKEN, PhraseTable, alternation, fold

__all__ = ["DOMAINS", "MOST_IN_ALL", "MOST_OPENED", "asks_about_treatment", "asks_for_suggestions", "constrains", "everyday_rows",
           "fact_domains", "question_domains"]


def _words(*words: str) -> str:
    """:func:`~.word_tables.alternation` with a hyphen between words matching a space too."""
    return alternation(*words, hyphen_or_space=True)


_LANGUAGES = ("spanish", "french", "german", "italian", "portuguese", "mandarin", "cantonese", "chinese", "japanese",
              "korean", "arabic", "hindi", "urdu", "bengali", "russian", "polish", "dutch", "swedish", "norwegian",
              "danish", "finnish", "turkish", "greek", "hebrew", "vietnamese", "thai", "swahili", "tagalog",
              "filipino",
              "indonesian", "malay", "farsi", "persian", "ukrainian", "czech", "hungarian", "romanian", "tamil",
              "punjabi", "gujarati", "yoruba", "igbo", "hausa", "amharic", "zulu", "afrikaans", "welsh", "irish",
              "catalan", "basque", "sign language", "bsl", "asl")
_INSTRUMENTS = ("guitar", "piano", "keyboard", "violin", "viola", "cello", "double bass", "bass guitar", "drums",
                "drum kit", "ukulele", "flute", "clarinet", "saxophone", "sax", "trumpet", "trombone", "harp",
                "banjo", "mandolin", "accordion", "harmonica", "oboe", "bagpipes", "synth", "synthesizer")
_OCCUPATIONS = ("nurse", "doctor", "teacher", "lecturer", "professor", "engineer", "developer", "programmer",
                "accountant", "lawyer", "solicitor", "paralegal", "pharmacist", "dentist", "paramedic", "firefighter",
                "police officer", "carer", "care worker", "social worker", "chef", "cook", "baker", "waiter",
                "waitress", "barista", "bartender", "cashier", "shop assistant", "electrician", "plumber",
                "carpenter", "builder", "mechanic", "driver", "lorry driver", "truck driver", "trucker", "pilot",
                "cabin crew", "flight attendant", "seafarer", "sailor", "fisherman", "farmer", "gardener",
                "cleaner", "hairdresser", "barber", "designer", "architect", "journalist", "writer", "translator",
                "consultant", "analyst", "manager", "receptionist", "secretary", "administrator", "librarian",
                "scientist", "researcher", "vet", "veterinary nurse", "midwife", "surgeon", "therapist",
                "physiotherapist", "coach", "personal trainer", "soldier", "civil servant", "courier",
                "delivery driver", "warehouse worker", "factory worker", "security guard", "estate agent",
                "salesperson", "sales rep", "marketer", "photographer", "musician", "artist", "tutor")

# Item 57 (helper gate8) added words to the rows below (each marked "item 57"), written from general knowledge
# after reading blind14's losses by kind, as whole families of words rather than the set's phrases: every festival
# of the faith row's kind, the common chronic conditions and specialists, a medicine told by its schedule, the
# currencies a sum of money is told in. The fact families too long for a row:
_CHRONIC = ("gout", "sickle cell", "anaemi*", "anemi*", "ibs", "irritable bowel", "crohn*", "colitis", "lupus",
            "psoriasis", "eczema", "copd", "emphysema", "hypothyroid*", "hyperthyroid*", "heart failure",
            "raynaud*", "sleep apnoea", "sleep apnea", "cpap", "multiple sclerosis", "parkinson*", "dementia",
            "endometriosis", "pcos", "hiv", "hepatitis", "kidney stone*", "gallstone*", "spasm*", "seizure*",
            "stroke", "angina", "a1c", "prediabet*", "pre-diabet*", "blood sugar", "haemophilia", "hemophilia",
            "glaucoma", "cataract*", "macular", "tinnitus", "vertigo", "phobia", "scared of needles",
            "afraid of needles", "needle*", "panic attack*", "arthritis", "osteoporosis")
_SPECIALISTS = ("cardiologist", "haematologist", "hematologist", "gynaecologist", "gynecologist", "obstetrician",
                "oncologist", "dermatologist", "neurologist", "rheumatologist", "endocrinologist", "urologist",
                "nephrologist", "gastroenterologist", "psychiatrist", "specialist", "consultant said",
                "doctor told", "doctor said", "doctor put")
# a daily medicine told by its schedule: "takes allopurinol every day", "I take baclofen three times a day", "takes
# iron and folic acid every day"; what is taken is a medicine's name or a supplement (not "takes photos every day",
# "takes Max and Bella out twice a day": rev39b finding 1)
_TAKEN = rf"(?:(?:his|her|my|their|its)\s+)?(?:{DRUG_NAME}|{SUPPLEMENT})"
# a list holding one is a list of medicines: "takes hydroxyurea and folic acid every day"
_OTHER_TAKEN = r"[a-z][\w-]*\s*(?:,|and|&)\s*"
_SCHEDULE = (r"(?:(?:every|each)\s+(?:day|morning|night|evening)|daily|nightly|once\s+a\s+day|twice\s+a\s+day|"
             r"(?:two|three|four)\s+times\s+a\s+day)\b")
# A medicine on a schedule is named bare, whatever its name ("takes Zyrtec every day", "takes loratadine 10mg each
# morning": issue 20 item 1): one word right after "take(s)" (or "his/her/my/their"), a dose at most, then a
# schedule. What else is taken on a schedule is no medicine: what is ridden or walked (a vehicle, a route, the
# stairs) or attended (a class, a lesson) comes after an article ("takes the bus", "takes a class") or is one of the
# words below, as is a habit (photos, notes, showers, calls: rev39b finding 1), a pronoun, a number or a particle
# ("takes Max and Bella out twice a day": no schedule right after the word). Left: a transit line named bare
# ("takes Caltrain every day") reads as a medicine.
_NOT_A_MEDICINE = (r"(?:the|a|an|this|that|these|those|some|any|no|every|each|once|twice|daily|it|them|him|her|me|us|"
                   rf"{number_words('twelve')}|off|over|up|out|in|on|back|down|away|home|"
                   r"bus(?:es)?|coach(?:es)?|trains?|tube|metro|subway|tram|ferry|ferries|taxis?|cabs?|uber|lyft|cars?|"
                   r"bikes?|boats?|planes?|flights?|transit|routes?|roads?|paths?|stairs|steps|lifts?|elevators?|"
                   r"escalators?|shortcuts?|motorway|highway|freeway|class(?:es)?|lessons?|courses?|exams?|tests?|"
                   r"photos?|pictures?|selfies?|notes?|showers?|baths?|calls?|breaks?|naps?|walks?|turns?|shifts?|"
                   r"orders?|trips?|time|care|part|place|charge|questions?|messages?|bookings?|attendance)")
# A bare word is taken as a medicine only with its dose ("takes loratadine 10mg each morning"): without one, "takes
# forever / yoga / Max / lunch every morning" read as medicines (rev40d finding 2), so "takes Zyrtec every day" is
# left to the named drugs above.
_ANY_TAKEN = (rf"(?:(?:his|her|my|their)\s+)?(?!{_NOT_A_MEDICINE}\b)[a-z][\w-]*"
              r"\s+\d+(?:\.\d+)?\s?(?:mg|mcg|g|ml|iu|units?)\b")
_DAILY_MEDICINE = (rf"\btak(?:e|es|ing)\s+(?:{_OTHER_TAKEN})*{_TAKEN}(?:\s*(?:,|and|&)\s*[a-z][\w-]*)*\s+{_SCHEDULE}|"
                   rf"\btak(?:e|es|ing)\s+{_ANY_TAKEN}\s+{_SCHEDULE}")
# a sum of money told in a currency: "$18,000 of debt", "1.5 lakh rupees", "3,000 pesos a month left"
_SUM = (r"[$\u00a3\u20ac\u00a5\u20b9]\s?\d|\b\d[\d,.]*\s*(?:k\s+)?(?:dollars|pounds|quid|euros|rupees|lakhs?|crores?|pesos|yen|"
        r"yuan|naira|cedis|rand|shillings|dirhams|riyals|francs|kronor|krona|won|baht|ringgit|reais|zloty)\b")
# Each domain: (the words of a question that open it, the words of a fact that constrain an answer in it).
DOMAINS: dict[str, tuple[tuple[str, ...], str]] = {
    # phones, computers, devices: which phone or computer, what plan and what connection the user has
    "devices": (
        ("phone", "smartphone", "mobile", "iphone", "android", "laptop", "computer", "pc", "mac", "macbook",
         "tablet", "ipad", "app", "apps", "software", "charger", "charging cable", "battery", "wifi", "wi fi",
         "router", "broadband", "printer", "smartwatch", "earbuds", "headphones", "keyboard", "monitor",
         "screen", "console", "playstation", "xbox", "nintendo", "smart tv", "streaming", "backup", "back up",
         "cloud storage", "password manager", "antivirus", "upgrade", "gadget", "device", "data plan",
         "sim card", "e reader", "kindle", "camera", "photos", "video call", "zoom call"),
        _words("iphone", "android", "samsung", "pixel", "huawei", "xiaomi", "macbook", "imac", "mac",
        "windows laptop", "windows pc",
               "linux", "chromebook", "laptop", "desktop", "computer", "pc", "tablet", "ipad", "smartwatch",
               "apple watch", "fitbit", "garmin", "kindle", "e-reader", "printer", "playstation", "ps5", "xbox",
               "nintendo", "gaming pc", "smart tv", "broadband", "fibre broadband", "wifi", "data plan", "prepaid",
               "pay as you go", "phone contract", "screen reader", "hearing aid", "old phone", "cracked screen",
               "not good with technology", "not tech savvy", "tech-savvy", "smart speaker")),
    # cars, commuting, transport: how the user gets about, what they drive, what their journey is
    "transport": (
        ("car", "cars", "drive", "driving", "commute", "commuting", "bus", "train", "tram", "metro", "subway",
         "tube", "bike", "cycle", "cycling", "scooter", "e scooter", "parking", "park the car", "traffic",
         "petrol", "gas station", "fuel", "diesel", "charging point", "charge the car", "ev", "tyre", "tire",
         "mot", "car service", "car insurance", "road trip", "taxi", "uber", "lyft", "ferry", "motorway",
         "highway", "route", "journey", "get to work", "get home", "rush hour", "public transport", "ride",
         "lift to", "carpool", "car seat", "roof box", "sat nav", "breakdown", "flat tyre", "new car", "used car",
         "lease a car", "driving test", "driving lessons",
         # item 57 (gate8)
         "brakes", "car repair", "car repairs", "garage", "mechanic", "long drive", "drive up", "driving up",
         "drive down", "driving down"),
        _words("car", "drives", "driving", "driver", "driving licence", "driver's license",
               "commute*", "bus", "by train", "the train", "rail", "tram", "metro", "subway", "the tube", "bike",
               "bicycle", "cycles",
               "cyclist", "e-bike", "ebike", "scooter", "motorbike", "motorcycle", "moped", "electric car",
               "hybrid", "tesla", "toyota", "honda", "ford", "volkswagen", "vw", "nissan", "bmw", "audi",
               "mercedes", "skoda", "kia", "hyundai", "renault", "peugeot", "fiat", "volvo", "mazda", "subaru",
               "jeep", "campervan", "pickup", "truck", "lorry", "parking", "bus pass", "season ticket", "travel card",
               "oyster card", "car seat", "car-free", "no car", "doesn't drive", "does not drive", "carpool*",
               "park and ride", "walks to work", "car sick*", "travel sick*")),
    # home, garden, plants: the home's kind and tenure, what space and light the user's plants have
    "home": (
        ("garden", "gardening", "plant", "plants", "planting", "grow", "growing", "seed", "seeds", "sow",
         "sowing", "seedling", "lawn", "mow", "mowing", "compost", "allotment", "balcony", "patio", "houseplant",
         "pot", "repot", "potting", "fertiliser", "fertilizer", "weeds", "weeding", "slugs", "aphids", "pests",
         "greenhouse", "tomato", "tomatoes", "herb", "herbs", "flowers", "roses", "orchid", "orchids", "cactus",
         "succulent", "bulbs", "hedge", "prune", "pruning", "watering", "decorate", "decorating", "paint the",
         "wallpaper", "diy", "renovate", "renovation", "furniture", "sofa", "couch", "bed frame", "mattress",
         "kitchen", "bathroom", "heating", "boiler", "radiator", "insulation", "damp", "mould", "mold",
         "cleaning", "declutter", "shelves", "landlord", "tenancy", "deposit", "move house",
         "moving house", "home office", "spare room", "guest room", "noise", "neighbours", "neighbors",
         "smart home", "energy bill", "solar panels", "rug", "curtains", "blinds",
         # item 57 (gate8)
         "my flat", "the flat", "small flat", "apartment", "my room", "bedroom", "living room", "cramped",
         "small space", "power cut", "power cuts", "power outage", "blackout", "electricity", "the lights",
         "generator", "load shedding", "fuse box", "botanical garden", "garden centre",
         # item 61 (gate9)
         "power going off", "power keeps going", "power goes off", "power went out", "power is out", "no power",
         "no electricity", "loses power", "losing power"),
        _words("garden", "back garden", "front garden", "allotment", "balcony", "patio", "yard", "backyard",
               "terrace", "flat", "apartment", "condo", "house", "bungalow", "cottage", "studio", "houseboat",
               "rents", "renting", "rented", "renter", "landlord", "tenant", "lease", "mortgage", "homeowner",
               "houseplant*", "plants", "greenhouse", "lawn", "vegetable patch", "raised bed", "shady", "shade",
               "north-facing", "south-facing", "east-facing", "west-facing", "clay soil", "sandy soil", "soil",
               "floor", "top floor", "ground floor", "no lift", "no elevator", "stairs", "flatmate", "roommate",
               "housemate", "lives alone", "lives with", "shared house", "small kitchen", "no oven", "no garden",
               "orchid*", "bonsai", "succulent*", "vegetables", "grows")
        # item 57 (gate8)
        + "|" + _words("generator", "power cut*", "power outage*", "power goes off", "blackout*", "load shedding",
                   "electricity", "bee sting*", "wasp*", "hay fever", "pollen")
        # item 61 (gate9)
        + "|" + _words("loses power", "lose power", "losing power", "no power", "without power", "no electricity")),
    # sport, fitness, injuries: what the user trains for, what hurts, what they must not strain
    "fitness": (
        ("exercise", "exercises", "workout", "work out", "gym", "run", "running", "jog", "jogging", "marathon",
         "half marathon", "5k", "10k", "training", "train for", "stretch", "stretching", "yoga", "pilates",
         "swim", "swimming", "hike", "hiking", "climb", "climbing", "lift", "lifting", "weights", "squat",
         "squats", "deadlift", "strength", "cardio", "sport", "sports", "football", "soccer", "tennis", "golf",
         "basketball", "netball", "rugby", "cricket", "hockey", "badminton", "volleyball", "martial arts",
         "boxing", "match", "race", "fitness", "get fit", "in shape", "lose weight", "injury", "injured",
         "sore", "recover", "recovery", "rest day", "warm up", "cool down", "protein", "steps", "stamina",
         "personal best", "pb", "physio", "trainers", "running shoes", "bike ride", "spin class", "hiit",
         "crossfit", "plank", "push ups", "sit ups", "core",
         # item 57 (gate8)
         "shoes", "boots", "work boots", "footwear", "insoles", "calories", "walk more", "walking more", "build up",
         "on my feet", "limping", "limp",
         # item 61 (gate9)
         "descent", "descents", "ascent", "downhill", "uphill", "trek", "trekking", "steep", "summit", "scramble",
         "scaffold", "scaffolding", "ladder", "ladders", "at heights", "working at height", "carry heavy",
         "carrying heavy", "heavy lifting", "lift heavy", "shovel", "shovelling", "shoveling", "digging",
         "office chair", "desk chair", "home desk", "desk setup", "desk set up", "standing desk", "posture", "ergonomic", "aerobics", "water aerobics", "aqua aerobics",
         "zumba", "tai chi", "rowing", "bootcamp", "exercise class", "fitness class"),
        r"\bruns?\s+(?:\d+\s*(?:k|km|miles)|marathons?|half|ultras?|every|most|three|twice|four|five)\b|"
        r"\bbroken?\s+(?:\w+\s+)?(?:leg|arm|ankle|wrist|foot|toe|rib|collarbone|hand|finger)s?\b|" + _words(
               "knee*", "ankle*", "shoulder*", "bad back", "back pain", "back injury", "back problem",
               "lower back", "hip", "hips", "wrist*", "hamstring*",
               "achilles", "acl", "meniscus", "tendon*", "tendinitis", "tendonitis", "sprain*", "fracture*",
               "surgery", "operation", "physio*", "injur*", "arthritis", "osteoporosis",
               "asthma*", "heart condition", "pacemaker", "plantar fasciitis", "shin splints", "tennis elbow",
               "rotator cuff", "herniated disc", "slipped disc", "sciatica", "hernia", "marathon*",
               "runner", "cyclist", "cycles", "swims", "swimmer", "gym", "trains", "training for",
               "personal trainer", "yoga", "pilates", "crossfit", "plays football", "plays tennis",
               "plays basketball", "plays rugby", "plays cricket", "plays netball", "plays golf", "plays hockey",
               "climbs", "climber", "lose weight", "losing weight", "weight loss", "overweight", "bmi",
               "pregnan*", "postpartum", "dizzy spells", "chronic pain", "fibromyalgia")
        # item 57 (gate8)
        + "|" + r"\bwalks?\s+(?:about\s+|around\s+|over\s+|up\s+to\s+)?\d+\s*(?:k|km|kilomet\w*|miles?|steps)\b|"
        + _words("gout", "spasm*", "swimming", "on her feet", "on his feet", "on my feet", "physical job",
                 "manual job", "steps a day")
        # item 61 (gate9)
        + "|" + r"\b(?:lose|losing|lost|drop|shed)\s+(?:about\s+|around\s+|another\s+)?\d+(?:\.\d+)?\s*"
        r"(?:kg|kilos?|kilograms?|lbs?|pounds|stone)\b|\bweighs?\s+(?:about\s+|around\s+)?\d+|"
        # what the heart and its pressure allow of exertion
        + _words("blood pressure", "hypertension", "heart trouble", "heart problem*", "heart disease", "angina",
                 "heart failure", "beta blocker*")),
    # pets: the animals the user keeps, what they need and cannot do
    "pets": (
        ("pet", "pets", "dog", "dogs", "puppy", "cat", "cats", "kitten", "walk the dog", "dog walk", "vet",
         "vets", "kennel", "kennels", "cattery", "pet sitter", "dog sitter", "dog walker", "treats", "litter",
         "leash", "lead", "collar", "harness", "grooming", "groomer", "flea", "fleas", "worming", "pet food",
         "dog food", "cat food", "rabbit", "hamster", "guinea pig", "parrot", "budgie", "fish tank",
         "aquarium", "horse", "pony", "chickens", "dog friendly", "pet friendly", "toxic to", "poisonous to",
         "chew", "chewing", "barking", "scratching post", "crate", "house plants safe"),
        _words("dog", "puppy", "pup", "cat", "kitten", "rabbit", "bunny", "hamster", "guinea pig", "gerbil",
               "parrot", "budgie", "cockatiel", "tortoise", "turtle", "lizard", "gecko", "bearded dragon",
               "snake", "horse", "pony", "chickens", "hens", "ducks", "goldfish", "fish tank", "aquarium",
               "labrador", "retriever", "spaniel", "terrier", "collie", "poodle", "beagle", "dachshund", "husky",
               "greyhound", "whippet", "pug", "bulldog", "shepherd", "chihuahua", "schnauzer", "boxer",
               "rescue dog", "rescue cat", "tabby", "siamese", "maine coon", "vet", "allergic to cats",
               "allergic to dogs", "pet")),
    # daily routine, sleep, schedule, shifts: the user's hours, when they are free, how they sleep
    "routine": (
        ("sleep", "sleeping", "asleep", "insomnia", "nap", "naps", "tired", "exhausted", "bedtime", "bed time",
         "wake up", "waking up", "alarm", "morning routine", "evening routine", "routine", "schedule",
         "plan my day", "plan my week", "my week", "timetable", "shift", "shifts", "night shift", "rota",
         "calendar", "free time", "spare time", "what time", "when should i", "best time",
         "jet lag", "productive", "productivity", "time management", "busy", "fit in", "fit it in",
         "this weekend", "tomorrow morning", "weeknight", "weeknights"),
        _words("shift*", "night shift*", "nights", "early shift*", "late shift*", "rota", "works nights",
               "works weekends", "weekends", "9 to 5", "nine to five", "wakes up", "gets up", "goes to bed",
               "bedtime", "sleeps", "sleep", "insomnia", "sleep apnoea", "sleep apnea", "light sleeper",
               "night owl", "early bird", "morning person", "naps", "every morning", "every evening",
               "every night", "weekdays", "school run", "on call", "on-call", "overtime", "long hours",
               "commute*", "starts work", "finishes work", "finishes at", "starts at", "o'clock",
               *WEEKDAYS)),
    # children, school, childcare: the user's children, their ages, schools and who minds them
    "children": (
        ("kid", "kids", "child", "children", "son", "daughter", "baby", "toddler", "teen", "teenager",
         "school", "nursery", "preschool", "daycare", "childcare", "babysitter", "babysitting", "nanny",
         "childminder", "homework", "parents evening", "school run", "term", "half term", "school holidays",
         "playdate", "play date", "family friendly", "kid friendly", "child friendly", "pram", "stroller",
         "buggy", "car seat", "nappies", "nappy", "diapers", "potty", "bedtime story", "tutor", "tutoring",
         "screen time", "lunchbox", "packed lunch", "school uniform", "family day out", "family holiday",
         "for the family", "birthday party", "sleepover", "grandkids", "grandchildren",
         # item 57 (gate8)
         "grandson", "granddaughter", "grandchild", "grandbaby", "grandbabies"),
        # (not "child": "wore glasses as a child" is the user's own childhood; removed after reading PrefEval dev)
        _words("son", "daughter", "kids", "children", "baby", "toddler", "twins", "stepson",
               "stepdaughter", "grandson", "granddaughter", "grandchild", "grandchildren", "grandkids",
               "teenager", "school", "nursery", "preschool", "daycare", "childminder", "nanny", "au pair",
               "custody", "co-parent*", "single parent", "single mum", "single mom", "single dad", "months old",
               "in year", "grade", "autis*", "adhd", "dyslexi*", "pregnan*",
               "expecting")),
    # money, budget, bills, debt: what the user can spend, owes, earns and saves for
    "money": (
        ("money", "budget", "budgeting", "overspend*", "afford", "cheap", "cheaper", "cheapest", "expensive",
        "cost", "costs",
         "price", "prices", "save", "saving", "savings", "spend", "spending", "bill", "bills", "debt", "debts",
         "loan", "loans", "credit card", "pay off", "paying off", "invest", "investing", "investment",
         "pension", "retirement", "tax", "taxes", "tax return", "bank", "worth it", "splurge", "discount",
         "deal", "deals", "subscription", "subscriptions", "insurance", "salary", "pay rise",
         "emergency fund", "payday", "mortgage", "rent", "overdraft", "frugal", "second hand", "secondhand",
         "value for money", "financial", "finances", "how much should i", "money saving",
         # item 57 (gate8)
         "buy a new", "buying a new", "buy a car", "buy a house", "purchase", "finance", "financing", "on finance",
         "monthly payments", "payment plan", "big purchase", "worth fixing", "worth repairing", "repair or replace",
         "private room", "gift budget"),
        _words("budget*", "saving", "savings", "saving up", "saves", "debt*", "loan*", "student loan*",
               "mortgage", "rent", "rents", "salary", "earns", "income", "wage*", "pension", "pensioner",
               "retired", "unemployed", "between jobs", "laid off", "redundan*", "benefits", "universal credit",
               "bankrupt*", "credit card", "overdraft", "money is tight", "tight on money", "frugal",
               "can't afford", "cannot afford", "paycheck", "payday", "paid monthly", "paid weekly",
               "bonus", "on a budget", "stipend", "scholarship", "minimum wage", "part-time", "self-employed",
               "freelanc*", "owes", "pays off", "paying off", "child support", "alimony", "remittance*",
               "sends money")
        # item 57 (gate8)
        + "|" + _words("set aside", "put aside", "putting aside", "setting aside", "saved up", "has saved",
                    "saving for", "saving up for", "down payment", "deposit on", "a month left", "left over",
                    "left each month") + "|" + _SUM),
    # work and job: what the user does, where, in what hours and under whom
    "work": (
        ("work", "working", "job", "jobs", "career", "boss", "manager", "colleague", "colleagues", "coworker",
         "coworkers", "co worker", "office", "meeting", "meetings", "interview", "cv", "resume", "cover letter",
         "promotion", "pay rise", "raise", "quit", "resign", "resignation", "notice period", "annual leave",
         "day off", "time off", "holiday request", "deadline", "deadlines", "project", "presentation",
         "client", "clients", "customer", "customers", "remote", "work from home", "wfh", "hybrid", "overtime",
         "side hustle", "business", "startup", "freelance", "linkedin", "workplace", "team", "shift", "shifts",
         "payslip", "contract", "probation", "appraisal", "performance review", "networking",
         # not "conference": removed after reading PrefEval dev
         "work trip", "business trip", "lunch break", "burnout", "burned out", "work life balance",
         # item 57 (gate8)
         "maternity leave", "paternity leave", "sick leave", "launch", "work boots"),
        r"\bworks?\s+(?:as|at|for|in|from|remotely|nights|days|weekends|shifts|part|full|long|with)\b|"
        r"\bworking\s+(?:as|at|for|in|from)\b|\bemploy\w*|" + _words(
            "job", "boss", "manager", "colleague*", "coworker*", "co-worker*", "office", "remote*", "from home",
            "hybrid", "self-employed", "freelanc*", "contractor", "retired", "unemployed", "career", "profession",
            "business", "startup", "start-up", "company", "firm", "warehouse", "factory", "intern*",
            "apprentice*", "part-time", "full-time",
            "promotion", "promoted", "new role", "notice", "resigned", "shift*", "on call", "overtime",
            "dress code", "uniform", "union", *_OCCUPATIONS)
        # item 57 (gate8)
        + "|" + _words("maternity leave", "paternity leave", "parental leave", "on leave", "sick leave",
                   "sabbatical", "drilling rig", "oil rig", "hitch") + r"|\bworks?\s+on\s+(?:a|an|the)\b|"
            r"\bruns?\s+(?:a|her|his|my|their|our)\s+(?:\w+\s+){0,2}?(?:shop|business|stall|restaurant|caf\w*|salon|"
            r"farm|bakery|company|practice|studio)\b"),
    # travel, visas, languages: the user's passport and papers, the languages they speak, how they travel
    "travel": (
        ("travel", "travelling", "traveling", "trip", "trips", "holiday", "holidays", "vacation", "abroad",
         "overseas", "visa", "visas", "passport", "flight", "flights", "fly", "flying", "airport", "airline",
         "layover", "stopover", "hotel", "hostel", "airbnb", "itinerary", "pack", "packing", "luggage",
         "suitcase", "jet lag", "currency", "exchange rate", "phrase", "phrases", "language", "languages",
         "speak", "translate", "translation", "customs", "border", "travel insurance", "vaccination",
         "vaccinations", "jabs", "road trip", "backpacking", "cruise", "weekend away", "city break",
         "honeymoon", "sightseeing", "tour", "tourist", "visit", "visiting", "book a", "booking", "sim card",
         "roaming", "adapter", "plug", "time difference", "time zone", "learn", "learning", "duolingo",
         # item 61 (gate9)
         "speaking", "pronunciation", "accent", "english", "grammar", "vocabulary", "fluency"),
        _words("passport", "citizen*", "nationality", "visa*", "residence permit", "green card", "work permit",
               "permanent resident*", "refugee", "asylum", "speaks", "fluent", "native", "mother tongue",
               "bilingual", "frequent flyer", "air miles", "travels", "travelling", "traveling",
               "afraid of flying", "fear of flying", "doesn't fly", "seasick*", "motion sick*", "time zone",
               "expat", "immigrant", "moved from", "grew up in", "originally from", "lives abroad",
               "sign language") + r"|\b(?:speaks?|speaking|learning|learns|fluent\s+in|studying|native|mother\s+tongue\s+is|"
        r"struggles?\s+with|spoken|written|improv\w+|weak|poor|basic|broken)\s+"  # item 61 (gate9): how well
        r"(?:\w+\s+){0,3}?(?:" + "|".join((*_LANGUAGES, "english")) + r")\b"
        # item 57 (gate8)
        + "|" + _words("pregnan*", "weeks pregnant") + r"|\b(?:going|flying|travelling|traveling|heading|off)\s+to\s+"
              r"(?-i:[A-Z])\w+\s+(?:for|in|on|next|this)\b"),
    # religion, holidays, fasting: the user's faith and what it asks of food, days and dress
    "faith": (
        ("christmas", "xmas", "easter", "ramadan", "eid", "iftar", "suhoor", "sehri", "diwali", "holi",
         "navratri", "hanukkah", "chanukah", "passover", "seder", "rosh hashanah", "yom kippur", "sukkot",
         "purim", "advent", "sabbath", "shabbat", "church", "mosque", "temple", "synagogue",
         "gurdwara", "pray", "prayer", "prayers", "fasting", "halal", "kosher", "holiday season",
         "thanksgiving", "new year", "lunar new year", "chinese new year", "vesak", "vaisakhi", "baisakhi",
         "christening", "baptism", "communion", "confirmation", "bar mitzvah", "bat mitzvah", "funeral",
         "feast", "celebrate", "celebrating", "celebration", "religious", "blessing", "pilgrimage",
         "hajj", "umrah", "wedding", "sunday lunch", "friday night dinner", "holy",
         # item 57 (gate8)
         "obon", "bon festival", "day of the dead", "dia de muertos", "all saints", "all souls", "nowruz",
         "songkran", "tet", "chuseok", "qingming", "mid autumn festival", "kwanzaa", "onam", "pongal", "durga puja",
         "ganesh chaturthi", "raksha bandhan", "karva chauth", "ashura", "mawlid", "ash wednesday", "good friday",
         "midsummer", "harvest festival", "name day", "memorial", "anniversary of", "grave", "graves"),
        _words("muslim", "islam*", "christian", "catholic", "protestant", "anglican", "baptist", "methodist",
               "evangelical", "pentecostal", "orthodox", "jewish", "judaism", "hindu*", "sikh*", "buddhis*",
               "jain*", "mormon", "lds", "latter-day", "adventist", "quaker", "jehovah", "atheist", "agnostic",
               "religious", "devout", "church", "churchgoer", "mosque", "temple", "synagogue", "gurdwara",
               "prays", "fasts", "fasting", "ramadan", "sabbath", "shabbat", "halal",
               "kosher", "hijab", "turban", "doesn't celebrate", "does not celebrate", "faith", "parish",
               "congregation", "pastor", "priest", "imam", "rabbi") + r"|\b(?-i:Lent)\b"
        # item 61 (gate9)
        + "|" + _words("christmas", "easter", "holy week", "semana santa", "eid", "diwali", "divali", "navratri",
                       "hanukkah", "chanukah", "passover", "rosh hashanah", "yom kippur", "vesak", "lunar new year",
                       "chinese new year", "obon", "procession*", "brotherhood", "pilgrim*")),
    # hobbies, instruments, crafts: what the user makes, plays and practises in their own time
    "hobbies": (
        ("hobby", "hobbies", "free time", "spare time", "pastime", "something to do", "bored", "this weekend",
         "at the weekend", "on the weekend", "weekend plans",
         "class", "classes", "course", "lesson", "lessons", "practice", "practise", "practicing",
         "practising", "instrument", "sing", "singing", "choir", "band", "gig", "recital", "concert",
         "knit", "knitting", "crochet", "sew", "sewing", "quilt", "quilting", "embroidery", "cross stitch",
         "paint", "painting", "draw", "drawing", "sketch", "sketching", "watercolour", "watercolor", "pottery",
         "ceramics", "woodwork", "woodworking", "photography", "photo", "photos", "birdwatching",
         "bird watching", "fishing", "gaming", "video game", "video games", "board game", "board games",
         "chess", "puzzle", "puzzles", "jigsaw", "books", "novel", "reading", "book club",
         "writing", "poetry", "blog", "collect", "collecting", "collection", "craft", "crafts", "crafting",
         "yarn", "fabric", "pattern", "dance", "dancing", "volunteer", "volunteering", "club", "gift",
         "present", "treat myself", *_INSTRUMENTS,
         # item 57 (gate8)
         "afternoon off", "evening off", "morning off", "day off", "days off", "weekend off", "week off",
         "free afternoon", "free evening", "free day", "brew", "brewing", "homebrew", "home brew", "go hunting",
         "going hunting", "hunting season", "fishing trip"),
        r"\bplays\s+(?:the\s+)?(?:\w+\s+)?(?:" + "|".join(re.escape(i) for i in _INSTRUMENTS) + r")\b|" + _words(
            *_INSTRUMENTS, "sings", "singer", "choir", "band", "orchestra", "knits", "knitting", "knitter",
            "crochet*", "sews", "sewing", "quilt*", "embroider*", "cross-stitch", "paints", "painting", "painter",
            "draws", "drawing", "sketch*", "watercolo*", "pottery", "ceramics", "woodwork*", "carpentry",
            "photograph*", "birdwatch*", "birder", "fishing", "angler", "angling", "gamer", "gaming",
            "board games", "chess", "jigsaw*", "reads", "reader", "book club", "writes", "novel*", "poet*",
            "blog*", "collects", "collector", "hobby", "hobbies", "volunteer*", "dances", "dancing", "dancer",
            "salsa", "ballet", "tango", "learning to", "allotment", "gardening",
            "baking", "bakes", "crafts", "crafting", "diy", "lego", "cosplay", "astronomy", "telescope",
            "hiking", "camping", "climbing", "surfing", "sailing", "kayak*", "canoe*")
        # item 57 (gate8)
        + "|" + _words("brew", "brewing", "homebrew*", "home brew*", "hunts", "hunting", "hunter", "fishes",
                      "goes fishing", "fisherman")),
    # accessibility and disability: what a body or mind needs of a place, a trip, a device, an outing
    "access": (
        ("accessible", "accessibility", "wheelchair", "step free", "ramp", "lift", "elevator", "stairs",
         "steps", "disabled", "disability", "blue badge", "parking permit", "hearing loop", "captions",
         "subtitles", "audio description", "screen reader", "large print", "braille", "sign language",
         "walk far", "walking distance", "how far", "seating", "sensory", "noisy", "loud",
         "restaurant", "museum", "concert", "gig", "theatre", "theater", "cinema", "festival", "venue",
         "hotel", "tour", "day out", "trip", "outing", "visit", "park", "zoo", "beach", "party", "event",
         "tickets", "stadium", "city break", "sightseeing", "holiday", "walk", "walking", "hike", "cruise",
         "airport", "flight", "train",
         # item 57 (gate8)
         "temple", "shrine", "church", "mosque", "market", "mall", "shopping centre", "gallery", "botanical garden",
         "bachelor party", "stag do", "hen do", "bachelorette", "night out"),
        _words("wheelchair", "mobility scooter", "walking stick", "cane", "zimmer", "crutches",
               "rollator", "prosthe*", "amputee", "amputat*", "paralys*", "paraplegi*", "spinal", "deaf",
               "hard of hearing", "hearing aid*", "hearing loss", "cochlear", "blind", "partially sighted",
               "low vision", "visually impaired", "guide dog", "assistance dog", "autis*", "adhd", "dyslexi*",
               "dyspraxi*", "learning disabilit*", "chronic fatigue", "me/cfs", "long covid", "multiple sclerosis",
               "parkinson*", "arthritis", "fibromyalgia", "epilep*", "disab*", "blue badge", "anxiety",
               "panic attacks", "claustrophob*", "agoraphob*", "ptsd", "sensory", "noise sensitiv*",
               "can't walk far", "cannot walk far", "can't stand for long", "can't manage stairs", "stairs",
               "bad knee*", "bad hip*", "hip replacement", "knee replacement", "tires easily", "incontinen*",
               "stoma", "oxygen", "dialysis", "dementia", "memory loss")),
    # climate and where one lives: the place, its weather and seasons, its distance from things
    "place": (
        ("weather", "rain", "rainy", "snow", "snowy", "cold", "hot", "heat", "heatwave", "humid", "humidity",
         "winter", "summer", "spring", "autumn", "season", "wear", "clothes", "coat", "jacket",
         "outfit", "what to wear", "layers", "heating", "air con", "air conditioning", "aircon",
         "sunscreen", "sun cream", "umbrella", "storm", "typhoon", "hurricane", "monsoon", "flood", "frost",
         "local", "locally", "nearby", "near me", "in my area", "around here", "my city", "my town",
         "neighbourhood", "neighborhood", "time zone", "day trip", "things to do", "what to do",
         "outdoors", "outside", "plant now", "this time of year", "sunset", "sunrise",
         # item 57 (gate8)
         "temperature", "freezing", "below zero", "cold snap", "cold weather", "hot weather", "heat wave", "sunny",
         "windy", "outdoor", "outdoors", "out all day"),
        r"\b(?:lives?|living|based|settled|stays?|staying|moved|moving|relocat\w*)\s+(?:\w+\s+)?(?:in|on|near|by|"
        r"outside|to|at)\b|" + _words(
            "hometown", "home town", "climate", "tropical", "humid", "desert", "mountain*", "coast*", "seaside",
            "by the sea", "island", "rural", "countryside", "village", "suburb*", "city centre", "downtown",
            "northern", "southern", "hemisphere", "altitude", "high altitude", "winters", "summers",
            "rainy season", "dry season", "monsoon", "hurricane*", "typhoon*", "snowy", "cold climate",
            "hot climate", "the cold", "feels the cold", "hates the cold", "hates the heat",
            "neighbourhood", "neighborhood")
        # item 57 (gate8)
        + "|" + _words("cold weather", "hot weather", "the heat", "heat makes", "cold makes", "raynaud*",
                    "bee sting*", "wasp*", "insect sting*", "insect bite*", "hay fever", "pollen", "sunburn*",
                    "burns easily", "heatstroke", "heat stroke", "avoid getting cold", "getting cold")),
    # relationships and family members: who the user lives with and cares for, their ages, tastes and needs
    "family": (
        # (a relative the question names, "my mum", is kin.py's: the few facts about them by the name they are given)
        ("family", "relatives", "anniversary", "date night", "valentine",
         "valentine's", "relationship", "visit my", "visiting my", "dinner with", "the two of us", "us two",
         "together", "couple", "reunion", "family gathering", "mother's day", "father's day", "host",
         "hosting", "guests", "coming over", "staying with us"),
        _words("wife", "husband", "partner", "boyfriend", "girlfriend", "spouse", "fiancé*", "fiance*",
               "married", "divorced", "separated", "widow*", "engaged", "dating", "mum", "mom",
               "mother", "dad", "father", "parents", "brother", "sister", "sibling*", "grandma", "grandmother",
               "granny", "grandpa", "grandfather", "grandparents", "in-law*", "aunt", "uncle", "cousin", "niece",
               "nephew", "best friend", "lives with", "anniversary", "stepmum", "stepmom", "stepdad",
               "stepfather", "stepmother", "carer for", "cares for", "looks after")),
    # food and diet (what the existing tables cover most): what the user eats, cannot eat and cooks with
    "food": (
        ("eat", "eating", "food", "meal", "meals", "breakfast", "lunch", "dinner", "supper", "snack", "snacks",
         "cook", "cooking", "recipe", "recipes", "bake", "baking", "restaurant", "takeaway", "takeout",
         "menu", "dish", "dishes", "cuisine", "dessert", "groceries", "grocery",
         "shopping list", "meal prep", "diet", "healthy", "protein", "calories", "picnic", "barbecue", "bbq",
         "potluck", "party food", "brunch",  # drinks removed after reading dev: concerns.py's alcohol and caffeine
         # item 57 (gate8)
         "cake", "cakes", "cupcakes", "smoothie", "smoothies", "sweets", "chocolate", "buffet", "street food",
         "bring to the party",
         # item 61 (gate9)
         "iftar", "suhoor", "sehri", "sahur"),
        _words("allerg*", "intoleran*", "vegan*", "vegetarian*", "pescatarian*", "halal", "kosher",
               "gluten", "coeliac", "celiac", "lactose", "dairy-free", "diabet*", "low-carb", "low carb", "keto",
               "paleo", "diet", "dieting", "calorie*", "doesn't eat", "does not eat", "won't eat", "can't eat",
               "cannot eat", "favourite food", "favorite food",
               "favourite cuisine", "favorite cuisine", "doesn't drink", "teetotal", "sober", "spicy",
               "sweet tooth", "no oven", "air fryer", "slow cooker", "instant pot", "cooks", "cooking")
        # item 57 (gate8)
        + "|" + _words("sugar", "cutting down on", "cutting back on", "salt", "low-salt", "purine*", "fodmap", "gout",
                   "a1c", "prediabet*", "blood sugar")),
    # health and medication (what the existing tables cover most): the conditions and medicines a clinician weighs
    "health": (
        ("doctor", "gp", "nurse", "pharmacist", "pharmacy", "hospital", "clinic", "appointment", "medicine",
         "medication", "pill", "pills", "painkiller", "painkillers", "supplement",
         "supplements", "vitamin", "vitamins", "symptom", "symptoms", "headache", "migraine", "cold", "flu",
         "cough", "fever", "rash", "pain", "ache", "sick", "ill", "unwell", "tired", "dizzy", "vaccine",
         "jab", "flu jab", "booster", "check up", "checkup", "blood test", "dentist", "prescription",
         "side effects", "over the counter", "remedy", "sleep", "stress", "anxious", "anxiety", "mental health",
         # item 57 (gate8)
         "needle", "needles", "injection", "injections", "scan", "give blood", "donate blood", "blood donation",
         "feeling low", "feel low", "low mood", "depressed", "chest pain", "joint pain", "swollen", "swelling",
         "flare up", "flare",
         # item 61 (gate9)
         "pedicure", "manicure", "massage", "sauna", "steam room", "hot tub", "jacuzzi", "tattoo", "piercing",
         "spa", "spa day", "waxing", "hair dye", "facial"),
        _words("medication*", "medicine*", "prescri*", "tablet*", "inhaler*", "insulin",
               "diabet*", "asthma*", "epilep*", "blood pressure", "hypertension", "heart condition",
               "thyroid", "cholesterol", "statin*", "warfarin", "blood thinner*", "anticoagulant*", "allerg*",
               "pregnan*", "breastfeed*", "kidney*", "liver", "migraine*", "depression", "anxiety", "bipolar",
               "adhd", "antidepressant*", "ssri*", "chemo*", "cancer", "surgery", "condition", "chronic",
               "immunocompromised", "transplant")
        # item 57 (gate8)
        + "|" + _words(*_CHRONIC, *_SPECIALISTS, "hospital", "scan", "trying to quit", "quit smoking",
                     "quitting", "nicotine", "vape*", "vaping",
                     # item 61 (gate9)
                     "heart trouble", "heart problem*", "heart disease", "heart attack") + "|" + _DAILY_MEDICINE),
    # studies (an adult's, or a child's exams): the user's course, its calendar and its load
    "studies": (
        ("study", "studying", "exam", "exams", "revision", "revise", "university", "uni", "college", "degree",
         "course", "coursework", "thesis", "dissertation", "essay", "assignment", "assignments", "lecture",
         "lectures", "semester", "term", "homework", "grades", "gpa", "student", "scholarship", "tuition",
         "library", "study group", "deadline", "deadlines", "finals", "midterms", "placement", "internship"),
        _words("student", "studies", "studying", "university", "college", "uni", "degree", "bachelor*",
               "master's", "masters", "phd", "doctorate", "thesis", "dissertation", "course", "exams", "finals",
               "semester", "dyslexi*", "adhd", "scholarship", "student loan*", "part-time job",
               "night school", "evening class*", "online course", "apprentice*", "a-levels", "gcse*",
               "year 12", "year 13", "sixth form", "high school", "final year", "first year", "second year")),
}
"""The everyday domains: what people in each ask (the question words, read like :mod:`.concerns`'s: a word or a
phrase, with its plural; a trailing ``*`` any ending) and what about a person constrains the answer (the fact
words, one regular expression). Written from general knowledge before any app set was read (item 52)."""

MOST_OPENED = 2
"""An opened domain lets through at most this many facts, the best ranked of those holding its fact words: a
domain many facts hold (work, family) says which of them matter only through the ranking."""
MOST_IN_ALL = 3
"""All the opened domains together let through at most this many facts (the best ranked): the others of the
``limit`` best stay the ranking's."""

_FACT_RE = {name: re.compile(pattern, re.IGNORECASE) for name, (_, pattern) in DOMAINS.items()}
_QUESTION_WORDS = PhraseTable.of({domain: items for domain, (items, _) in DOMAINS.items()})


# a dental visit: its "cleaning" is the teeth's, not the home's (found by README's "Do I need to tell the dentist
# anything before my cleaning?", which let the house deposit through)
_DENTAL = re.compile(r"\b(?:dentist\w*|dental|teeth|tooth|hygienist|orthodontist\w*)\b", re.IGNORECASE)


# a question about another place than the asker's own: "there", "in Paris", "to Lisbon" (session 37: "What should I
# pack for a weekend in Paris?" had opened the asker's home and hobbies; a weekend opens free time only as "this
# weekend", "at the weekend", and no longer the place one lives)
_ELSEWHERE = re.compile(r"(?<!\bis\s)(?<!\bare\s)\bthere\b(?!\s+(?:is|are|was|were)\b|'s\b)|"
                        r"\b(?:in|to|at|around|visiting)\s+(?-i:[A-Z])\w+", re.IGNORECASE)


# "deal with a difficult colleague", "dealing with stress": coping, not money's bargain ("a good deal")
_COPING = frozenset({"deal", "deals", "dealing"})
# words an adult's own studies share with a child's schooling: "Can you help me with my homework?" is the asker's;
# they open children only beside a child or another's ("his homework", "the kids' exams") (rev37c)
_OWN_STUDIES_TOO = frozenset({"homework", "homeworks", "term", "terms", "tutor", "tutors", "tutoring"})
_A_CHILD = re.compile(r"\b(?:kids?|child(?:ren)?|sons?|daughters?|bab(?:y|ies)|toddlers?|teens?|teenagers?|boys?|girls?|"
                      r"grand(?:kids?|children|child|sons?|daughters?)|twins|he|she|they|his|her|their|them)\b",
                      re.IGNORECASE)
# health's words of well-being, not of treatment: how one sleeps or copes asks nothing an allergy bears on
_WELLBEING = frozenset({"sleep", "sleeps", "stress", "stresses", "anxious", "anxiety", "anxieties", "mental health",
                        "tired"})
# a temperature told in numbers (item 57): by its unit ("30\u00b0C", "90 degrees Fahrenheit"), or a number of
# degrees or below zero with a weather or time word near it ("35 degrees all week", "-25 this weekend"); not "a 360
# degree review", "I have 2 degrees", "my score dropped -30 points"
_TEMPERATURE = re.compile(r"\b\d+\s*(?:\u00b0|\u00ba|degrees?\s+(?:c|f|celsius|fahrenheit|centigrade)\b)", re.IGNORECASE)
_MAYBE_TEMPERATURE = re.compile(
    r"(?:^|(?<=\s))(?:-|minus\s+)\d+\b(?!\s*(?:%|percent|points?|pts|pounds?|lbs?|kgs?|kilos?|dollars?|euros?|quid|"
    r"bucks|marks?|votes?|places?|spots?)\b)|\b\d+\s+degrees\b", re.IGNORECASE)
_WEATHER_OR_TIME = re.compile(
    r"\b(?:weather|forecast|outside|hot|cold|warm|heat|freezing|frost\w*|snow\w*|rain\w*|sun\w*|wind\w*|chill\w*|"
    r"ice|icy|storm\w*|today|tonight|tomorrow|weekend|week|morning|night|overnight|days?)\b", re.IGNORECASE)
_DEGREE = frozenset({"degree", "degrees"})
# "degree" as a measure: of heat (an oven, a fever, the weather) or of an angle, or asked as an amount ("how many
# degrees"); "a degree in nursing", "my degree" stay a course
_A_MEASURE = re.compile(
    r"\bhow\s+many\s+degrees\b|\d\s*(?:\u00b0|degrees?\b)|\bdegrees?\s+(?:c|f|celsius|fahrenheit|centigrade|"
    r"hotter|colder|warmer|cooler|higher|lower|angle|turn|bend|tilt)\b|\b(?:temperature|temp|oven|thermostat|fever|"
    r"thermometer|bake|baking|roast|roasting|fry|frying|grill|grilling|celsius|fahrenheit|angle|slope|incline|"
    r"rotate|weather|outside|heat|hot|cold|warm)\b", re.IGNORECASE)
NEAR_TEMPERATURE = 24
"""How many characters either side of a number of degrees or below zero a weather or time word may stand."""
# "degree" as a course: "a degree in baking", "my degree", "a part-time degree" (rev39b finding 8)
_A_COURSE = re.compile(r"\b(?:a|an|my|your|our|his|her|their|this|that|part-time|online|first|second|master's|"
                       r"bachelor's)\s+degrees?\b|\bdegrees?\s+(?:in|at|from|course|courses|programme|program)\b",
                       re.IGNORECASE)
_DEGREE_WORD = re.compile(r"\bdegrees?\b", re.IGNORECASE)


def _degree_is_a_measure(text: str) -> bool:
    """Whether "degree(s)" in ``text`` is of heat or an angle: a measure word within :data:`NEAR_TEMPERATURE`
    characters of it, and no course shape ("a degree", "degree in") anywhere."""
    if _A_COURSE.search(text):
        return False
    return any(_A_MEASURE.search(text[max(0, m.start() - NEAR_TEMPERATURE) : m.end() + NEAR_TEMPERATURE])
               for m in _DEGREE_WORD.finditer(text))


def _temperature(text: str) -> str | None:
    """The temperature a question tells in numbers, or ``None``."""
    if (m := _TEMPERATURE.search(text)) is not None:
        return m.group(0)
    for m in _MAYBE_TEMPERATURE.finditer(text):
        if _WEATHER_OR_TIME.search(text, max(0, m.start() - NEAR_TEMPERATURE), m.end() + NEAR_TEMPERATURE):
            return m.group(0)
    return None


@functools.lru_cache(maxsize=4096)
def _opened(text: str) -> dict[str, frozenset[str]]:
    """The everyday domains a question's words open, each with the words and phrases that opened it (one pass over
    its words, word pairs and longer phrases, then the word prefixes)."""
    folded = fold(text)
    tokens = [t.removesuffix("'s") for t in TOKEN.findall(folded)]
    if _DENTAL.search(text):
        tokens = [t for t in tokens if not t.startswith("clean")]  # a dentist's cleaning is no housework
    tokens = [t for i, t in enumerate(tokens)
              if not (t in _COPING and i + 1 < len(tokens) and tokens[i + 1] == "with")]
    found = _QUESTION_WORDS.opened_by(tokens, folded)
    if (temperature := _temperature(text)) is not None:
        # "It's going to be -25 this weekend": the weather where the asker is (item 57)
        found.setdefault("place", set()).add(temperature.strip().lower())
    if "food" in found and NOT_FOOD.search(text.lower()):
        del found["food"]  # "What should I wear to the dinner?": not a question about what to eat
    if "place" in found and _ELSEWHERE.search(text):
        del found["place"]  # "What local food should I try there?", "...a weekend in Paris": not where one lives
    if "children" in found and found["children"] <= _OWN_STUDIES_TOO and not _A_CHILD.search(text):
        del found["children"]  # "Can you help me with my homework?": the asker's own
    if "studies" in found and found["studies"] <= _DEGREE and _degree_is_a_measure(text):
        del found["studies"]  # "How many degrees should I bake bread at?": heat or an angle, not a course
    return {d: frozenset(keys) for d, keys in found.items()}


def question_domains(text: str) -> frozenset[str]:
    """The everyday domains a question's words open (one pass over its words, word pairs and longer phrases).

    >>> sorted(question_domains("How often should I water my orchids?"))
    ['home']
    >>> "place" in question_domains("Are there things to do nearby?"), "place" in question_domains("Any local food there?")
    (True, False)
    >>> "money" in question_domains("How do I deal with a rude colleague?"), "children" in question_domains("Help me with my homework?")
    (False, False)
    """
    return frozenset(_opened(text))


def asks_about_treatment(text: str) -> bool:
    """Whether a question opens the health domain by a word of treatment or illness (a medicine, a clinician, a
    symptom), not only by one of well-being ("How can I sleep better?", "How do I handle stress?"): an allergy
    bears on the first, not on the second.

    >>> asks_about_treatment("What can I take for a headache?"), asks_about_treatment("How can I sleep better?")
    (True, False)
    """
    return not _opened(text).get("health", frozenset()) <= _WELLBEING


# a request for things of a kind to be listed or recommended: "Can you recommend some hotels in Miami?", "What are
# some good cars for city driving?" (added after reading PrefEval dev's abstentions, item 52), or for what something
# means ("my phone keeps saying storage almost full, what does that mean?")
_SUGGESTIONS = re.compile(r"\b(?:rec+om+end\w*|suggest\w*|what\s+are\s+(?:some|the\s+best|a\s+few)|"
                          # what a message or a word means (added after reading blind10's off-topic turns)
                          r"what\s+(?:does|do|did)\s+(?:that|this|it|\w+(?:\s+\w+)?)\s+mean|"
                          r"(?:name|list)\s+(?:some|a\s+few))\b", re.IGNORECASE)


def asks_for_suggestions(question: str) -> bool:
    """Whether the question asks for things of a kind to be recommended or listed ("Can you recommend a hotel in
    Miami?", "What are some cars for city driving?"): answered from the world, with the preferences the user told
    about that kind (the cosine's and the concerns' work), not from the asker's situation in a domain; the
    everyday vocabulary does not open on it.

    >>> asks_for_suggestions("What are some good cars for the city?"), asks_for_suggestions("Should I sell my car?")
    (True, False)
    """
    return _SUGGESTIONS.search(question) is not None


@functools.lru_cache(maxsize=8192)
def fact_domains(text: str) -> frozenset[str]:
    """The everyday domains in which a stored fact constrains an answer.

    >>> sorted(fact_domains("User has a north-facing balcony."))
    ['home']
    >>> "food" in fact_domains("User is allergic to cats."), "food" in fact_domains("User is allergic to peanuts.")
    (False, True)
    """
    found = {name for name, rx in _FACT_RE.items() if rx.search(text)}
    if "food" in found and not _FACT_RE["food"].search(NOT_EATEN_ALLERGY.sub(" ", text)):
        found.discard("food")  # "User is allergic to cats.": an allergy, but not to anything eaten
    return frozenset(found)


# an allergy named as such ("allergic to cats", "a penicillin allergy"): health's only on a question of treatment
_ALLERGY = re.compile(r"\ballerg\w*(?:\s+to\s+(?:\w+\s+){0,2}?\w+)?", re.IGNORECASE)
_WEEKEND = re.compile(r"\bweekends?\b", re.IGNORECASE)
# a working week's routine: the way to work, the school run, office hours, the days Monday to Friday
_WEEKDAY_ROUTINE = re.compile(r"\bcommut\w*|\bschool\s+run\b|\bweekdays?\b|\b(?:9|nine)\s+to\s+(?:5|five)\b|"
                              rf"\b(?:starts|finishes)\s+(?:work|at)\b|\b(?:{WORKDAY_STEMS})days?\b",
                              re.IGNORECASE)
# words spoken to the user (an assistant's turn in a chat history stored turn by turn): no one's situation
_ADDRESSED = re.compile(r"\byou(?:r|rs|rself|'re|'ve|'ll|'d)?\b", re.IGNORECASE)
_ABOUT_THE_USER = re.compile(r"^\W*User\b")


def constrains(domain: str, fact: str, question: str) -> bool:
    """Whether ``fact``, holding ``domain``'s fact words, constrains an answer to ``question`` in that domain: an
    allergy bears on health only when the question asks about treatment ("How can I sleep better?" is no question
    for "User is allergic to cats."), a working week's routine (a commute, the school run) not on a weekend's, and
    words spoken to the user (an assistant's turn) on none (docs/ranking.md item 58).

    >>> constrains("health", "User is allergic to cats.", "How can I sleep better?")
    False
    >>> constrains("health", "User is allergic to penicillin.", "What can I take for a headache?")
    True
    >>> constrains("routine", "User cycles to work; the commute is 40 minutes.", "What should we do this weekend?")
    False
    """
    if _ADDRESSED.search(fact) and not _ABOUT_THE_USER.match(fact):
        return False
    if domain == "health" and not asks_about_treatment(question):
        return _FACT_RE["health"].search(_ALLERGY.sub(" ", fact)) is not None
    if domain == "routine" and _WEEKEND.search(question):
        return _FACT_RE["routine"].search(_WEEKDAY_ROUTINE.sub(" ", fact)) is not None
    return True


def everyday_rows(question: str, facts: Sequence[str], rank: np.ndarray,
                  whose: Callable[[str], bool] = lambda fact: True,
                  taken: np.ndarray | None = None,
                  within: np.ndarray | None = None) -> tuple[np.ndarray, list[str]]:
    """The facts the everyday domains the question opens let through (bool array over ``facts``): for each opened
    domain the :data:`MOST_OPENED` best ranked (``rank``: the facts' rank scores) of the facts holding its fact
    words for which ``whose`` holds (the one the fact is about is the asker, or named), at most :data:`MOST_IN_ALL`
    in all, and the domains that let one through; a fact ``taken`` marks (opened by another rule already) is
    left to that rule, and only a fact ``within`` marks (the ``limit`` best the ranking holds) may be let through.
    Without a domain in the question no fact is read.

    >>> rows, held = everyday_rows("Can I repot my orchids now?", ["User lives in Leeds.",
    ...     "User grows orchids on a north-facing windowsill."], np.array([0.5, 0.1]))
    >>> rows.tolist(), held
    ([False, True], ['home'])
    """
    rows = np.zeros(len(facts), dtype=bool)
    asked = question_domains(question)
    if not asked:
        return rows, []
    holding: dict[str, list[int]] = {d: [] for d in asked}
    readable = np.ones(len(facts), dtype=bool)
    if taken is not None:
        readable &= ~np.asarray(taken, dtype=bool)
    if within is not None:
        readable &= np.asarray(within, dtype=bool)
    for i in np.flatnonzero(readable).tolist():  # the few facts within the limit, not the whole pool
        if tells_a_dated_plan(facts[i]):
            continue  # a trip on a day bears on a question while it is ahead: the upcoming rule reads when
        for d in fact_domains(facts[i]) & asked:
            if constrains(d, facts[i], question):
                holding[d].append(i)
    chosen: dict[int, list[str]] = {}
    for d in sorted(holding):
        for i in [i for i in sorted(holding[d], key=lambda i: (-rank[i], i)) if whose(facts[i])][:MOST_OPENED]:
            chosen.setdefault(i, []).append(d)
    best = sorted(chosen, key=lambda i: (-rank[i], i))[:MOST_IN_ALL]
    rows[best] = True
    return rows, sorted({d for i in best for d in chosen[i]})
