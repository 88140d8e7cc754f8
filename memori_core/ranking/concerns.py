"""The concerns: what a stored fact constrains and what a question's words touch, as tables of common knowledge.

"Can I have a beer at the pub on Friday?" never says gluten, "Is pad thai safe for me?" never says peanuts,
and MiniLM scores them at 0.1-0.2 against "User has coeliac disease." and "User is allergic to peanuts.": the
cosine cannot know that beer is brewed from barley or that pad thai is made with peanuts. A person answering
would know. This module holds that knowledge over the same **concerns** (gluten, peanuts, alcohol, pregnancy,
blood thinners, a wheelchair, a rented home, a team the user supports...):

- :data:`FACT_CONCERNS`: what a care fact (:func:`~.care.is_care_fact`: an allergy, a medication, a
  condition, a dietary restriction) constrains: "User has coeliac disease." -> gluten, and any meal;
  :data:`LIMIT_CONCERNS`: what any fact says the user cannot or will not do: "User gets seasick." -> motion;
  :data:`SITUATION_CONCERNS`: what any fact says about a situation or an interest that shapes plans: "User's
  daughter Mia is 6." -> children, "User lives on a pension." -> money, "User drives a Nissan Leaf." -> vehicle;
- :data:`QUESTION_CONCERNS`: everyday words that touch a concern: beer, bread, pizza -> gluten; sushi,
  brie, a litter box -> pregnancy; kale, ibuprofen, the dentist -> blood thinners; a ferry -> motion.

:func:`fact_concerns` and :func:`question_concerns` read a text against them; :mod:`.implications` decides
when a question's concerns open a fact for the gate. The words are common knowledge about food, drink,
medicine, travel, homes and pastimes, written from general knowledge, though some were added after reading the
app sets' misses (docs/ranking.md says which); they are a floor, not a complete list: an unknown dish falls
back on the cosine.
"""

from __future__ import annotations

import functools
import re

from ..calendar_words import ANY_MONTH, MONTH_NAMES, WEEKDAY_STEMS
from .care import CARRIED_MEDICINE, NOT_FOOD, SULFONYLUREAS, is_care_fact, negated_at
from .word_tables import TOKEN, PhraseTable, alternation as _any, fold

__all__ = ["ADDED_CONCERNS", "cares_only_off_the_plate", "FACT_CONCERNS", "LIMIT_CONCERNS", "NOT_EATEN_ALLERGY", "QUESTION_CONCERNS", "SITUATION_CONCERNS",
           "fact_concerns", "question_concerns"]


# an allergy to something not eaten: a medicine, a sting, an animal, what touches the skin or is breathed in
_NOT_EATEN = (
    r"(?:penicillin|amoxicillin|antibiotics?|latex|aspirin|ibuprofen|nsaids?|codeine|"
    r"morphine|opioids?|sulf\w+|sulph\w+|co-\w+|metamizol\w*|dipyrone|contrast|iodine|anaesthetic|anesthetic|bees?|wasps?|"
    r"stings?|insect\w*|cats?|dogs?|horses?|pets?|animals?|pollen|grass|hay|dust|mites?|mould|mold|nickel|plasters?|"
    r"adhesive|perfumes?|fragrances?|hair\s+dye|feathers?|sun|cold|medicines?|medications?|drugs?|painkillers?|"
    r"acrylates?|acrylics?|methacrylates?|gel\s+polish|nail\s+\w+|chemicals?|cosmetics?|make-?up|detergents?)")
_NOT_EATEN_ALLERGY = r"|\ballergic\s+to\s+(?!(?:\w+\s+){0,2}?" + _NOT_EATEN + r"\b)"
NOT_EATEN_ALLERGY = re.compile(r"\ballergic\s+to\s+(?:\w+\s+){0,2}?" + _NOT_EATEN + r"\b", re.IGNORECASE)
"""An allergy to something not eaten ("allergic to cats", "allergic to penicillin"): no fact about food."""


def cares_only_off_the_plate(fact: str) -> bool:
    """Whether a care fact (:func:`~.care.is_care_fact`) is one only by an allergy to something not eaten ("User is
    allergic to cats.", "User is allergic to penicillin."): a fact for a question about health, not about food.

    >>> cares_only_off_the_plate("User is allergic to cats."), cares_only_off_the_plate("User is allergic to peanuts.")
    (True, False)
    """
    return NOT_EATEN_ALLERGY.search(fact) is not None and not is_care_fact(NOT_EATEN_ALLERGY.sub(" ", fact))
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
                    "hypertension", "gout", "diabet*", "insulin", "metformin", *SULFONYLUREAS, "ulcer",
                    "epilep*", "seizure*", "lamotrigine", "levetiracetam", "liver disease", "cirrhosis", "pancreatitis",
                    "hepatitis", "fatty liver"),
    "pregnancy": _any("pregnan*", "prenatal", "expecting a baby", "breastfeed*", "breast feed*"),
    "sugar": _any("diabet*", "low carb", "keto*", "sugar*", "carb", "insulin", "metformin", "prediabet*", "gout",
                  *SULFONYLUREAS),
    "salt": _any("salt", "sodium", "blood pressure", "hypertension"),
    "blood thinner": _any("warfarin", "blood thinner", "anticoagulant", "apixaban", "rivaroxaban",
                          "dabigatran", "edoxaban", "heparin", "clopidogrel", "coumadin", "eliquis", "xarelto"),
    "latex": _any("latex"),
    "meal": _any("diet", "food", "foods", "eat*", "consum*", "dish", "meal", "appetite") + _NOT_EATEN_ALLERGY,
    "caffeine": _any("caffeine", "decaf*", "methylphenidate", "ritalin", "concerta", "medikinet", "adderall",
                     "amphetamine*", "dexamfetamine", "lisdexamfetamine", "vyvanse", "elvanse", "stimulant*"),
    "diabetes": _any("diabet*", "prediabet*", "insulin", "metformin", "blood sugar", *SULFONYLUREAS),
    "exertion": _any("asthma*", "inhaler", "puffer", "epilep*", "heart condition", "angina", "pacemaker", "pregnan*",
                     "sickle cell"),
    # the rest of the EU's fourteen food allergens, and the drug allergies a painkiller or a prescription meets
    "sesame": _any("sesame", "tahini"),
    "soy": _any("soy", "soya", "soybean"),
    "mustard": _any("mustard"),
    "celery": _any("celery", "celeriac"),
    "lupin": _any("lupin", "lupine"),
    "mollusc": _any("mollusc", "mollusk", "squid", "octopus", "mussel", "oyster", "clam", "scallop", "snail"),
    "sulphite": _any("sulphite", "sulfite", "sulphur dioxide", "sulfur dioxide"),
    "buckwheat": _any("buckwheat"),
    "legume": _any("chickpea", "garbanzo", "lentil", "legume", "pulse", "pea", "split pea"),
    "gut": _any("ibs", "irritable bowel", "fodmap", "crohn*", "colitis", "low fat", "fatty food", "gallbladder",
                "diverticul*", "gallstone*", "gall stone*"),
    "painkiller": _any("aspirin", "ibuprofen", "nsaid", "naproxen", "anti-inflammator*", "diclofenac", "codeine",
                       "opioid*", "tramadol", "morphine", "dipyrone", "metamizole",
                       # a liver that clears paracetamol and NSAIDs slowly
                       "hepatitis", "liver disease", "cirrhosis", "fatty liver"),
    "antibiotic": _any("penicillin", "amoxicillin", "antibiotic", "sulfa", "sulphonamide*", "sulfonamide*",
                       "cephalosporin*", "erythromycin"),
}
"""What a care fact constrains: a concern is the fact's when the pattern occurs in it. Veganism rules out
fish, eggs and dairy too; a diabetic or low-carb diet is about sugar and starch; alcohol is limited with high
blood pressure; gout is managed by limiting alcohol, sugary drinks and red meat; asthma, epilepsy, a heart
condition and pregnancy are what a coach asks about before exercise; alcohol lowers blood sugar, so diabetes
and its medicines (insulin, metformin, the sulfonylureas) meet a drink. Every food concern also makes the fact
one a **meal** question opens ("What should I cook tonight?"), and so does an allergy to a food no table names
("allergic to mango"; not one to a medicine, a sting, an animal or what touches the skin)."""

_SICKLE_CELL = r"sickle[\s-]cell\s+(?:disease|ana?emia)|hbss"  # the disease (the trait is in "exertion")
# a heart that was damaged or mended: the cold, heat and a long still journey strain it
_HEART = r"heart\s+attack|stents?|angina|heart\s+(?:condition|disease|surgery)|coronary|cardiac\s+rehab|bypass\s+surgery"
# stairs that are hard: "finds stairs hard", "struggles with the stairs"
_STAIRS_HARD = (r"\b(?:finds?|found)\s+(?:the\s+)?stairs\s+(?:hard|difficult|tough|tiring|a\s+struggle)|"
                r"\bstruggles?\s+(?:with|on)\s+(?:the\s+)?stairs|"
                r"\b(?:can't|cannot|can\s+no\s+longer)\s+(?:manage|climb|do)\s+(?:the\s+)?stairs")
# a body that keeps its heat badly (below a spinal injury, with some conditions): the cold and the heat
_NO_THERMOSTAT = (r"(?:doesn't|does\s+not|don't|do\s+not|can't|cannot)\s+regulate\s+(?:\w+\s+){0,2}?temperature|"
                  r"temperature\s+regulation")
# a medicine by its name, dose or form, and the set times it is taken at ("takes co-careldopa four times a day",
# "levetiracetam twice a day, at 8 in the morning", "5 mg of prednisolone every day", a cream twice a day)
_DOSED = (CARRIED_MEDICINE + r"|\b\d+\s*(?:mg|mcg|µg|ml|units)\b|\b(?:tablets?|pills?|capsules?|creams?|ointments?|"
          r"emollients?|drops|injections?|patch(?:es)?|co-\w+|catheteri[sz]\w*|\w+(?:dopa|tegravir|vir|olone|racetam))\b")
_TIMED = (r"\b(?:(?:once|twice|three\s+times|four\s+times|\d\s+times)\s+(?:a|per|each)\s+day|"
          r"(?:about\s+)?every\s+(?:morning|evening|night|day|(?:\d+|two|three|four|five|six|eight|twelve)\s+hours)|at\s+\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.|in\s+the\s+"
          r"(?:morning|evening)|at\s+night))")
LIMIT_CONCERNS: dict[str, str] = {
    # a drink the user gave up or must not have, care fact or not: "I stopped drinking alcohol because of the ulcer."
    "alcohol": r"\b(?:stopped|quit|gave\s+up|given\s+up|giving\s+up|cut\s+out|doesn't|does\s+not|don't|do\s+not|no\s+longer|"
               r"never|can't|cannot|mustn't|must\s+not|shouldn't|(?:isn't|is\s+not|not)\s+allowed\s+to)\s+(?:\w+\s+)?"
               r"(?:drink(?:s|ing)?|alcohol|booze)\b(?!\s+(?:coffee|tea|milk|water|juice|soda|cola|caffeine|enough|much\s+water))"
               r"|\boff\s+(?:the\s+)?(?:booze|alcohol|drink)\b|\bon\s+the\s+wagon\b"
               r"|\bdrinks?\s+no\s+(?:alcohol|booze)\b|\b(?:seventh[\s-]day\s+)?adventist\b"
               # "My doctor told me no alcohol at all", "forbids passengers in the truck and any alcohol in the cab"
               r"|\b(?:told|advised)\s+(?:me|him|her|them|us)\s+no\s+(?:alcohol|booze|drinking)\b"
               r"|\b(?:forbids?|bans?|prohibits?)\s+(?:[\w-]+\s+){0,6}?(?:any\s+)?(?:alcohol|booze|drinking)\b",
    # sweet food the user does not like: "I don't like very sweet food", "no sweet tooth"
    "sugar": r"\b(?:(?:don't|doesn't|do\s+not|does\s+not|never)\s+(?:like|eat|enjoy|care\s+for)|dislikes?|hates?|avoids?)\s+"
             r"(?:\w+\s+){0,2}?(?:sweet|sugary)\b(?!\s+(?:potato\w*|corn|peppers?|chill?i|and\s+sour|peas?)\b)|"
             r"\b(?:no|not\s+(?:a|much\s+of\s+a)|hasn't\s+got\s+a|doesn't\s+have\s+a)\s+sweet\s+tooth\b|"
             r"\b(?:eat|drink|have)\s+(?:fewer|less)\s+(?:\w+\s+){0,4}?(?:sugar\w*|sweets|carbs|tortillas|bread|rice|soda|fizzy)\b",
    # a fear of creatures met outdoors: a field visit, a safari, a hike
    "wildlife": r"\b(?:afraid|scared|terrified|fear|phobia)\s+of\s+(?:snakes?|spiders?|insects?|bugs?|bees?|wasps?|"
                r"mosquito\w*|rats?|mice|bats?|sharks?|jellyfish|crocodiles?|wild\s+animals)\b|"
                r"\b(?:ophidiophob|arachnophob|entomophob)\w*",
    # a long still journey: a heart condition, a clot
    "long journey": rf"\b(?:{_HEART}|dvt|deep\s+vein\s+thrombosis|blood\s+clots?|pulmonary\s+embol\w*|pressure\s+sores?|"
                    r"varicose\s+veins?|compression\s+(?:stockings|socks)|poor\s+circulation|"
                    # sitting long: "can't sit in a vehicle for more than three hours", "if I sit more than four hours"
                    r"(?:can't|cannot|can\s+not|unable\s+to)\s+sit\s+(?:\w+\s+){0,4}?for\s+(?:more\s+than|over|long)|"
                    r"sits?\s+(?:still\s+)?(?:for\s+)?(?:more\s+than|over|longer\s+than)\s+(?:\w+\s+){0,2}?hours|"
                    # "no longer drives after dark or more than about five hours a day"; "back pain from long hours on the bike"
                    r"drives?\s+(?:\w+\s+){0,5}?more\s+than\s+(?:about\s+)?\w+\s+hours|"
                    r"back\s+(?:pain|ache)\s+from\s+(?:long|many)\s+hours|sleep\s+apno?ea|narcolep\w*|"
                    r"(?:lower\s+)?back\s+(?:and\s+(?:\w+\s+){0,3}?)?hurts?)\b",
    "motion": _any("seasick*", "sea sick*", "motion sick*", "travel sick*", "car sick*", "carsick*", "airsick*"),
    "flying": r"\b(?:(?:afraid|scared|terrified|fear)\s+of\s+flying|hates?\s+flying|"
              r"(?:rather\s+than|never|won't|doesn't|don't|does\s+not|do\s+not)\s+fly\b|aviophobi\w*|"
              r"(?:hasn't|has\s+not|haven't|have\s+not)\s+flown|(?:dislikes?|avoids?)\s+flying|"
              r"(?:doesn't|don't|does\s+not|do\s+not)\s+like\s+flying|prefers?\s+to\s+drive)",
    "dogs": r"\b(?:afraid|scared|terrified|fear|phobia)\s+of\s+dogs\b|\bcynophobi\w*",
    # crowds that upset someone: "gets agitated in crowds", "can't cope with crowds" (a festival, an open-air mass)
    "crowds": r"\b(?:agitated|anxious|overwhelmed|panicky|panics|distressed|uncomfortable|upset|confused)\s+(?:\w+\s+){0,2}?"
              r"(?:in|by|around)\s+(?:big\s+|large\s+)?crowds|\bcrowds\s+(?:make|upset|overwhelm|scare|stress)|"
              r"\b(?:hates?|dislikes?|avoids?|can't\s+(?:stand|handle|cope\s+with)|cannot\s+(?:stand|handle|cope\s+with))\s+"
              r"(?:big\s+|large\s+)?crowds\b",
    # a rule of the user's work about who may come along: "carrier allows no passengers"
    "passengers": r"\b(?:allows?|permits?)\s+no\s+(?:passengers|riders|ride[\s-]?alongs?|guests|visitors)\b|"
                  r"\b(?:forbids?|bans?|prohibits?)\s+(?:any\s+)?(?:passengers|riders|hitchhikers)\b|"
                  r"\bno\s+(?:passengers|riders|ride[\s-]?alongs?)\s+(?:are\s+)?(?:allowed|permitted)\b|"
                  r"\b(?:passengers|riders)\s+(?:are\s+)?not\s+(?:allowed|permitted)\b",
    # skin the sun harms: lupus, a photosensitising medicine, "burns easily" (a beach day, a desert trip, a fun run)
    "sun": r"\b(?:lupus|photosensitiv\w*|sun\s+(?:sets\s+off|triggers|brings\s+on|makes)|(?:strong|direct)\s+sun(?:light)?\s+"
           r"(?:sets\s+off|triggers|brings\s+on)|sensitive\s+to\s+(?:the\s+)?sun(?:light)?|(?:sun)?burns\s+(?:very\s+)?easily|"
           r"avoids?\s+(?:the\s+|direct\s+)?sun(?:light)?|melanoma|isotretinoin|accutane|roaccutane)\b",
    # a medicine taken at set times: a flight across time zones, a long day out, a night away move the doses
    "dosing": rf"(?:{_DOSED})[^.;]{{0,80}}?{_TIMED}|{_TIMED}[^.;]{{0,40}}?(?:{_DOSED})",
    # a condition or treatment a clinician weighs, told without the words of a care fact
    "clinic": r"\b(?:parkinson'?s|hiv|lupus|pcos|polycystic\s+ovar\w*|multiple\s+sclerosis|prednisolone|steroids?|"
              r"antiretroviral\w*|\w+tegravir|tenofovir|immunosuppress\w*|transplant|dialysis|glaucoma|\w+olol|"
              r"tb|tuberculosis|isoniazid|rifamp\w+|rifapentine|course\s+of\s+\w+|"
              r"(?:eyes?|blood|bloods|kidneys?|liver|levels?)\s+(?:(?:are|is|get|gets)\s+)?(?:checked|tested|monitored)|regular\s+(?:blood\s+)?tests?|"
              # blood pressure that drops; no health insurance (where to go when ill)
              r"blood\s+pressure\s+(?:drops|falls|dips)|low\s+blood\s+pressure|"
              r"(?:health|medical)\s+insurance|insurance\s+(?:won't|doesn't|does\s+not)\s+cover)\b",
    # seizures or migraines that flashing light sets off: a laser show, a disco, strobes
    "flashing": r"\b(?:flashing\s+lights?|strob(?:e|es|ing)(?:\s+lights?)?|flickering\s+lights?|photosensitive\s+epilep\w*|"
                r"light[\s-]sensitive)\b",
    # hands that shake or will not grip: drilling, typing, small buttons, sewing
    "dexterity": r"\b(?:(?:hands?|fingers?)\s+(?:shakes?|shake|shaking|trembles?|tremble|are\s+stiff|is\s+stiff)|tremors?|"
                 r"fiddly|arthritis\s+in\s+(?:\w+\s+){0,2}(?:hands?|fingers?|wrists?|thumbs?)|carpal\s+tunnel|"
                 r"(?:weak|poor)\s+grip|(?:can't|cannot)\s+grip)\b",
    # a faith or a rule that leaves out pork or shellfish and drink: "User is a Seventh-day Adventist"
    "meat": r"\b(?:eats?\s+no\s+(?:pork|meat|beef|red\s+meat)|(?:seventh[\s-]day\s+)?adventist)\b",
    "shellfish": r"\b(?:seventh[\s-]day\s+)?adventist\b",
    "heights": r"\b(?:vertigo|acrophobi\w*|(?:afraid|scared|terrified|fear|phobia)\s+of\s+heights|avoids?\s+heights|"
               r"(?:aversion|averse)\s+to\s+heights|uncomfortable\s+(?:with|at|around)\s+heights|hates?\s+heights|"
               r"(?:do(?:es)?n't|do(?:es)?\s+not)\s+(?:like|do|cope\s+with)\s+heights)\b",
    "water": r"\b(?:can't|cannot|can\s+not|doesn't|does\s+not|don't|never\s+learned\s+to)\s+swim\b|"
             # a seizure in water: a bath or a swim alone
             r"\bepilep\w*|"
             r"\b(?:afraid|scared|terrified|fear|phobia)\s+of\s+(?:the\s+)?(?:water|swimming|the\s+sea|deep\s+water)\b|"
             r"\b(?:aversion|averse)\s+to\s+(?:\w+\s+){0,3}?water\b|"
             r"\b(?:dislikes?|hates?|avoids?)\s+(?:\w+\s+){0,2}?water\s+(?:activities|sports)\b",
    "exertion": _any("bad back", "bad lower back", "lower back pain", "back problem", "back pain", "sciatica",
                     "slipped disc", "herniated disc", "bulging disc", "prolapsed disc", "ruptured disc",
                     "disc prolapse", "degenerative disc", "spinal stenosis", "back injury", "injured back",
                     "neck injury", "arthritis", "arthritic", "bad knee", "knee replace*",
                     "hip replace*", "knee replaced", "hip replaced", "still recovering", "recovering from", "stitches",
                     "keyhole surgery", "no heavy lifting", "hernia", "osteoporosis",
                     "osteoarthritis")
                + rf"|\b(?:{_HEART})\b"
                + r"|\bnot\s+(?:to\s+)?lift\w*|\b(?:had|has\s+had)\s+(?:\w+\s+){0,3}(?:surgery|operation|removed)\b"
                r"|\b(?:can't|cannot|can\s+not|unable\s+to)\s+lift\b|\brotator\s+cuff\b|\bfrozen\s+shoulder\b"
                r"|\btorn\s+(?:\w+\s+)?(?:meniscus|ligament|acl|cartilage|tendon|muscle)\b"
                r"|\btore\s+(?:my|his|her|their|an?|the)\s+(?:\w+\s+)?(?:meniscus|ligament|acl|cartilage|tendon|achilles)\b"
                r"|\b(?:knees?|ankles?|hips?)\s+(?:still\s+|often\s+|always\s+)?(?:swells?|swell|gives?\s+way|locks?)\b"
                r"|\bwaiting\s+(?:for|on)\s+(?:\w+\s+){0,3}(?:surgery|operation)\b"
                r"|\b(?:shoulders?|knees?|hips?|back|wrists?|elbows?)\s+(?:have\s+|has\s+)?(?:started\s+to\s+)?(?:hurt|ache|aches)\b"
                r"|\bavoid\w*\s+(?:\w+\s+){0,3}?(?:ramps|hills|lifting)\b|\bheavy\s+lifting\b"
                # "an old injury in his right shoulder ...; lifting above his head hurts"
                r"|\binjury\s+(?:in|to)\s+(?:his|her|my|their|the)\s+(?:\w+\s+)?(?:shoulder|knee|back|wrist|hip|ankle|elbow|neck)\b"
                r"|\blifting\s+(?:\w+\s+){0,4}?(?:hurts|is\s+painful|is\s+sore)\b",
    "mobility": _any("wheelchair*", "spinal cord injury", "paraplegi*", "tetraplegi*", "quadriplegi*", "paralys*",
                     "paralyz*", "crutches", "mobility scooter", "walking stick", "walking frame", "limited mobility",
                     "pressure sore")
                + r"|\b(?:books?|requests?|needs?|arranges?)\s+(?:[\w'-]+\s+){0,4}?assistance\b|\b(?:passenger|special)\s+assistance\b",
    "hearing": _any("hearing loss", "hearing aid", "hard of hearing", "deaf*", "tinnitus", "cochlear implant"),
    "g6pd": _any("g6pd", "favism"),
    "spicy": r"\b(?:can't|cannot|can\s+not|don't|doesn't|do\s+not|does\s+not|never)\s+(?:like|eat|handle|take|tolerate|"
             r"stand|do|cope\s+with)\s+(?:\w+\s+){0,2}?(?:spicy|spice|chill?i(?:es)?|hot\s+food)\b|"
             r"\b(?:hates?|dislikes?|avoids?|no)\s+(?:\w+\s+){0,2}?(?:spicy|chill?i)\b",
    "colour": r"\bcolou?r[\s-]?blind\w*|\bcolou?r\s+vision\s+(?:deficiency|problems?)|\bdaltonism\b",
    "sight": r"\b(?:macular\s+degeneration|glaucoma|cataracts?|(?:partially|visually)\s+(?:sighted|impaired)|"
             r"(?:low|poor|failing|bad)\s+(?:eye)?sight|low\s+vision|legally\s+blind|registered\s+blind|"
             r"(?:can't|cannot|can\s+no\s+longer|no\s+longer)\s+(?:read|see)\s+(?:small\s+print|well|far|at\s+night)|"
             # the eyesight told after its noun: "eyesight is poor for reading", "struggles with small print"
             r"(?:eye)?sight\s+is\s+(?:\w+\s+)?(?:poor|bad|failing|weak|going)|struggles?\s+(?:\w+\s+){0,2}?small\s+print|"
             r"reading\s+glasses)\b",
    "cold": rf"\b(?:insulin|{_SICKLE_CELL}|raynaud\w*|avoids?\s+(?:getting\s+)?(?:cold|the\s+cold)|copd|{_HEART}|{_NO_THERMOSTAT}|"
            r"chilblains?|winters?\s+(?:are\s+|is\s+)?(?:hard|tough|difficult)|feels?\s+the\s+cold|asthma\w*|"
            r"cold\s+(?:\w+\s+){0,3}?makes?\s+(?:\w+\s+)?worse|"
            # "gets badly out of breath in cold or windy weather", "flares with cold air"
            r"cold\s+(?:or\s+windy\s+|and\s+windy\s+|or\s+damp\s+)?(?:weather|air|wind|days))\b",
    "fluids": rf"\b(?:(?:fluid|water)\s+intake|(?:stay|keep)\s+(?:well\s+)?hydrated|dehydrat\w*|lithium|{_SICKLE_CELL}|"
              r"diuretics?|water\s+(?:pills?|tablets?)|\w*thiazide|furosemide|bumetanide|"
              rf"kidney\s+(?:disease|failure|stones?)|dialysis|heart\s+failure|copd|{_HEART}|"
              r"worse\s+in\s+(?:the\s+)?(?:heat|hot\s+weather|summer)|(?:after|in)\s+a\s+hot\s+bath|heat\s+intoleran\w*|"
              r"(?:can't|cannot|doesn't|does\s+not|struggles?\s+to)\s+(?:cope\s+with|tolerate|handle|take)\s+(?:the\s+)?heat|"
              rf"overheats?|overheating|{_NO_THERMOSTAT})\b",
    "language": r"\b(?:(?:no|little|limited|basic|broken|poor)\s+english|(?:is\s+|am\s+|still\s+)?learning\s+english|"
                r"english\s+(?:lessons|classes|course)|(?:doesn't|does\s+not|don't|do\s+not|can't|cannot)"
                r"\s+speak\s+(?:\w+\s+)?english|not\s+fluent\s+in\s+english)\b",
    # lungs that smoke and cold air hurt: asthma, COPD, a smoker's (a bonfire, a cough, a wheeze)
    "airways": r"\b(?:asthma\w*|copd|emphysema|bronchitis|bronchiectasis|inhalers?|puffers?|nebuli[sz]er|nebules?|"
               r"smokes?|smoker|smoking|cigarettes?|kretek|vapes?|vaping)\b(?!\s+(?:alarms?|detectors?))",
    "toilet": r"\b(?:overactive\s+bladder|incontinen\w*|(?:needs?|near|close\s+to)\s+(?:a\s+)?(?:toilet|bathroom|loo|washroom)s?\s+"
              r"(?:close\s+by|nearby|near|at\s+hand)|mirabegron|oxybutynin|tolterodine|solifenacin|urgency)\b",
    # a kidney stone: oxalate-rich food and too little water
    "stones": r"\bkidney\s+stones?\b|\boxalate\b",
    # an allergy to what touches the skin at work or in a salon
    "contact": r"\ballergic\s+to\s+(?:\w+\s+){0,2}?(?:acrylates?|methacrylates?|nickel|latex|hair\s+dye|ppd|fragrances?|"
               r"perfumes?|chemicals?|cosmetics?|make-?up|gel\s+polish|nail\s+\w+|detergents?)\b|\bcontact\s+dermatitis\b|"
               r"\b(?:can't|cannot)\s+touch\s+(?:\w+\s+){0,4}?(?:products?|chemicals?|polish)\b",
    "walking": _any("bad knee", "bad hip", "knee replace*", "hip replace*", "knee replaced", "hip replaced",
                    "knee problem", "hip problem", "dodgy knee", "gammy knee", "arthritic knee", "arthritic hip",
                    "plantar fasciitis", "walking stick", "walks with a stick", "can't walk far", "cannot walk far",
                    "short walks", "struggles to walk", "struggles walking", "cane", "walking cane", "rollator",
                    "zimmer frame", "osteoporosis", "unsteady on her feet", "unsteady on his feet", "fall risk",
                    "cannot kneel", "can't kneel", "cannot squat", "can't squat", "gets dizzy", "osteoarthritis")
               + "|" + _STAIRS_HARD
               + r"|\b(?:uses?|use|with|needs?)\s+a\s+walker\b"
               + r"|\b(?:knees?|hips?)\s+(?:is|are)\s+(?:\w+\s+)?(?:bad|painful|sore|dodgy|stiff|playing\s+up)\b"
               r"|\barthritis\s+in\s+(?:\w+\s+){0,2}(?:knees?|hips?|feet|ankles?)\b",
}
"""What a fact says the user cannot or will not do, whatever their health: travel sickness, a fear of flying,
of dogs, of heights or of water, a back or joint or a recent operation that limits exertion, a wheelchair or
crutches (a place's steps, a trip), hearing loss (a loud room, a call), a knee or hip that limits walking (a
day trip, a holiday, a city's hills), a drink given up (an open bar), sweet food not liked (a cake), a fear of
snakes or spiders (a field visit, a safari), a heart attack or a clot (a long drive, the cold, the heat), skin the sun
harms (a beach day), a medicine taken at set times (a long flight, a sleepover), a condition told without a care
fact's words (Parkinson's, HIV, a steroid: what a clinician weighs), flashing lights that set off seizures (a laser
show), hands that shake (a drill, typing), a faith that leaves out pork and drink (a pig farm, a toast), sitting
long that hurts (a drive done in one go), a body that keeps its heat badly (38 degrees, a winter evening out),
crowds that upset someone (a festival, an open-air mass), a work rule against passengers (a grandchild on a run)."""

_BREEDS = (r"(?:labradors?|labs|poodles?|spaniels?|terriers?|retrievers?|collies?|huskies|husky|beagles?|"
           r"dachshunds?|pugs?|bulldogs?|corgis?|chihuahuas?|schnauzers?|greyhounds?|whippets?|rottweilers?|"
           r"dobermanns?|dobermans?|alsatians?|german\s+shepherds?|cockapoos?|labradoodles?|jack\s+russells?|"
           r"staffies|staffy|akitas?|malamutes?|shibas?|shih\s+tzus?|maine\s+coons?|siamese|ragdolls?|"
           r"tabb(?:y|ies)|bengals?|sphynx)")
_CHILD = (r"(?:sons?|daughters?|kids?|children|child|toddlers?|bab(?:y|ies)|twins|eldest|youngest|"
          r"grand(?:children|child|kids?|sons?|daughters?)|step(?:sons?|daughters?|kids?))")
_DAY = rf"(?:{WEEKDAY_STEMS})day"
_MONTH = f"(?:{ANY_MONTH})"
SITUATION_CONCERNS: dict[str, str] = {
    "children": rf"\b{_CHILD}\b(?!')|\b(?:user's|my|our|his|her|their|two|three|four)\s+(?:little\s+|young\s+|teenage\s+)?"
                r"(?:girls|boys)\b|\b(?:looks?\s+after|helps?\s+(?:out\s+)?with|minds?|babysits?)\s+(?-i:[A-Z])\w+|"
                r"\bchild\s?care\b",
    # a medicine or device the user cannot travel without: what to pack, what to carry through security
    "packing": CARRIED_MEDICINE,
    # a kind of outing the user does not enjoy: "dislikes museums", "doesn't enjoy historical monuments",
    # "dislikes any form of camping", "dislikes activities that involve animals in captivity"
    "sights": r"\b(?:dislikes?|hates?|avoids?|can't\s+stand|(?:do(?:es)?n't|do(?:es)?\s+not)\s+(?:like|enjoy|care\s+for)|"
              r"not\s+(?:a\s+fan\s+of|into)|bored\s+by|finds?)\s+(?:\w+\s+){0,4}?(?:museums?|galleries|art\s+galleries|"
              r"monuments?|historical\s+sites?|historic\s+sites?|ruins|churches|cathedrals|theme\s+parks?|"
              r"amusement\s+parks?|zoos?|aquariums?|animals\s+in\s+captivity|tourist\s+traps?|guided\s+tours?|"
              r"crowds|crowded\s+(?:places|attractions)|camping|glamping|nightclubs?|clubbing|gambling|casinos?)\b",
    "money": r"\b(?:sav(?:ing|es)\s+(?:up\s+)?(?:for|to)|savings|budget\w*|debts?|loans?|skint|pension|"
             # broke, but not a bone or a thing: "broke her wrist", "broke down"
             r"broke(?!\s+(?:his|her|my|their|its|a|an|the|both|down|up|into|off|out|through|in|free|away)\b)|"
             r"income|take[\s-]home\s+pay|salary|wages?|earns?|earning|after\s+tax|(?:promised|has)\s+to\s+pay|"
             r"pay(?:s|ing)?\s+for|money\s+(?:has\s+been|is|was)\s+(?:\w+\s+)?tight|costs?\s+down|"
             r"social\s+security|401\(?k\)?|sends?\s+money|mortgage|overdraft|tight\s+on\s+money|money\s+is\s+tight|"
             r"can(?:'t|not)\s+afford|paying\s+(?:off|back)|credit\s+card|low\s+income|unemployed|on\s+benefits|"
             r"(?:pays|paid)\s+(?:\w+\s+)?(?:monthly|weekly|every\s+(?:month|week))|bonus|repaying|repayments?|"
             r"owes?|owing|line\s+of\s+credit|in\s+debt|scholarship|stipend|bursary|pledged|tithes?|"
             r"on\s+credit|instal(?:l)?ments?|lives?\s+on\s+(?:about\s+|around\s+|just\s+|only\s+)?\S*\d|profits?|"
             r"(?:spending|daily|weekly|monthly)\s+limit|as\s+(?:my|his|her|their|our)\s+limit)\b",
    "getting around": r"\b(?:(?:don't|doesn't|do\s+not|does\s+not|never|can't|cannot)\s+(?:drive|have\s+a\s+car|own\s+a\s+car)|"
                      r"no\s+longer\s+drives?|(?:stopped|gave\s+up)\s+driving|(?:doesn't|does\s+not|don't|do\s+not)\s+drive\s+any\s?more|"
                      r"(?:never\s+had|has\s+no|have\s+no|no|without|doesn't\s+have|don't\s+have)\s+(?:a\s+)?"
                      r"(?:driving|driver'?s)\s+licen[cs]e|never\s+(?:learned|learnt)\s+to\s+drive|"
                      r"no\s+car|car[\s-]free|without\s+a\s+car|(?:walks?|cycles?|bikes?)\s+everywhere|gets?\s+around\s+by|"
                      r"commutes?\s+(?:by|on)|cycles?\s+to\s+work|rather\s+than\s+(?:fly|drive)|"
                      r"(?:uses?|takes?|relies\s+on)\s+a\s+wheelchair|wheelchair\s+user|"
                      # not allowed to drive, or the one car is someone else's: "The family has one car, which Josefa uses"
                      r"(?:not|isn't|is\s+not|mustn't|must\s+not|may\s+not)\s+(?:allowed\s+to\s+)?drive|banned\s+from\s+driving|"
                      r"lost\s+(?:his|her|my|their)\s+(?:driving\s+)?licen[cs]e|unable\s+to\s+drive|"
                      r"(?:has|have|owns?|with)\s+(?:only\s+)?one\s+car|shares?\s+(?:a|the|one)\s+car|"
                      r"(?:takes?|gets?|rides?)\s+the\s+bus|"
                      r"only\s+(?:\w+\s+){0,3}?(?:in\s+daylight|by\s+day|during\s+the\s+day|short\s+(?:trips|distances|journeys|drives))|"
                      r"(?:doesn't|does\s+not|don't|do\s+not|never|no\s+longer|can't|cannot|won't)\s+drive\s+"
                      r"(?:at\s+night|after\s+dark|in\s+the\s+dark|far|long\s+distances|on\s+(?:the\s+)?motorways?))\b",
    # a way of travelling the user avoids or prefers: "dislikes crowded public transport", "avoids taking
    # subways", "refuses to use ride-sharing", "prefers trains or flights"
    "transport": r"\b(?:avoids?|avoiding|dislikes?|hates?|refuses?|can't\s+(?:stand|tolerate)|won't|"
                 r"(?:do(?:es)?n't|do(?:es)?\s+not)\s+(?:like|use|take|enjoy)|prefers?\s+not\s+to|"
                 r"(?:afraid|scared|fear|phobia)\s+of|prefers?)\s+(?:\w+\s+){0,4}?"
                 r"(?:public\s+transport\w*|subways?|metros?|the\s+underground|the\s+tube|buses|coaches|"
                 r"(?:commuter\s+)?trains|ride[\s-]?shar\w*|uber|lyft|taxis|cabs|chauffeur\w*|driving|"
                 r"rental\s+cars?|car\s+rentals?|scooters|cycling|bikes)\b"
                 # panic in a crowded train or bus shapes the way to get anywhere
                 r"|\bpanic\s+attacks?\b|\bclaustrophob\w*|\bagoraphob\w*",
    "stairs": _STAIRS_HARD + r"|\b(?:walk[\s-]?up|no\s+(?:lift|elevator)|"
              r"(?:lift|elevator)\s+(?:\w+\s+){0,2}(?:breaks|broken|out\s+of\s+order)|"
              r"(?:\w+\s+)?floor\s+(?:flat|apartment)\s+(?:with\s+)?(?:no|without)\s+(?:a\s+)?(?:lift|elevator))",
    "sleep": r"\b(?:night\s+shifts?|works?\s+nights|shift\s+work|insomnia|sleep\s+apno?ea|cpap|pregnan\w*|jet[\s-]?lag|"
             r"(?:poor|bad|lack\s+of|too\s+little|not\s+enough)\s+sleep|sleep\s+deprivation|"
             # lost sleep is a seizure trigger; an early start sets the bedtime
             r"(?:losing|lost|missed|missing)\s+sleep|sleep\s+loss|epilep\w*|seizures?|"
             r"(?:starts?|starting)\s+work\s+at\s+\d|(?:gets?|getting|wakes?|waking)\s+up\s+at\s+\d|up\s+at\s+\d|"
             # work until the small hours, a room shared with people who keep other hours
             r"(?:to|till|until)\s+[1-5]\s*(?:am|a\.m\.)|night\s+weeks|"
             r"shares?\s+(?:a|an|the|her|his|their|my)\s+(?:\w+\s+){0,2}?(?:flat|room|house|apartment|bedroom|dorm)|"
             r"(?:flat|house|room)[\s-]?mates?|sleeps?\s+at\s+different\s+(?:hours|times)|noisy\s+neighbou?rs?|thin\s+walls|"
             r"sleeps?\s+(?:from\s+)?(?:about\s+|around\s+)?\d{1,2}(?::\d\d)?\s*(?:am|a\.m(?=\.))|sleeps?\s+(?:during|in)\s+the\s+day)\b",
    "travel": r"\bpregnan\w*",
    "outdoors": r"\b(?:grows?|growing|garden\w*|allotment(?!\s+of\b)|raised\s+beds?|greenhouse|beehives?|bees|backyard|"
                r"(?:swimming\s+)?pool|chickens|hens|vegetable\s+patch|orchard|lawn)\b",
    "work": r"\b(?:works?\s+(?:as|at|for|in)|working\s+(?:as|at|for)|job|employer|employed|self[\s-]employed|"
            r"freelanc\w*|runs?\s+(?:a|an|the|his|her|their|my|our)\s+(?:\w+\s+){0,3}(?:business|shop|company|firm|"
            r"practice|nursery|bakery|caf[eé]|restaurant|studio)|"
            r"owns?\s+(?:a|an)\s+(?:\w+\s+){0,3}(?:business|shop|company|firm|nursery|bakery)|"
            r"I'm\s+a\s+\w+\s+(?:at|for)|co-?founder|(?:has|have|employs?)\s+(?:[\w-]+\s+){0,3}?(?:staff|employees)|founder\s+of|start-?ups?|\d+\s+(?:employees|staff)|"
            r"(?:the\s+)?(?:ceo|cto|coo|cfo|managing\s+director)\s+(?:of|at)|drives?\s+(?:a|an)\s+(?:\w+\s+){0,2}(?:bus|taxi|cab|truck|lorry|van|tram)|"
            r"(?:is|am)\s+(?:now\s+|currently\s+|still\s+)?an?\s+(?:(?:\w+\s+){0,2}|(?!retired\b|former\b)(?:\w+\s+){3})(?:nurse|teacher|developer|engineer|lawyer|"
            r"accountant|driver|manager|designer|translator|doctor|student|chef|analyst|consultant|tester|courier|"
            r"farmer|attendant|cleaner|carer|electrician|plumber|mechanic|pharmacist|paramedic|officer|writer|teller|cashier|"
            r"clerk|receptionist|secretary|waiter|waitress|bartender|barista|baker|hairdresser|pilot|midwife|lecturer|"
            r"professor|librarian|journalist|architect|programmer|researcher|scientist|social\s+worker|builder|"
            r"labourer|fisherman|tailor|banker|agronomist|skipper|firefighter|soldier|police\s+officer))\b",
    "caring": r"\b(?:(?:shouldn't|should\s+not|can't|cannot|can\s+not|mustn't|must\s+not)\s+be\s+left\s+alone|"
              r"dementia|alzheimer'?s|(?:is|am|are)\s+(?:a|the|her|his|their)\s+(?:main\s+|full[\s-]time\s+)?"
              r"carer|caregiver|cares\s+for\s+(?:his|her|their|my)|"
              r"(?:pill|tablet|medication|medicine|insulin|injection|eye\s+drops?)s?\s+(?:\w+\s+)?"
              r"(?:twice|three\s+times|every\s+\w+\s+hours)(?:\s+a\s+day)?|"
              # a partner often away: no one else at home while the user goes too
              r"(?:is|are)\s+(?:often\s+)?away\s+(?:\w+\s+){0,2}(?:nights?|overnight|weeks?)|works?\s+away|"
              # "gets confused and frightened if she is left alone for more than an hour"
              r"(?:if|when)\s+(?:she|he|they)\s+(?:is|are|gets?|get)\s+left\s+(?:alone|on\s+(?:her|his|their)\s+own))\b",
    "renting": r"\b(?:landlord|landlady|letting\s+agent|tenan(?:t|ts|cy)|(?:rents?|renting)\s+(?:a|an|the|our|my|his|her|"
               r"their)\s+(?:[\w²-]+\s+){0,4}?(?:flat|house|apartment|home|place|room|studio|condo)|"
               r"(?:no|doesn't\s+allow|don't\s+allow|does\s+not\s+allow|not\s+allowed)\s+(?:any\s+)?(?:more\s+)?pets)\b",
    "power": r"\b(?:inverter|generator|load[\s-]?shedding|power\s+cuts?|cpap|oxygen\s+concentrator|"
             r"electric\s+wheelchair|fridge\s+goes\s+off)\b",
    "home": r"\b(?:originally\s+from|grew\s+up\s+in|born\s+(?:and\s+(?:raised|bred)\s+)?in|hometown|"
            r"(?:is|am|i'm)\s+(?:\d{1,3}\s+and\s+)?from\s+(?-i:[A-Z])\w*|"
            r"(?:parents|mum|mom|dad|father|mother|family|folks)\s+(?:still\s+)?(?:lives?|live)\s+in)\b",
    "fandom": r"\b(?:supports?|supporter\s+of|season[\s-]tickets?)\s+(?:\w+\s+){0,2}?(?-i:[A-Z])\w*|"
              r"(?<!not\s)(?<!not\sa\s)(?<!not\sthe\s)\b(?:big|huge|massive|lifelong|die[\s-]hard|devoted|mad|keen)?\s*"
              r"(?-i:[A-Z])[\w.']*(?:\s+(?-i:[A-Z])[\w.']*){0,2}"
              # the sport between the team and the word: "a lifelong Galway hurling supporter"
              r"(?:\s+(?:football|soccer|hurling|gaelic\s+football|rugby|hockey|ice\s+hockey|baseball|basketball|"
              r"cricket|netball|volleyball|racing))?\s+(?:fan|supporter)s?\b|\bseason[\s-]ticket\s+holder\b",
    "music": r"\b(?:plays?|playing|learning|learns|learnt|learned|lessons?\s+(?:in|on|for)|practis\w*|practic\w*|"
             r"(?:gave|given|giving)\s+up(?:\s+on)?|quit|stopped\s+(?:playing|learning))\s+"
             r"(?:the\s+|a\s+|an\s+|(?:\w+\s+)?lessons?\s+(?:in|on|for)\s+(?:the\s+)?)?(?:piano|keys|keyboard|guitar|"
             r"bass|double\s+bass|drums|violin|viola|cello|flute|clarinet|sax\w*|trumpet|trombone|ukulele|harp|oboe|"
             r"bassoon|banjo|mandolin|accordion|organ|french\s+horn)\b|\bsings?\s+in\s+(?:a|the)\s+\w*\s*choir\b",
    "vehicle": r"\b(?<!n't\s)(?<!not\s)(?<!never\s)(?:drives?|owns?|has|have|got)\s+(?:a|an|the|his|her|their|our|my)\s+(?:\w+\s+){0,3}?"
               r"(?:car|van|motorbike|motorcycle|scooter|ev|electric\s+car|camper(?:van)?|rv|pickup|pick-up|truck|estate|"
               r"saloon|hatchback|sedan|suv|4x4|"
               r"(?-i:[A-Z])[\w-]+\s+(?:\w+\s+)?(?-i:[A-Z0-9])[\w-]*)\b(?!\s+(?:bus|taxi|cab|tram|for\s+a\s+living))",
    "reading": r"\b(?:reads|reading|(?:likes|loves|prefers|tries)\s+to\s+read|books|novels|audiobooks|comics|graphic\s+novels|manga|poetry|"
               r"(?:sci[\s-]?fi|crime|fantasy|romance|history|historical)\s+(?:fiction|novels|books))\b",
    "listening": r"\b(?:listens\s+to|music|jazz|blues|records|vinyl|albums?|podcasts?|audiobooks|opera|classical\s+music|"
                 r"hip[\s-]hop|folk\s+music|k[\s-]?pop|punk|(?:heavy\s+)?metal\s+(?:music|bands?|fan|gigs?)|heavy\s+metal|country\s+music|bands?)\b",
    "watching": r"\b(?:films|movies|cinema|documentar\w+|tv\s+(?:shows|series|dramas)|sitcoms|anime|"
                r"(?:crime|period|costume|medical)\s+dramas|reality\s+(?:tv|shows)|box\s+sets|"
                # a fan of a film studio or a franchise: "a big Studio Ghibli fan"
                r"ghibli|pixar|marvel|star\s+wars|star\s+trek|film\s+buff|movie\s+buff|cinephile)\b",
    "pets": r"\b(?<!afraid\sof\s)(?<!scared\sof\s)(?:dogs?|cats?|pupp(?:y|ies)|kittens?|pets?|hamsters?|rabbits?|bunn(?:y|ies)|"
            r"guinea\s+pigs?|parrots?|budgies?|tortoises?|turtles?|goldfish|ferrets?|geckos?|lizards?|doves|canar(?:y|ies)|"
            r"cockatiels?|" + _BREEDS + r")\b",
    "pastimes": r"\b(?:hobb(?:y|ies)|(?:goes|go|went)\s+(?:\w+\s+)?(?:bouldering|climbing|running|hiking|swimming|"
                r"cycling|surfing|skiing|snowboarding|sailing|fishing|kayaking|skating|dancing|bowling|camping|"
                r"birdwatching|bird\s+watching)|(?:plays?|playing)\s+(?:\w+\s+)?(?:tennis|football|soccer|golf|chess|"
                r"badminton|squash|padel|rugby|cricket|basketball|volleyball|hockey|netball|baseball|softball|"
                r"table\s+tennis|pool|darts|bridge|poker|board\s+games|video\s+games|d&d|dungeons)|"
                r"(?:does|do|doing|practises|practices|took\s+up|takes?\s+up|taking\s+up|into|(?:started|starting|began|begun)\s+"
                r"(?:learning|doing)|learning|learns|learnt|learned|classes\s+in|lessons\s+in)\s+(?:\w+\s+)?"
                r"(?:yoga|pilates|karate|judo|jiu[\s-]?jitsu|taekwondo|boxing|kickboxing|crossfit|pottery|ceramics|photography|"
                r"woodwork\w*|knitting|crochet|embroidery|calligraphy|baking|gardening|painting|drawing|sketching|"
                r"(?:rock\s+|indoor\s+)?climbing|bouldering|running|hiking|surfing|skiing|snowboarding|sailing|fencing|"
                r"archery|kayaking|skating|dancing|salsa|tango|swimming|cycling|tennis|golf|chess)|"
                r"(?:boulders|climbs|runs|hikes|swims|cycles|surfs|skis|knits|crochets|paints|sketches|bakes|fishes|"
                r"sails|rows|dances|gardens)\b(?!\s+(?:a|an|the|his|her|their|to|into|out|over|at)\b)|"
                r"member\s+of\s+(?:a|an|the)\s+(?:\w+\s+){0,2}(?:club|team|league|society|group)|"
                r"training\s+for\s+(?:a|an|the)\s+(?:\w+\s+)?(?:marathon|half|triathlon|race|10k|5k|ultra))",
    # the right to stay or work in a country: "User is in Germany on a Blue Card tied to her employer", "User's
    # residence permit runs out in March" (a job change, a trip abroad or a new address asks for it)
    "papers": r"\b(?:(?:no|(?:doesn't|does\s+not|don't|do\s+not)\s+have\s+a|without\s+a)\s+passport|"
              r"passport\s+(?:expired|expires|runs\s+out)|never\s+been\s+abroad|visas?|residen(?:ce|cy)\s+(?:permit|card|status)s?|work\s+permits?|green\s+card|blue\s+card|"
              r"iqama|permanent\s+residen\w*|citizenship|naturali[sz]\w*|asylum|refugee\s+status|immigration\s+status|"
              r"ausl[aä]nderbeh[oö]rde|leave\s+to\s+remain|settled\s+status)\b",
    # what the user eats now, told as a change of diet: "User is no longer vegetarian.", "User eats fish again."
    # (no restriction, and so no care fact; a meal question still needs it)
    "meal": r"\b(?:no\s+longer|stopped\s+being|quit\s+being|gave\s+up\s+being)\s+(?:a\s+)?"
            r"(?:strict\s+)?(?:vegetarian|vegan|pescatarian|keto|paleo|plant[\s-]based)\b|"
            r"\bnot\s+(?:a\s+)?(?:vegetarian|vegan|pescatarian|keto|paleo|plant[\s-]based)\s+any\s?more\b|"
            r"\b(?:eats?|eating)\s+(?:\w+\s+)?(?:meat|fish|seafood|chicken|pork|beef|dairy|eggs)\s+(?:again|now)\b|"
            r"^\W*(?:user|i)\s+(?:now\s+|also\s+)?(?:eats?|has\s+started\s+eating|started\s+eating)\s+"
            r"(?:meat|fish|seafood|chicken|dairy|eggs)(?:\s+again)?\W*$|"
            r"\bno\s+(?:oven|stove|cooker|hob|kitchen|freezer|fridge)\b|"
            r"\beats?\s+no\s+(?:pork|meat|beef|red\s+meat|fish|shellfish|seafood|dairy|eggs)\b|\b(?:seventh[\s-]day\s+)?adventist\b|"
            r"\b(?:eat|drink|have)\s+(?:fewer|less)\s+(?:\w+\s+){0,4}?(?:sugar\w*|sweets|carbs|tortillas|bread|rice|meat|salt|fat)\b|"
            r"\bmeal\s+close\s+to\s+(?:a|the|his|her|my)\s+dose\b|"
            r"\b(?:trouble|difficulty|problems?)\s+swallowing\b|\bdysphagia\b|\bthickened\b|\bsoft\s+(?:or\s+minced|food|diet)\b|"
            r"\b(?:pureed|puréed|minced)\s+(?:food|meals|diet)\b|\bchokes?\s+easily\b|"
            # a stomach that takes little at a time: "had most of his stomach removed; eats five or six small meals"
            r"\b(?:small(?:er)?\s+meals|(?:most|part)\s+of\s+(?:his|her|my|their)\s+stomach|gastrectomy|"
            r"gastric\s+(?:bypass|sleeve|band))\b|"
            # salt kept down, told as the cooking: "cooks with little salt and no stock cubes"
            r"\b(?:little|no|less|low)\s+salt\b|\bsalt\s+low\b",
    "schedule": rf"\b(?:{_DAY}s|every\s+(?:other\s+)?(?:{_DAY}|week|weekend)|on\s+{_DAY}"
                rf"(?:\s+and\s+{_DAY})?\s+(?:mornings|evenings|nights|afternoons)|"
                r"commute\s+is|commutes?\s+(?:\w+\s+){0,3}(?:minutes|hours?)|(?:minutes|hours?)\s+each\s+way|"
                # fixed hours: "My shift is 9pm to 6am, Monday to Friday", "I leave home at 6am"
                rf"{_DAY}\s+(?:to|through|till|until)\s+{_DAY}|"
                r"shifts?\s+(?:is|are|runs?)|\d{1,2}(?::\d\d)?\s*(?:am|pm)\s+(?:to|till|until)\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)|"
                r"leaves?\s+home\s+at|\d+[\s-]hour\s+shifts|day\s+weeks\s+and\s+night\s+weeks|"
                # a day off, an early start, a daily habit at a set hour, a day kept free, a monthly duty
                rf"days?\s+off|(?:starts?|starting)\s+work\s+at|weekdays|{_DAY}\s+(?:mornings|evenings|nights|afternoons)|"
                r"at\s+\d{1,2}(?::\d\d)?(?:\s*(?:am|pm|a\.m\.|p\.m\.))?\s+(?:every|each)\s+(?:morning|evening|afternoon|day)|"
                r"(?:every|each)\s+(?:morning|evening|afternoon|day)\s+at\s+\d|sabbath|shabbat|friday\s+prayers|"
                # a rotation away and home: "two weeks on, one week off", fly-in fly-out
                r"weeks?\s+on,?\s+(?:\w+\s+)?weeks?\s+off|fly[\s-]in[\s-]fly[\s-]out|fifo|"
                r"(?:morning|evening|afternoon|night)s?\s+of\s+(?:every|each|the)\s+month|of\s+every\s+(?:lunar\s+)?month|"
                # hours from-to: "comes on Monday, Wednesday and Friday from 9 to 1"; a rota's rules
                r"from\s+\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)?\s+"
                r"(?:to|till|until)\s+\d{1,2}\b|shift\s+swaps?|swap\s+shifts?|time\s+off\s+(?:needs?|has\s+to|must))\b",
    # the way to work: a new job's place or hours, an early meeting
    "commute": r"\b(?:commut\w*|leaves?\s+home\s+at|(?:drives?|cycles?|walks?|takes?\s+the\s+\w+)\s+to\s+work|"
               r"takes?\s+(?:two|three|\d)\s+(?:buses|trains|trams)\s+to\s+(?:work|school|uni|college)|"
               r"(?:taking|riding)\s+the\s+(?:ttc|mta|bus|buses|train|trains|tram|metro|subway|tube|"
               r"underground|streetcar|luas|dart|ferry)\b|"
               # "rides a 150cc motorbike from Surquillo to Barranco"
               r"(?:rides?|drives?)\s+(?:a|an|his|her|my|the)\s+(?:[\w-]+\s+){0,2}?(?:motorbike|motorcycle|scooter|moped|bike)\s+"
               r"from\s+(?-i:[A-Z])\w+\s+to\b)",
    # a change of what the user drinks: "User has switched to tea.", "User gave up coffee." (no care fact, but a
    # latte before bed needs it)
    "caffeine": r"\b(?:(?:switched|moved|gone|went|changed)\s+(?:over\s+)?to\s+(?:decaf\w*|(?:herbal\s+|green\s+)?tea)|"
                r"(?:no\s+longer|stopped|quit|gave\s+up|given\s+up|cut\s+out|cutting\s+(?:out|down\s+on))\s+"
                r"(?:drinking\s+)?(?:coffee|caffeine)|no\s+(?:more\s+)?(?:coffee|caffeine)|decaf|"
                # "Coffee on top of my meds makes me jittery"
                r"(?:coffee|caffeine|energy\s+drinks?)\b[^.;]{0,40}?\b(?:makes?|gives?|keeps?)\s+(?:me|him|her|them)\s+"
                r"(?:\w+\s+)?(?:jittery|shaky|anxious|wired|palpitations|the\s+shakes))\b",
    # an exam or a degree the user is working towards
    "studies": r"\b(?:ielts|toefl|gre|gmat|gcses?|a[\s-]levels?|bar\s+exam|exams?|thesis|dissertation|"
               r"studying\s+for|revising\s+for|master'?s|phd|doctorate|"
               r"(?:accepted|admitted|a\s+place)\s+(?:for|onto|on|into|to|at)\s+(?:a|an|the)\s+(?:\w+\s+){0,3}?"
               r"(?:course|degree|programme|program|university|college))\b",
    # a computer or phone the user relies on, or is not at ease with
    "devices": r"\b(?:laptops?|computers?|pcs?|macbook|chromebook|ipad|smartphones?|wi[\s-]?fi|broadband|"
               r"internet\s+connection|data\s+plan)\b",
    # a small home: where guests sleep, what fits
    "space": r"\b(?:studio\s+(?:flat|apartment)?|bedsit|one[\s-]bed(?:room)?|1[\s-]bed(?:room)?|"
             r"(?:[1-3]?\d|4[0-5])\s*(?:m²|m2|sq\s*m|square\s+met(?:re|er)s?)|[1-4]\d\d\s*(?:sq\s*ft|square\s+feet)|(?:tiny|small|little|cramped)\s+(?:flat|apartment|house|place|room)|"
             r"flat[\s-]?share|shared\s+(?:flat|house|apartment))(?!\w)",
    # a home the weather reaches: a cyclone, a flood
    "shelter": r"\b(?:wooden|timber|thatched|tin[\s-]roof\w*|mobile\s+home|caravan|trailer|houseboat|flat\s+roof|"
               r"floods?|flooding|flood[\s-]?prone|tin\s+roof|no\s+air\s+conditioning|air[\s-]conditioning\s+bills?|"
               r"(?:semi[\s-])?basement\s+(?:flat|room|one[\s-]room|apartment)|water\s+came\s+in)\b",
    # a move of home to come or under way: packing up, the boxes, a change of address
    "moving": r"\b(?:moving|relocating)\s+(?:house|home|flats?|out|in\s+with|abroad|(?:back\s+)?(?:to|from)\s+(?-i:[A-Z]))|"
              r"\b(?:the|our|my)\s+(?:house\s+)?move\s+(?:to|on|in|next|this|at)\b|\bexchang\w+\s+contracts\b",
    # a wedding in the family to come
    "wedding": r"\b(?:wedding|getting\s+married|(?:will|to)\s+marry|engaged\s+to|fianc[eé]e?)\b",
    # a commitment on a date to come or a season of the year: "... starting in September", "visa expires next March",
    # "due at the end of April", "harvest runs from late September"
    "calendar": r"\b(?:next|this\s+coming|starting(?:\s+in)?|from|until|till|by|due\s+(?:in|at\s+the\s+end\s+of)|"
                r"(?:expires?|ends?|runs\s+out)(?:\s+(?:in|on|next))?|(?:planned|booked|scheduled)\s+for(?:\s+next)?)\s+(?:(?:early|mid|late)[\s-]+)?"
                rf"{_MONTH}\b|\bdue\s+(?:on\s+)?(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b|"
                r"\b\d{1,2}\s+weeks\s+pregnant\b|"
                r"\b(?:at\s+least|under|more\s+than|fewer\s+than|less\s+than|over)\s+\d+\s+days\s+(?:a|per|each|every)\s+year\b|"
                rf"\bstarts?\s+on\s+(?:the\s+)?\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}\b",
    # an exercise habit of the week: a weight-loss or fitness plan builds on it
    "fitness": r"\b(?:zumba|aerobics|spin\s+class\w*|gym|pilates|yoga|crossfit|swims?|swimming|running|jogs?|jogging|"
               r"cycles?|cycling|parkrun|works?\s+out)\b[^.;]{0,40}?\b(?:(?:times|mornings|evenings|days|nights)\s+a\s+week|"
               rf"every\s+(?:morning|day|evening|weekend|week|{_DAY}))|"
               r"\blose\s+(?:about\s+|around\s+|some\s+)?\d+\s*(?:kg|kgs|kilos?|lbs?|pounds|stone)\b|\boverweight\b|\bobes(?:e|ity)\b",
}
"""What a fact says about the user's situation that shapes plans, whatever their health: children (a family
outing, a holiday for the three of us), money (a cheap dinner, whether a purchase is worth it), getting around
without a car or in a wheelchair (the way to get somewhere), stairs without a lift (a stroller, a sofa),
sleep (night shifts, insomnia, a CPAP machine, a pregnancy: tiredness, a sleepless night, a night in a tent), what
a trip must allow for (a pregnancy), what the weather means for a garden, bees or a pool, the user's job or
business (a cover letter, a day off, more orders), someone or a pet who cannot be left alone (a weekend away), a
rented home (a puppy, painting the walls), what needs mains power (a power cut, camping), the week's fixed
hours (a class, a game, a long commute, a day off, a sabbath: "Help me fit everything in next week"), a small
home (where visitors sleep), a home the weather reaches (a cyclone), a wedding to come, a commitment on a date
or a season of the year (a visa's end, a course that starts in September, a due date: a trip in May, an offsite in
the summer), and an exercise habit of the week (a plan to lose weight)."""

_FOOD_CONCERNS = frozenset({"peanut", "tree nut", "shellfish", "fish", "egg", "dairy", "gluten", "meat", "sugar",
                            "salt", "sesame", "soy", "mustard", "celery", "lupin", "mollusc", "pregnancy",
                            "buckwheat", "gut", "legume"})
_EATEN = (_FOOD_CONCERNS - {"pregnancy"}) | {"meal"}  # what only eating meets

# asking about the user's pastimes: any interest answers it
_LEISURE = ("hobby", "hobbies", "for fun", "pastime", "pastimes", "spare time", "free time", "interests")
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
              "haggis", "gelatin", "gelatine", "marshmallow", "gummy", "gummies", "jelly sweets", "jelly babies",
              "haribo", "jello", "panna cotta", "nugget", "wing", "shawarma", "gyro", "taco", "biltong", "meat pie",
              "cheeseburger", "pulled pork", "roast dinner", "goulash", "stew", "pig", "piggery", "pig farm", "piglet")
_DRINK = ("alcohol*", "booze", "drinks", "a drink", "beer", "ale", "lager", "wine", "prosecco", "champagne", "cava",
          "cocktail", "pub", "bar", "happy hour", "sangria", "whisky", "whiskey", "vodka", "gin",
          "rum", "tequila", "pastis", "sake", "cider", "spritz", "mimosa", "margarita", "mojito", "negroni",
          "aperitif", "aperitivo", "apéritif", "pint", "shots", "brewery", "winery", "vineyard", "wine tasting",
          "pub crawl", "bar crawl", "bottomless", "stag do", "hen do", "bachelor party", "bachelorette", "oktoberfest",
          "mulled wine", "eggnog", "hangover", "drunk", "tipsy", "booze", "bourbon", "brandy", "cognac", "port",
          "sherry", "schnapps", "liqueur", "punch", "piña colada", "pina colada", "toast to", "nightcap", "baijiu",
          "soju", "makgeolli", "shochu", "ouzo", "raki", "rakija", "grappa", "limoncello", "mezcal", "highball",
          "out for a few", "a few pints", "a few beers", "few drinks", "round of drinks", "drinking", "beverage",
          "nightlife")
_SWEET = ("sugar*", "sweets", "candy", "chocolate", "dessert", "cake", "cupcake", "cookie", "biscuit", "pastry",
          "pastries", "doughnut", "donut", "ice cream", "gelato", "soda", "coke", "fizzy drink", "juice", "smoothie",
          "milkshake", "pancake", "waffle", "syrup", "honey", "bread", "pasta", "rice", "potato", "potatoes",
          "fries", "chips", "pizza", "cereal", "bagel", "muffin", "brownie", "pie", "tart", "pudding", "crumble",
          "jam", "carbs", "carbohydrate", "noodle", "sandwich", "porridge", "fruit juice", "energy drink",
          "birthday cake", "trifle", "cheesecake", "fudge", "toffee", "marshmallow", "churro", "cola", "coca cola",
          "pepsi", "soft drink", "sugary drink", "fizzy", "sprite", "fanta", "tortilla")
_BLEEDING = ("dentist", "dental", "tooth extraction", "surgery", "operation", "tattoo*", "piercing", "nosebleed",
             "get inked", "getting inked",
             "bruise", "bruising", "bleeding", "ibuprofen", "aspirin", "nsaid", "naproxen", "painkiller",
             "fish oil", "turmeric", "ginkgo", "kale", "spinach", "broccoli", "leafy greens", "greens",
             "brussels sprouts", "vitamin k", "cranberry", "grapefruit", "contact sport", "rugby", "boxing",
             "skiing", "snowboarding", "blood test", "blood drawn", "injection", "jab", "vaccine", "vaccination",
             "advil", "nurofen", "motrin", "aleve", "tooth pulled", "tooth out", "extraction", "wisdom tooth")
_CLINIC = ("dentist", "dental", "doctor", "gp", "nurse", "surgeon", "surgery", "pharmacist", "pharmacy",
           "blood test", "blood drawn", "anaesthetic", "anesthetic", "operation", "procedure", "hospital",
           "a&e", "er visit", "check-up", "checkup", "physio", "physiotherapist", "vaccine", "jab", "prescription",
           # a medicine to take: a pharmacist asks about conditions, other medication, allergies, pregnancy
           "paracetamol", "acetaminophen", "tylenol", "calpol", "antihistamine", "antacid", "cough syrup",
           "cough medicine", "tablets", "pill", "medicine", "medication", "supplement", "remedy", "over the counter",
           "painkiller", "sleeping pill", "can i take", "take for", "take something",
           # symptoms: what a clinician would weigh against the user's conditions and medication
           "symptom", "shaky", "sweaty", "dizzy", "dizziness", "light headed", "lightheaded", "faint", "swollen",
           "swelling", "wheez*", "breathless", "short of breath", "chest pain", "palpitation", "rash", "hives",
           "itchy", "nausea", "nauseous", "vomit*", "throwing up", "fever", "headache", "numb", "tingling",
           "blurred vision", "cramp", "sore throat", "stomach ache", "diarrhoea", "diarrhea", "feel sick",
           "feeling sick", "unwell", "under the weather", "in pain", "sprain*", "heartburn", "indigestion", "reflux",
           "antibiotic", "flu", "wound", "bite", "bitten", "insect bite", "sting", "loose stool", "bloated", "bloating",
           "tummy", "migraine", "pounding", "throbbing", "red spot", "sore", "blister", "cough", "coughing", "pee",
           "urine", "i worry", "be worried", "side effect", "tattoo*", "get inked", "getting inked", "piercing")
_MEAL = ("dinner", "lunch", "breakfast", "brunch", "supper", "snack", "meal", "eat", "eating", "cook", "cooking",
         "cookout", "cook out", "braai", "party food",
         "recipe", "restaurant", "takeaway", "takeout", "menu", "dish", "food", "picnic", "packed lunch", "lunchbox",
         "dessert", "potluck", "buffet", "meal prep", "dinner party", "bake", "baking", "groceries", "grocery",
         "cuisine", "delicacy", "delicacies", "tapas", "street food", "local food", "foodie", "dishes",
         "serve", "to serve", "i serve", "we serve", "coming over", "nibbles", "finger food",
         "canapes", "should i order", "should we order", "what to order", "order food", "feed", "to feed", "cater",
         "catering", "for a crowd", "jollof", "biryani", "pastries", "pastry", "strudel", "a slice", "slice of")
# how to get somewhere: met by a fact about not driving (getting around) and one about ways of travelling (transport)
_UP_THERE = ("get up there", "get down there", "get over there")  # a trip to where someone lives
_GETTING_THERE = ("way to get", "get to", "get there", "getting there", "getting to", "get around", "getting around",
                  *_UP_THERE, "get out there", "get home", "getting home",
                  "way home", "get back home",
                  "commute", "commuting", "road trip", "drive to", "taxi", "rental car", "rent a car", "hire a car",
                  "car hire")
_WEIGHT_LOSS = ("lose weight", "lose some weight", "losing weight", "weight loss")
_EXERTION = ("exercise", "yoga", "hot yoga", "pilates", "workout", "work out", "gym", "run", "running", "jog*",
             "football", "soccer", "rugby", "hockey", "tennis", "squash", "netball", "basketball", "hike", "hiking",
             "climb*", "boulder*", "swim*", "cycling", "bike ride", "marathon", "race", "training", "warm up", "stretches",
             "stretching",
             "warm-up", "hiit", "crossfit", "spin class", "sport", "sprint", "ski", "skiing", "altitude", "scuba",
             "diving", "get fit", "get fitter", "fitness", "keep fit", "in shape", "10k", "5k", "half marathon",
             "train for", *_WEIGHT_LOSS, "put on weight", "gain weight", "surf", "surfboard", "paddle out", "longboard", "fun run")

QUESTION_CONCERNS: dict[str, tuple[str, ...]] = {
    "packing": ("packing", "pack for", "to pack", "i pack", "pack my", "we pack", "packing list", "hand luggage",
                "carry-on", "carry on bag", "cabin bag", "suitcase", "luggage", "overnight bag", "weekend bag", "what to bring", "bring with me", "take with me",
                "airport security", "security check", "long-haul flight", "long haul flight"),
    "peanut": ("peanut", "satay", "pad thai", "kung pao", "gado gado", "trail mix", "snickers", "reese*",
                   "pb&j", "groundnut", "nut", "nutty", "thai", "praline", "granola", "protein bar", "energy bar",
                   "cereal bar", "snack bar", "flapjack", "muesli"),
    "tree nut": ("nut", "nutty", "almond", "walnut", "cashew", "pecan", "pistachio", "hazelnut", "nutella",
                     "pesto", "marzipan", "praline", "baklava", "nougat", "macaron", "frangipane", "granola",
                     "trail mix", "brazil nut", "macadamia", "protein bar", "energy bar", "cereal bar", "snack bar",
                     "muesli"),
    "shellfish": ("shellfish", "shrimp", "prawn", "crab", "lobster", "scallop", "mussel", "oyster", "clam",
                      "paella", "seafood", "scampi", "crayfish", "crawfish", "gumbo", "bouillabaisse", "calamari",
                      "squid", "octopus", "sushi", "tempura", "jambalaya", "ceviche", "fish market"),
    "fish": ("fish", "salmon", "tuna", "cod", "haddock", "sushi", "sashimi", "anchov*", "caesar", "sardine",
                 "mackerel", "trout", "seafood", "fish and chips", "fish sauce", "poke", "ceviche", "kedgeree"),
    "egg": ("egg", "omelette", "omelet", "quiche", "mayonnaise", "mayo", "meringue", "custard", "carbonara", "caesar",
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
                      "glucose test", "anomaly scan", "ultrasound", "due date", "parental leave", "maternity leave",
                      "surf", "surfing", "surfboard", "paddle out", "longboard", "ebike", "e bike", "horse riding", "contact sport", "trampoline",
                      "fell over", "a fall", "tripped", "fasting", "ramadan", "a fast",
                      *_DRINK),
    "sugar": _SWEET,
    "salt": ("salt", "salty", "soy sauce", "crisps", "chips", "bacon", "ramen", "instant noodle", "pickle",
                 "olive", "salami", "cured", "anchov*", "takeaway", "takeout", "pizza", "processed", "stock cube",
                 "miso", "fish sauce", "pretzel", "ham", "sausage", "stir fry", "stir-fry", "gravy", "crisp"),
    "blood thinner": (*_BLEEDING, *_DRINK),
    "latex": ("glove", "balloon", "condom", "rubber", "bandage", "plaster", "band-aid", "band aid",
                  "blood drawn", "blood test", "dentist", "dental", "surgery", "operation", "catheter", "swim cap",
                  "elastic", "waistband", "yoga mat", "hot water bottle"),
    "clinic": (*_CLINIC, "st john wort", "st johns wort", "herbal", "ginkgo", "ginseng", "kava", "melatonin",
               "cbd", "out of breath", *_WEIGHT_LOSS, "fasting",
               "dry fast"),
    "g6pd": ("fava*", "broad bean", "mothball", "naphthalene", "henna", "primaquine", "dapsone", "quinine",
             "tonic water"),
    "spicy": ("spicy", "spice", "chilli", "chili", "hot sauce", "fire noodle", "buldak", "vindaloo", "phaal",
              "jalapeno", "jalapeño", "habanero", "sriracha", "wasabi", "hot wings", "curry", "sichuan", "szechuan",
              "peri peri", "piri piri", "kimchi", "tom yum", "tteokbokki", "harissa", "nduja", "scotch bonnet",
              "pepper soup"),
    "colour": ("colour*", "color*", "tone", "palette", "shade", "hue", "monitor", "grading", "paint", "matching"),
    "sight": ("small print", "read", "reading", "sign", "airport", "menu", "drive at night", "driving at night",
              "drive", "driving", "drive myself", "after dark",
              "night driving", "subtitles", "screen", "seats", "forms", "fill in", "instructions", "label"),
    "cold": ("minus", "below zero", "sub zero", "freezing", "cold weather", "the cold", "snow*", "ski",
             "skiing", "ski tour", "icy", "arctic", "polar", "cold water", "cold plunge", "ice bath", "winter swim*",
             "wild swim*", "northern lights", "blizzard", "hot water bottle", "electric blanket", "hand warmer",
             "in the cold", "very cold", "so cold", "cold at night", "cold night", "gets cold", "get cold",
             "it cold", "freezing at night", "windy", "wind chill", "chilly"),
    "fluids": ("fasting", "a fast", "dry fast", "water fast", "to fast", "ramadan", "heatwave", "heat wave",
               "hot weather", "degrees", "the heat", "too hot", "sauna", "hot yoga", "hangover", "stay cool",
               "marathon", "dehydrat*", "diuretic", "and hot", "so hot", "very hot",
               "be hot", "hot day", "humid", "humidity", "in the sun", "scorching", "sweltering", "hot bath", "hot tub",
               "jacuzzi", "steam room", "somewhere warm", "somewhere hot", "tropical", "winter sun", "how much water",
               "drink water", "water a day", "litres of water", "liters of water", "glasses of water", "cracked lips",
               "lips crack", "dry lips"),
    "language": ("english", "tourist", "foreigner", "translate", "translation", "in english", "americans",
                 "brits", "english speakers", "english speaking", "small talk", "useful phrases"),
    "commute": ("way to uni", "way to school", "way to college", "way to campus", "way to class", "snowing",
                "black ice", "icy roads", "job offer", "offered me", "new job", "new office", "the office", "in the office", "at the office",
                "5am", "6am", "7am", "8am", "get to work", "way to work", "early meeting", "early start", "commute", "commuting", "work from home",
                "remote", "hybrid", "rush hour", "be at work", "late for work",
                "at work by", "at work at", "flooded", "bus stop"),
    "studies": ("exam", "my exam", "the exam", "revision", "revise", "revising", "study plan", "studying", "band score",
                "mock test", "practice test", "essay", "spelling",
                "job offer", "offered a job", "take the job", "while i'm abroad", "move abroad", "relocat*"),
    "devices": ("online class", "online course", "online lesson", "live session", "zoom", "video call", "my setup",
                "livestream", "live stream", "sell online", "online shop", "instagram", "tiktok", "website",
                "software", "webinar", "work from home"),
    "meal": _MEAL,
    "diabetes": ("feet", "foot", "toe", "blister", "shaky", "sweaty", "thirsty", "hypo", "blood sugar", "fasting",
                 "ramadan"),
    "exertion": (*_EXERTION, "lift", "lifting", "heavy", "moving house", "move house", "long drive", "stairs",
                 "gardening", "kneel*", "mattress", "golf", "bowling", "dance", "dancing", "badminton", "volleyball",
                 "rowing", "surfing", "martial arts", "karate", "judo", "padel", "pickleball", "skating", "get moving",
                 "moving more", "more active", "big shop", "weekly shop", "food shop", "shopping bags", "carry",
                 "carrying", "duvet", "hang out the washing", "housework", "spring clean", "hoover", "vacuum",
                 "digging", "shovel*", "new hobby", "at my age", "hunting", "on my feet", "standing all day",
                 "stand all day", "shoes"),
    "motion": ("ferry", "boat", "cruise", "sailing", "kayak*", "canoe*", "bus ride", "coach trip", "long drive",
               "road trip", "winding road", "roller coaster", "rollercoaster", "journey", "whale watching"),
    "walking": ("day trip", "day out", "days out", "sightseeing", "tour", "walking tour", "hike", "hiking", "trail",
                "walk", "walking", "long walk", "ramble", "stairs", "trip", "holiday", "vacation", "city break",
                "coach trip", "coach holiday", "cruise", "excursion", "theme park", "festival", "old town", "cobbled",
                "cobblestone", "hill", "hills", "hilly", "climb", "on foot", "airport", "kneel*", "squat*", "on the floor",
                "floors", "scrub*", "the market", "groceries", "somewhere nice", "outing", "exercise",
                "lose weight", "weight loss", "stand long", "stand for long", "standing long", "on my feet",
                "walk far", "too far", "further away", "far away", "long way", "at my age", "my knee", "my knees",
                "knee pain", "sore knee", "my hip", "hip pain", "upstairs", "downstairs"),
    "mobility": ("basement", "upstairs", "downstairs", "steps", "stairs", "step free", "accessible", "venue", "spot",
                 "restaurant", "bar", "pub", "cafe", "café", "hotel", "airbnb", "day trip", "day out", "hike", "hiking",
                 "trail", "beach", "festival", "concert", "gig", "museum", "gallery", "theatre", "theater", "cinema",
                 "stadium", "tour", "sightseeing", "trip", "holiday", "vacation", "getaway", "flight", "fly", "flying",
                 "plane", "train", "ferry", "old town", "cobbled", "cobblestone", "walking", "long walk", "sit",
                 "sitting", "seat", *_GETTING_THERE, "moving to", "move to", "hill", "hills", "hilly", "steep",
                 "slope", "ramp", "crowds", "for hours"),
    "hearing": ("loud", "noisy", "noise", "call", "video call", "phone call", "conference call", "zoom", "teams call",
                "meeting", "concert", "gig", "nightclub", "club", "party", "lecture", "theatre", "cinema", "hear",
                "hearing", "restaurant", "bar", "pub", "accent", "talk", "a talk", "movie", "film", "a show", "the show",
                "musical",
                "stand-up", "comedy", "quiz", "baby monitor", "doorbell", "smoke alarm", "alarm", "intercom", "interview",
                "guided tour", "tour guide", "get in touch", "subtitles", "captions"),
    "caring": ("go away", "be away", "away for", "time away", "weekend away", "weekend in", "trip", "holiday", "vacation", "travel",
               "abroad", "transfer", "relocat*", "move abroad", "overnight", "stay over", "sleepover", "conference",
               "business trip", "getaway", "for a week", "for two weeks", "for the week", "all day", "long weekend", "we all", "all of us",
               "do together", "whole family", "night out", "date night", "look after", "pet sit", "house sit",
               "before i go", "before we go", "before i leave", "while i'm away", "while we're away", "while i'm gone",
               "while we're gone", "while i'm abroad", "nights away", "to visit", "go visit", "going to visit",
               "fly to", "all go", "i manage", "a few hours", "for hours", "there and back", "round trip"),
    "renting": ("sleep in my room", "sleep at my place", "crash at my place", "stay at my place", "puppy", "puppies", "kitten", "a dog", "a cat", "pet", "get a dog", "get a cat", "paint the", "repaint",
                "wallpaper", "renovat*", "knock through", "put up shelves", "shelves", "drill", "hot tub",
                "trampoline", "shed", "extension", "move out", "deposit", "notice period", "buy a house", "home charger", "solar", "solar panel", "satellite dish", "air con", "heat pump",
                "buy a flat", "first home", "mortgage"),
    "power": ("load shedding", "load-shedding", "power cut", "power outage", "blackout", "outage", "no power",
              "no electricity", "no mains", "off grid", "camping", "tent", "generator", "inverter", "campsite",
              "power keeps", "power goes", "power going", "power went", "electricity", "lights go", "lights going",
              "taken light", "no light", "nepa", "freezer"),
    "pets": ("pet", "pets", "dog", "dogs", "cat", "cats", "puppy", "kitten", "the vet", "vet", "vets", "walkies",
             "dog food", "cat food", "pet food", "kennel", "cattery", "pet sitter", "dog walker", "pet insurance",
             "flea*", "worming", "litter", "litter box", "dog lead", "on a lead", "off lead", "off the lead", "leash", "groomer", "grooming", "chew toy",
             "animal", "animals",
             # plants that poison a cat or a dog: what a pet owner asks before bringing one home
             "houseplant", "house plant", "lily", "lilies", "poinsettia", "oleander", "sago palm", "aloe vera",
             "pothos", "monstera", "peace lily", "dieffenbachia"),
    "pastimes": (*_LEISURE, "into these days", "new sport"),
    "schedule": ("my week", "next week is", "this week is", "fit everything in", "fit it all in", "fit it in",
                 "schedule", "calendar", "timetable", "free time", "spare time", "which night", "which day",
                 "what night", "what day", "free evening", "no time", "never have time", "busy week", "free day",
                 "day off", "days off", "rest day", "am i free", "i'm free", "be free", "appointment",
                 "every week", "each week", "that date", "the date", "that day", "best time to go",
                 "when to go", "when should we go", "when should i go", "i make it", "make it to",
                 "weekend of"),
    "home": ("going home", "go home", "head home", "heading home", "trip home", "back home", "home for christmas",
             "home for the holidays", "home for thanksgiving", "home for easter", "home for eid", "home for diwali",
             "hometown", "visit my parents", "visiting my parents", "see my parents", "seeing my parents",
             "visit my family", "visiting my family", "see my family", "visit my folks", "see my folks"),
    "fandom": (*_LEISURE, "derby", "match", "the game", "big game", "game tonight", "game this weekend", "home opener",
               "opener", "season opener", "fixture", "kick off", "kickoff", "playoff*", "cup final", "final",
               "super bowl", "world series", "league", "premier league", "champions league", "transfer window",
               "season ticket", "away game", "home game", "stadium", "ballpark", "tailgate", "tailgating",
               "jersey", "kit", "scarf"),
    "music": (*_LEISURE, "practise", "practice", "practising", "practicing", "scales", "the keys",
              "recital", "sheet music", "repertoire", "music lesson", "music exam", "grade exam", "metronome",
              "sight reading", "chord*", "tune", "tunes", "songs to learn", "standards", "jam session", "audition",
              "orchestra", "rehearsal", "instrument"),
    "vehicle": ("single charge", "charge", "charging", "charger", "range", "mpg", "fuel", "petrol", "diesel",
                "gas mileage", "mileage", "tyre*", "tire", "tires", "oil change", "mot", "car service",
                "service the car", "car wash", "parking", "park", "roof box", "tow", "towing", "snow chains",
                "breakdown", "breaks down", "break down", "car insurance", "road trip", "long drive", "drive to",
                "driving to", "motorway", "highway", "freeway", "get there", "way to get",
                "the car", "my car", "our car", "clutch", "gearbox", "change gear", "brakes", "engine", "mechanic",
                "dashboard", "warning light"),
    "reading": (*_LEISURE, "audiobook*", "podcast*", "book recommendation", "good book", "book club", "something to read",
                "book to read", "read next", "reading list", "a book", "books", "novel", "beach read", "kindle"),
    "listening": (*_LEISURE, "music", "songs", "podcast*", "audiobook*", "playlist", "album", "put on", "listen*", "record shop", "vinyl",
                  "spotify", "concert", "gig", "festival", "radio"),
    "watching": (*_LEISURE, "something to watch", "watch tonight", "a film", "a movie", "movie night",
                 "film night", "tv",
                 "series", "documentary", "netflix", "binge*", "box set", "put on", "cinema", "streaming"),
    "buckwheat": ("buckwheat", "soba", "juwari", "galette", "kasha", "blini", "blinis", "crepe", "crêpe"),
    "gut": ("onion", "garlic", "bean", "lentil*", "chickpea*", "hummus", "hotpot", "hot pot", "curry", "spicy",
            "chilli", "chili", "fried", "fatty", "greasy", "takeaway", "takeout", "kebab", "souvlaki", "gyro",
            "burger", "chips", "fries", "cream", "creamy", "cheese", "pizza", "bloat*", "loose stool", "stomach",
            "tummy", "constipat*", "diarrhoea", "diarrhea", "wind", "gassy", "fish and chips", "fry up", "fry-up"),
    "flying": ("fly", "flying", "flight", "plane", "airport", "airline", "layover", "stopover", "long haul",
               "way to get", "get there", "get to", "travel to", *_UP_THERE,
               "holiday abroad", "somewhere warm", "somewhere sunny",
               "somewhere hot", "beach holiday", "sun holiday", "winter sun"),
    "dogs": ("dog", "puppy", "puppies", "kennel", "dog friendly", "dog walker", "dog sitting", "shiba", "labrador",
             "poodle", "spaniel", "terrier", "retriever", "collie", "husky", "beagle", "dachshund", "pug", "bulldog",
             "corgi", "chihuahua", "schnauzer", "greyhound", "whippet", "rottweiler", "doberman", "alsatian",
             "german shepherd", "cockapoo", "labradoodle", "jack russell", "staffie", "akita", "malamute"),
    "heights": ("climb*", "hike", "hiking", "mountain", "cable car", "gondola", "viewpoint", "tower", "rooftop",
                "balcony", "ladder", "roof", "skydiv*", "bungee", "zip line", "zipline", "ferris wheel",
                "glass floor", "cliff", "summit", "observation deck", "snow", "skyscraper", "hot air balloon", "ceiling",
                "stepladder", "step ladder", "loft", "attic", "gutter", "scaffold", "scaffolding", "treehouse",
                "outdoor activities", "outdoor adventures", "adventure", "adventurous", "thrill*", "adrenaline",
                "balloon ride", "paraglid*"),
    "water": ("swim*", "pool", "beach", "snorkel*", "scuba", "diving", "kayak*", "surf*", "paddleboard*",
              "water park", "boat", "sailing", "lake", "outdoor activities", "adventure", "adventurous",
              "island", "resort", "bath", "bathtub", "hot bath", "on my own"),
    "sights": ("attraction", "attractions", "cultural experience", "cultural experiences", "things to do",
               "sightseeing", "sights", "must see", "must do", "itinerary", "day trip", "city break", "explore",
               "exploring", "nightlife", "accommodation", "accommodations"),
    "children": ("kid", "children", "child", "toddler", "the baby", "my girls", "my boys", "the girls are", "the boys are",
                 "the little ones", "the little one", "the wee ones", "grandchildren", "grandkid", "family outing",
                 "family day", "family getaway", "family holiday", "family trip", "family friendly", "day out",
                 "for the family", "with the family", "family activity", "family activities", "family weekend",
                 "school holiday", "half term", "babysitter", "babysitting", "playground", "three of us",
                 "four of us", "five of us", "whole family", "stroller", "pram", "buggy", "pushchair", "car seat",
                 "my son", "my daughter", "my kids", "my children", "our son", "our daughter", "our kids", "booster seat",
                 "for all of us", "for everyone", "everyone at home", "bigger car", "family car", "seven seater", "7 seater", "bigger house", "bigger place",
                 "bigger flat", "duplex", "bungalow", "bedrooms", "school run", "school runs", "pick up the kids",
                 "childproof", "child proof", "baby proof", "babyproof", "toddler proof"),
    "money": ("cheap", "cheaper", "cheapest", "cheaply", "afford", "affordable", "budget", "expensive", "pricey",
              "cost", "cost much", "worth buying", "worth it", "worth the money", "splurge", "bonus", "save money",
              "saving money", "birthday present", "christmas present", "trade in", "trading in", "upgrade",
              "lend", "loan", "invest", "investing", "investment", "savings", "overtime", "extra shift", "side hustle", "second job",
              "pay cut", "salary", "payday", "pay day", "windfall", "inheritance", "tax refund", "fair amount",
              "how much to give", "how much should i give", "how much to spend", "how much should i spend",
              "installment", "instalment", "promo", "on sale", "good deal", "fees", "school fees", "tuition", "rent money",
              "bills", "a quote", "the quote", "grant", "financial help", "help with the cost", "help paying", "quit my",
              "quit the", "quitting my", "quitting the", "give up my job", "give up work", "cut my hours", "fewer hours",
              "reduce my hours", "go part time", "going part time", "stop working", "swing it", "the money",
              "whole money", "funded", "funding", "fix it or", "repair or replace", "buy a new one", "worth replacing", "a raise", "pay raise", "money wise",
              "send more money", "send him more", "send her more", "send them more", "my money", "our money",
              "on finance", "pay for a", "pay for the", "pay for it"),
    "getting around": (*_GETTING_THERE, "way to uni", "way to school", "way to college", "way to campus", "get home", "travel down", "travel up", "trip home", "day trip", "car seat",
                       "pram", "stroller", "buggy", "pushchair", "be at work", "late for work",
                       "new place", "moving house", "move house", "new flat", "new apartment", "drive", "driving",
                       "trip", "buy a car", "get a car", "new car", "used car", "second hand car", "her car", "his car",
                       "at night", "after dark", "out tonight", "too far", "not too far", "nearby", "drive myself",
                       "selling his car", "selling her car", "selling their car", "car for sale", "estate car",
                       "hatchback", "evacuat*", "way out of"),
    "transport": (*_GETTING_THERE, "ways to get", "transport", "transportation", "transit", "route from", "travel from",
                  "travel between", "airport transfer", "long drive", "freeway*", "highway*", "motorway*", "interstate",
                  "beltway", "evacuat*", "way out of", "learner permit", "practice driving",
                  "practise driving", "learn to drive", "driving lessons"),
    "stairs": ("stroller", "pram", "buggy", "pushchair", "furniture", "sofa", "couch", "mattress", "wardrobe", "piano",
               "the market", "groceries", "duplex", "bungalow", "two storey", "two story", "bigger house",
               "carry", "carrying", "heavy", "moving house", "move house", "new place", "wheelchair", "washing machine",
               "tumble dryer", "dishwasher", "fridge", "freezer", "appliance", "delivered", "upstairs", "downstairs",
               "top floor", "my bedroom"),
    "sleep": ("sleep", "sleeping", "sleepy", "can't sleep", "insomnia", "tired", "exhausted", "exhaustion", "fatigue",
              "knackered", "nap", "jet lag", "bedtime", "no energy", "low energy", "camping", "tent", "stay up",
              "staying up", "up late", "late night", "all nighter", "midnight", "1am", "2am", "3am", "4am", "overnight",
              "red eye", "sleeper train", "night bus", "campsite", "zombie", "time difference", "time zone",
              "stay awake", "body clock", "go to bed", "early night", "night out", "out late",
              "stay out", "all night", "till late", "until late", "night shift", "work nights",
              "night work", "new year eve", "new years eve", "nye", "after midnight", "after 22", "after 23",
              "11pm", "after 11pm", "newborn", "night feeds", "night feed"),
    "work": ("cover letter", "cv", "resume", "résumé", "job interview", "interview", "job application", "boss",
             "job offer", "offered a job", "take the job", "my business", "my stall",
             "manager", "colleague", "coworker", "co-worker", "out of office", "out-of-office", "pay rise", "raise",
             "promotion", "day off", "days off", "annual leave", "sick day", "sick note", "shift", "rota", "overtime",
             "clients", "customers", "orders", "linkedin", "work email", "my team", "performance review",
             "appraisal", "career", "employer", "hr", "occupational health", "investor", "series a", "seed round",
             "funding round", "fundraising", "pitch deck", "board meeting", "the team", "our team", "offsite",
             "all hands", "parental leave", "maternity leave", "paternity leave", "leave policy", "hiring", "payroll",
             "employees", "my staff", "open the shop", "close the shop", "with the shop", "my shop", "the bakery"),
    "outdoors": ("frost", "freeze", "freezing", "heatwave", "heat wave", "hot weather", "degrees", "storm", "hail",
                 "drought", "hosepipe ban", "outside", "outdoors", "yard", "garden", "gardening", "planting", "hive",
                 "grow", "growing", "seeds", "seedlings", "herbs", "vegetable patch",
                 "bee suit", "swarm"),
    "travel": ("go home to", "going home to", "trip", "holiday", "vacation", "getaway", "go away", "weekend away", "travel", "flight", "fly",
               "flying", "abroad", "babymoon", "hotel", "airbnb", "camping", "cruise", "road trip"),
    "papers": ("visa", "work permit", "residence permit", "my permit", "renew my permit", "residence", "residency", "immigration", "citizenship", "naturalisation",
               "naturalization", "green card", "blue card", "passport", "register my address", "anmeldung",
               "change jobs", "switch jobs", "new job", "quit my job", "leave my job", "lose my job", "laid off",
               "travel abroad", "trip abroad", "leave the country", "flight to", "flights to", "fly to", "book a flight",
               "abroad", "overseas", "out of the country", "re enter", "re-enter", "trip", "holiday", "vacation", "to visit",
               "conference", "congress", "symposium", "cash in hand", "second job", "side job", "extra job",
               "part time job", "weekend job", "another job",
               "go visit", "going to visit"),
    "sesame": ("sesame", "tahini", "hummus", "houmous", "halva", "halwa", "falafel", "baba ganoush", "bagel",
               "burger bun", "sushi", "stir fry", "stir-fry", "bibimbap", "dan dan", "furikake", "za'atar"),
    "soy": ("soy", "soya", "tofu", "edamame", "miso", "tempeh", "soy sauce", "teriyaki", "stir fry", "stir-fry",
            "biscuit", "rusk", "baby food", "baby formula", "cereal bar",
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
                   "voltaren", "cold and flu", "headache tablet", "period pain", "migraine tablet", "paracetamol",
                   "panadol", "pamol", "tylenol", "acetaminophen", "calpol"),
    "antibiotic": ("antibiotic", "penicillin", "amoxicillin", "amoxil", "augmentin", "prescription", "prescribed",
                   "infection", "chest infection", "strep", "uti", "tooth abscess"),
    "wildlife": ("safari", "national park", "game drive", "jungle", "rainforest", "the bush", "bushwalk*", "forest",
                 "hike", "hiking", "trek*", "camping", "campsite", "field trip", "field visit", "site visit", "farm",
                 "countryside", "wildlife", "nature reserve", "reptile", "paddy", "paddies", "rice field", "swamp",
                 "wetland", "marsh", "cave"),
    "long journey": ("long flight", "long haul", "long drive", "hours by road", "hours on the road", "hours in the car",
                     "hour drive", "hours drive", "drive or fly", "road trip", "overnight bus", "long journey",
                     "long train", "coach trip", "long bus", "in one go", "stop overnight", "overnight stop",
                     "drive down", "drive up", "drive out", "the drive", "for hours", "hours on end"),
    "space": ("sleep in my room", "sleep at my place", "crash at my place", "stay at my place", "stay with us", "stay with me", "staying with us", "staying with me", "stay over", "put them up",
              "put him up", "put her up", "guest room", "spare room", "sofa bed", "air mattress", "visit us",
              "visiting us", "come to stay", "come and stay", "dinner party",
              "big tv", "new sofa", "new furniture", "a piano"),
    "shelter": ("cyclone", "hurricane", "typhoon", "storm", "flood*", "tornado", "high winds", "gale", "wildfire",
                "bushfire", "earthquake", "heavy rain", "rainy season", "monsoon", "heatwave", "heat wave",
                "get the house ready", "prepare the house", "storm proof"),
    "moving": ("packing up", "pack up", "moving boxes", "removal van", "removals", "removal firm", "movers",
               "moving day", "moving company", "change of address", "change my address", "redirect my post",
               "forward my mail", "house move", "moving checklist", "moving house", "declutter*"),
    "wedding": ("wedding", "bride", "groom", "best man", "bridesmaid", "maid of honour", "engagement party",
                "honeymoon", "the reception", "marry", "married"),
    "calendar": ("this summer", "next summer", "in summer", "this winter", "next winter",
                 "this autumn", "this spring", "next spring", "next autumn", "this fall", "next fall", "in the spring", "pick a date", "choose a date", "set a date", "a date for", "this year", "next year", "best time to go", "when to go", "which month", "what month", "that date",
                 "those dates", "the dates", "months",
                 # an away message gives the dates the asker is away: "write my out-of-office"
                 "out of office", "out-of-office", "auto-reply", "autoreply", "away message"),
    "legume": ("hummus", "houmous", "falafel", "chickpea*", "lentil*", "dal", "dhal", "daal", "chana", "pea", "split pea",
               "mezze", "meze", "middle eastern", "lebanese", "pea protein"),
    "sun": ("beach", "beach day", "sand", "desert", "dune*", "sun", "sunny", "sunshine", "sunbath*", "sunbed", "tanning",
            "in the sun", "fun run", "picnic", "pool day", "pool party", "festival", "somewhere warm", "somewhere sunny",
            "somewhere hot", "winter sun", "tropical", "heatwave", "heat wave", "outdoors", "camping", "safari",
            "boat trip"),
    "dosing": ("my tablets", "my pills", "my meds", "my medication", "my medicine", "my dose", "my doses", "doses",
               "time difference", "time zone", "jet lag", "long flight", "long haul", "before the flight",
               "on the flight", "sleepover", "fasting", "ramadan", "calcium", "antacid", "iron tablets"),
    "flashing": ("laser", "laser show", "strobe*", "flashing", "light show", "disco", "fireworks", "rave", "nightclub",
                 "video game", "arcade", "vr", "virtual reality", "vr headset", "flicker*", "blinking", "clubbing",
                 "club night", "gaming", "rhythm game"),
    "crowds": ("crowd", "crowds", "crowded", "packed", "festival", "concert", "gig", "parade", "carnival", "stadium",
               "open air", "fireworks", "procession", "rally", "funfair", "the fair", "school fair", "big event", "busy place",
               "mass"),
    "passengers": ("for a lift", "give him a lift", "give her a lift", "give them a lift", "hitchhiker", "hitchhiking",
                   "come with me", "come along", "ride along", "ride with me", "passenger", "bring him along",
                   "bring her along", "him with me", "her with me", "them with me"),
    "dexterity": ("drill", "diy", "shelves", "screwdriver", "screws", "flat pack", "flatpack", "assemble", "sewing",
                  "knitting", "crochet", "typing", "buttons", "fiddly", "jar", "chopping", "power tool", "tools"),
    "fitness": (*_WEIGHT_LOSS, "healthy", "healthier", "get fit", "fitness plan", "workout plan", "exercise plan", "training plan", "tone up",
                "build muscle", "get in shape", "exercise routine", "calorie*", "diet plan", "portion size"),
    "caffeine": ("coffee", "cafe", "café", "coffee shop", "hot drink", "warm drink", "espresso", "latte", "cappuccino",
                 "tea", "cola", "coke", "energy drink", "red bull", "matcha", "chocolate", "pre-workout", "beverage"),
    "airways": ("smoke", "smoky", "smoking", "bonfire", "burning leaves", "burning trash", "burning rubbish",
                "wildfire smoke", "haze", "air quality", "pollution", "cough", "coughing", "wheeze", "wheezy", "wheezing",
                "breathless", "short of breath", "chest infection"),
    "toilet": ("toilet", "toilets", "washroom", "restroom", "bathroom", "loo", "portaloo", "bathroom breaks", "no toilet",
               "long bus", "bus ride", "coach trip", "day trip", "queue", "stadium"),
    "stones": ("spinach", "rhubarb", "beetroot", "almond*", "oxalate*", "iced tea", "how much water", "drink water",
               "protein shake", "vitamin c"),
    "contact": ("manicure", "pedicure", "nails done", "gel nails", "acrylic*", "nail salon", "nail polish", "nail art",
                "fumes", "ventilation", "hair dye", "dye my hair", "perfume", "earrings", "jewellery", "jewelry",
                "cleaning products", "bleach", "gloves"),
}
"""Everyday words that touch each concern (allergen sources, what rules out alcohol, pregnancy precautions,
what thins the blood or meets a blood thinner, where latex is, what sugar and salt are in, the painkillers and
antibiotics a drug allergy rules out, a visit to a clinician or a symptom, a meal, what a diabetic watches,
exercise)."""

_FACT_RE = {name: re.compile(p, re.IGNORECASE) for name, p in FACT_CONCERNS.items()}
_LIMIT_RE = {name: re.compile(p, re.IGNORECASE) for name, p in LIMIT_CONCERNS.items()}
ADDED_CONCERNS = frozenset({"packing"})
"""Concerns a follow-up adds to the topic it goes on with rather than changing it: "And what could I pack for my
break?" after a question about what to eat on a night shift is still about food (what to pack goes with any trip
or outing)."""

_SITUATION_RE = {name: re.compile(p, re.IGNORECASE) for name, p in SITUATION_CONCERNS.items()}
_PACKED_FOOD = re.compile(r"\b(?:lunch\w*|snacks?|sandwich\w*|picnic|food|meals?|breakfast|dinner)\b", re.IGNORECASE)


_QUESTION_WORDS = PhraseTable.of(QUESTION_CONCERNS)  # every question word, phrase and prefix ("anchov*")
# an amount of money: "What's the smartest thing to do with R5,000?", "Is 300 euros too much for a pram?"
_AMOUNT = re.compile(r"[$£€¥₹₱₦₩₪₺₴₫฿₵]\s?\d|\b[Rr]\s?\d[\d,]{2,}\b|\b(?:rp|rs|ksh|kes|php|idr|pln|inr|zar|ngn|ghs)\.?\s?\d|"
                     r"\b\d[\d,.]*\s*(?:juta|ribu|lakhs?|crores?|euro|zł|złoty|zlotys|kr)(?!\w)|"
                     r"\b\d[\d,.]*\s*(?:k\s+)?(?:(?:us|fiji|fijian)\s+)?(?:dollars|pounds|euros|"
                     r"quid|bucks|rand|yen|rupees|francs|zloty|pesos|lei|ringgit|baht|naira|shillings|cedis|reais|rupiah|"
                     r"kronor|krona|forint|lira|dirhams|riyals|yuan|shekels)\b|\b(?:hundred|thousand|million)\s+(?:pounds|dollars|euros|"
                     r"quid|bucks|rand|pesos|shillings|rupees|naira|shekels|riyals|dirhams)\b|\b(?:a|\d+)\s+grand\b|\b(?:fjd|rm|usd|eur|gbp|aud|nzd|cad)\s?\d", re.IGNORECASE)
# the words of a question no table row can list: a weekday's habit or "am I free" (the week's fixed hours), a
# distance (walking), where visitors will sleep (a small home), a month to come (a commitment on a date), nights away
_QUESTION_PATTERNS = {
    "schedule": re.compile(rf"\b(?:every|each)\s+{_DAY}\b|\b{_DAY}s\b|\bam\s+i\s+(?:\w+\s+)?free\b|"
                           # a plan on a date: "on Saturday the 6th", "the 14th, a Saturday"
                           r"\bthe\s+\d{1,2}(?:st|nd|rd|th)\b", re.IGNORECASE),
    # what a pastime needs bought ("What shoes should I buy?": climbing shoes, running shoes), and a present for
    # oneself: the asker's hobbies are what it is for; not shoes for a wedding or an interview
    "pastimes": re.compile(
        r"\b(?:buy|get|need|choose|pick|recommend)\b[^.?!]{0,30}?\b(?:shoes|boots|trainers|sneakers|gear|kit|equipment)\b"
        r"(?![^.?!]{0,30}?\b(?:wedding|funeral|interview|office|suit|dress|party|school|uniform|prom)\b)|"
        r"\b(?:shoes|boots|trainers|sneakers|gear|kit|equipment)\b[^.?!]{0,20}?\b(?:should|do|would)\s+(?:i|you)\s+"
        r"(?:buy|get|recommend)\b(?![^.?!]{0,30}?\b(?:wedding|funeral|interview|office|suit|dress|party|school|uniform|prom)\b)|"
        r"\b(?:present|gift|treat)\s+(?:\w+\s+)?for\s+myself\b|\b(?:treat|spoil)\s+myself\b|"
        r"\bbuy\s+myself\b",
        re.IGNORECASE),
    "walking": re.compile(r"\b\d[\d,.]*\s*(?:m|km|metres|meters|miles|yards)\b(?!\s*(?:²|2\b))", re.IGNORECASE),
    # more money sent or paid than usual: "Can I send mum something extra?", "pay her more this month"
    "money": re.compile(r"\b(?:send|pay|lend)\s+(?:\w+\s+){0,2}?(?:more|extra|something\s+extra)\b"
                        r"(?!\s+(?:time|attention|thought|details?|info\w*|examples?|photos?|pictures?))", re.IGNORECASE),
    "space": re.compile(r"\bwhere\s+(?:will|would|are|can|do|should|is)\s+(?:\w+\s+){1,3}?(?:sleep|stay)\b", re.IGNORECASE),
    # a month's name past a sentence's first word, capitalised ("in May", not "may I")
    "calendar": re.compile(r"(?<=\s)(?:" + "|".join(m.capitalize() for m in MONTH_NAMES) + r")\b"),
    # a trip of some days: "plan us 5 days", "four nights in Porto"
    "travel": re.compile(r"\bplan\s+(?:us|me)\s+(?:a\s+)?(?:\d+|two|three|four|five|six|seven|ten)[\s-](?:days?|nights?)\b|"
                         r"\b(?:\d+|two|three|four|five|six|seven|ten)\s+(?:days|nights)\s+(?:in|on|at|around)\s+(?-i:[A-Z])",
                         re.IGNORECASE),
    # a car for sale by its year and make: "selling his 2016 Skoda Octavia"
    "getting around": re.compile(r"\b(?:sell(?:s|ing)?|buy(?:ing)?|bought|for\s+sale)\b[^.?!]{0,30}?\b(?:19[89]\d|20[0-2]\d)\s+"
                                 r"(?-i:[A-Z])[a-z]+\s+(?-i:[A-Z])\w+", re.IGNORECASE),
    # a cold day told by its temperature: "6 degrees and windy"
    "cold": re.compile(r"\b(?:minus\s+\d+|-\d+|[0-9]|1[0-2])\s*(?:degrees|°c?)(?!\s*f)", re.IGNORECASE),
    "fitness": re.compile(r"\blose\s+(?:\d+|a\s+few|some)\s*(?:kg|kgs|kilos?|lbs?|pounds|stone)\b", re.IGNORECASE),
    # a medicine named by its family's ending: "propranolol", "ramipril", "omeprazole"
    "clinic": re.compile(r"\b\w{3,}(?:olol|pril|sartan|statin|prazole|mycin|cillin|floxacin|azepam|triptan|gliptin|dipine)\b",
                         re.IGNORECASE),
    # a journey of many hours: "the bus is six hours", "a 9-hour drive"
    "long journey": re.compile(r"\b(?:bus|coach|drive|flight|train|journey|ride)\s+(?:is|takes|would\s+take|will\s+take)\s+"
                               r"(?:about\s+|around\s+|over\s+)?(?:\d+|four|five|six|seven|eight|nine|ten|eleven|twelve)\s+hours?\b|"
                               r"\b(?:\d+|four|five|six|seven|eight|nine|ten|eleven|twelve)[\s-]hours?\s+(?:drive|flight|bus|coach|train|journey|ride)\b|"
                               # "The minibus home is on the 15th, 13 hours"
                               r"\b(?:bus|minibus|coach|drive|flight|train|journey|ride)\b[^.?!]{0,40}?\b(?:[5-9]|1\d|2\d|five|six|seven|"
                               r"eight|nine|ten|eleven|twelve)\s+hours\b|"
                               # hundreds of kilometres or miles by road: "It's about 5,000 km", "300 km home"
                               r"\b(?:[1-9]\d{2,}|\d{1,3}(?:,\d{3})+)\s*(?:km|kms|kilometres|kilometers|miles)\b",
                               re.IGNORECASE),
    "caring": re.compile(r"\bfor\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a\s+few|several|a\s+couple\s+of)\s+"
                         r"(?:nights|weeks|days)\b", re.IGNORECASE),
}
_MEDICAL = re.compile(
    r"\b(?:allerg\w*|intoleran\w*|anaphyla\w*|medication\w*|medicine\w*|takes?|taking|prescri\w*|pregnan\w*|"
    r"diabet\w*|prediabet\w*|asthma\w*|epilep\w*|blood\s+pressure|hypertension|inhaler\w*|coeliac|celiac|gout|"
    r"ibs|irritable\s+bowel|crohn'?s|colitis|breast[\s-]?feed\w*|condition|hepatitis|cirrhosis|gallstones?)\b",
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
    if "packing" in limits and all(negated_at(text, m.start()) for m in _SITUATION_RE["packing"].finditer(text)):
        limits.discard("packing")  # "User does not take any medication.": nothing to pack
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
    ['alcohol', 'blood thinner', 'gluten', 'hearing', 'mobility', 'pregnancy', 'sulphite']
    """
    folded = fold(text)
    tokens = [t.removesuffix("'s") for t in TOKEN.findall(folded)]  # "the baby's first Easter": the baby
    found: set[str] = set(("money",) if _AMOUNT.search(text) else ())
    found.update(concern for concern, rx in _QUESTION_PATTERNS.items() if rx.search(text))
    found |= _QUESTION_WORDS.rows_in(tokens, folded)
    if not found.isdisjoint(_EATEN) and NOT_FOOD.search(folded):
        found -= _EATEN  # "What should I wear to the dinner?": not a question about what to eat
    if "packing" in found and _PACKED_FOOD.search(folded):
        found.discard("packing")  # "What should I pack for her lunch?": food, not a trip's bags
    return frozenset(found)
