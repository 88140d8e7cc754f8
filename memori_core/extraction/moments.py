"""A passing moment or a plan: dropped, or kept with an expiry.

"I'm tired today", "I'm on the bus", "I have a headache", "I'm at Starbucks now", "I'm in London for a conference"
and "I went to a gig last night" pass and are dropped; "I'm so stressed these days" is kept for a couple of weeks,
"I have a dentist appointment at 4" until the day is over, "I have my cousin's wedding May 25-27" until its last
day is over (told as over, "I had my cousin's wedding May 15-17", it was over when said), "I'm busy this month with
exams" and "We're flying to Lisbon next month" until that month ends; "I'm in Rome this week" is no moment, but a
stay kept until its end (:mod:`.stays`). :func:`moment` gives the verdict. Pure:
patterns, English only.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone

from ..calendar_words import ANY_MONTH, MONTH_NAMES, WEEKDAYS_PLURAL
from ..number_words import count_of, number_words
from ..ranking.care import is_care_fact
from ..slots import PERSON
from .dates import IN_SPAN, WEEKDAY, span_days
from .patterns import I_OR_WE_ARE, MY_PERSON_NAMED, rx
from .rewrite import article, as_fact
from .activities import PETS
from .asides import lost_track, passing_aside
from .one_offs import moved_about_the_home, one_off_act
from .recent_states import recent_state
from .cues import is_change
from .health import BODY_PART
from .slots import slots_of
from .stays import away_until
from .tails import cut_aside, without_request
from .verdicts import DROP_EPHEMERAL, KEPT_EXPIRING, KEPT_REWRITTEN

__all__ = ["CLOCK", "MOOD_LIFETIME", "NOW_WORDS", "SOON", "moment"]

# "I'm tired today", "I'm so hungry right now", "I just had lunch": a passing state, not a fact.
_STATE = (
    r"(?:tired|exhausted|sleepy|hungry|thirsty|starving|bored|stressed|sick|ill|cold|hot|busy|sad|upset|angry|"
    r"annoyed|anxious|nervous|excited|grumpy|cranky|in\s+a\s+(?:bad|good|great|terrible)\s+mood|"
    r"knackered|shattered|wiped\s+out|worn\s+out|drained|jet-?lagged|hungover|sore|stuffed|full(?!-)|freezing|"
    r"boiling|soaked|frazzled|fed\s+up|under\s+the\s+weather|wrecked|beat|off\s+sick|off\s+work|"
    r"on\s+(?:vacation|holiday|a\s+break|my\s+lunch\s+break|a\s+trip)|"
    r"having\s+a\s+(?:rough|bad|good|great|long|tough|hard|busy|lazy|slow|crazy|terrible)\s+(?:day|week|morning|night)|"
    r"(?:just\s+)?(?:watching|sitting|lying|waiting|queuing|queueing|getting\s+ready\s+for\s+(?:work|bed|school)|"
    r"making\s+(?:dinner|lunch|breakfast|tea|coffee)|having\s+(?:lunch|dinner|breakfast|a\s+(?:coffee|drink|snack|"
    r"break|nap|bath|shower)))|"
    r"at\s+the\s+(?:airport|office|gym|station|mall|dentist|doctor's|supermarket)|on\s+my\s+way|running\s+late|"
    # a place to eat or go out named by its kind: "I'm at a Lebanese restaurant with friends", "at the new pub"
    r"at\s+(?:a|an|the|this|that)\s+(?:[\w'-]+\s+){0,2}?(?:restaurant|cafe|café|coffee\s+shop|diner|bistro|pub|bar|"
    r"brewery|wine\s+bar|gig|concert|festival|party)(?!\s+(?:job|work|shift|manager|owner|staff))\b|"
    r"late|home|back|here|off\s+today|"
    # a visit told as passing: "I'm only visiting Lisbon", "we're just passing through" (issue 21, capfix40b)
    r"(?:only|just)\s+(?:visiting|passing\s+through)|"
    # drink or drugs, a period, a mood, the body for a day: "I'm drunk", "I'm on my period", "I'm so bloated"
    r"drunk|tipsy|wasted|hammered|smashed|plastered|sloshed|buzzed|stoned|(?:high|baked)(?=\s*(?:[.!,]|$))|"
    r"hung\s+over|on\s+(?:my|the|her)\s+period|on\s+the\s+rag|pms-?ing|"
    r"lonely|heartbroken|crying|pumped|hyped|gutted|devastated|furious|irritated|frustrated|overwhelmed|"
    # anger of the moment, a night short of sleep: "I'm fuming", "i'm running on 4 hrs of sleep"
    r"fuming|livid|seething|running\s+on\s+(?:empty|fumes|(?:[\w-]+\s+){1,2}?(?:hours?|hrs?)\s+(?:of\s+)?sleep)|"
    # a mood said in a figure: "I'm all over the place", "I'm a wreck", "I'm over the moon", "I'm in bits"
    r"all\s+over\s+the\s+place|(?:a|such\s+a)\s+(?:bit\s+of\s+a\s+)?(?:mess|wreck|nervous\s+wreck)|"
    r"(?:a|such\s+a)\s+state(?=\s*(?:[.!,]|$))|"
    r"in\s+(?:bits|pieces|tears|shock|denial|a\s+state(?=\s*(?:[.!,]|$|of\s+(?:shock|panic)))|a\s+daze|a\s+funk|"
    r"a\s+rut)|falling\s+apart|over\s+the\s+moon|"
    r"on\s+cloud\s+nine|beside\s+myself|losing\s+(?:my\s+mind|it)|going\s+(?:crazy|insane|mad)|"
    r"out\s+of\s+it|not\s+(?:ok|okay|doing\s+(?:well|great|good))|"
    r"miserable|worried|panicking|freaking\s+out|on\s+edge|restless|pissed(?:\s+off)?|"
    r"(?:scared|terrified|afraid)(?!\s+of\b)|down(?!\s+(?:to|for|with|syndrome)\b)|"
    r"bloated|nauseous|dizzy|constipated|sunburn(?:t|ed)|jet\s+lagged|sleep[\s-]deprived|dehydrated|achy|"
    r"in\s+(?:(?:so\s+much|a\s+lot\s+of)\s+)?pain|in\s+labou?r|"
    r"having\s+a\s+(?:panic\s+attack|anxiety\s+attack|meltdown)|"
    # "I'm so behind on the chapter": work running late, not a debt ("behind on my rent" is kept)
    r"(?:way\s+|a\s+bit\s+|really\s+)?behind(?=\s+(?:on|with)\b|\s*(?:[.!,]|$))(?!\s+(?:on|with)\s+(?:my\s+|the\s+|our\s+)?"
    r"(?:rent|mortgage|bills?|payments?|taxes|council\s+tax|child\s+support)\b)|"
    # where the user is, or what they are doing, right now: "I'm on the bus", "I'm stuck in traffic", "I'm at work"
    r"at\s+(?:work|home|the\s+(?:pub|bar|park|beach|shops?|store|cinema|movies|hospital|pharmacy|library|"
    r"restaurant|cafe|hairdresser's|barber's|vet's?|club|party|game|match|concert|pool|zoo|museum))|"
    r"at\s+(?:my|our|a)\s+(?:[\w-]+\s+)?[\w-]+'s?(?:\s+(?:house|place|flat))?(?=\s*(?:[.!,]|$|for|with|now))|"
    r"on\s+(?:the|a|my)\s+(?:bus|train|tube|subway|metro|tram|plane|flight|ferry|boat|coach)|"
    r"in\s+(?:the|a|my)\s+(?:car|cab|taxi|uber|queue|line|shower|bath|waiting\s+room|meeting|lecture)|"
    r"in\s+(?:bed|class|traffic|a\s+meeting|hospital|the\s+hospital)|stuck\s+(?:in|at|on)\b|outside|"
    r"(?:driving|cooking)(?=\s*(?:[.!,]|$))|cooking\s+(?:dinner|lunch|breakfast)|"
    r"out\s+(?:shopping|for\s+(?:a\s+)?(?:walk|run|drinks?|dinner|lunch|breakfast|coffee)))"
)
# "I'm at Starbucks now", "I'm in London now for a conference", "I'm at Heathrow, flight delayed", "We're in Rome for
# a wedding": where the user is for the moment, a stop or a visit, not where they live or work ("I'm in Lisbon now
# for good" is a move, "I'm at Meta" may be a job: neither says it is passing).
_PASSING_WHEREABOUTS = rx(
    r"^" + I_OR_WE_ARE + r"\s+(?:currently\s+|just\s+|still\s+)?(?P<prep>at|in)\s+(?:the\s+)?"
    r"(?-i:[A-Z])[\w'&.-]*(?:\s+(?-i:[A-Z])[\w'&.-]*)*(?P<rest>.*)$"
)
_NOW_ONLY_AT = rx(r"^\W*(?:now|right\s+now|at\s+the\s+moment|currently)\W*$")  # "at Starbucks now" (not "in Exeter now")
_VISIT = (
    r"work|business|(?:a\s+|an\s+|the\s+|my\s+|our\s+)?(?:[\w'-]+\s+){0,2}?(?:conference|meeting|wedding|funeral|trip|visit|"
    r"holiday|vacation|gig|concert|match|game|festival|show|course|training|workshop|interview|layover|stopover|"
    rf"appointment|party|stag|hen\s+do)s?|(?:a|the|{number_words('five')}|a\s+few|a\s+couple\s+of|\d+)\s+"
    r"(?:days?|nights?|weeks?)|the\s+(?:day|night|weekend|week)|a\s+(?:day|night|weekend|week)"
)
_ONLY_FOR_NOW = rx(
    r"^\W*(?:now\s+)?(?:right\s+now|at\s+the\s+moment|currently|today|tonight|"
    r"this\s+(?:morning|afternoon|evening|week|weekend))\W*$"
    rf"|\bfor\s+(?:{_VISIT})\b"
    r"|\bon\s+(?:a\s+)?(?:business|holiday|vacation|(?:work\s+)?trip|layover|stopover|break|day\s+out)\b"
    r"|\b(?:visiting|waiting|queuing|queueing|grabbing|having\s+(?:a|an|some|lunch|dinner|breakfast|coffee|drinks)|"
    r"stuck|delayed|cancell?ed|flight|boarding)\b"
)
# "I've got my period", "I had too much to drink": a state of the day, told with "have". A bare "I have work",
# "I've got work in the morning" (the excuse after "I can't go"): the day's plan, no job ("I finally have work", "I
# have work again" are news of one, kept; issue 21, capfix40b).
_PASSING_HAVE = rx(
    r"^(?:i|we)(?:\s+|(?='))(?:"
    # the day's work as an excuse, said in the present ("I have work tomorrow", "I've got work"); not the news of a
    # job ("I got work!", "I had work") (rev40e finding 2)
    r"(?:have|'ve\s+got|have\s+got)\s+work(?:\s+(?:to\s+do|today|tonight|tomorrow|early|late|later|then|that\s+day|"
    r"after|in\s+the\s+(?:morning|afternoon|evening)|at\s+\d[\w:.]*|(?:till|until)\s+\d[\w:.]*))?\s*(?:[.!,]|$)|"
    # how much work there is, a remark on the workload, no job ("I have a lot of work", "I've got loads of marking
    # this week"; cap41), in the past or denied too ("I had a lot of work last week", "I don't have a lot of work")
    r"(?:have|'ve\s+got|have\s+got|got|had|'ve\s+had|have\s+had|haven't\s+got|(?:don't|do\s+not|didn't|did\s+not)"
    r"\s+have)\s+(?:(?:a\s+lot|lots|loads|tons|a\s+ton|heaps|a\s+mountain|a\s+pile|piles)"
    r"\s+of|(?:so|too|way\s+too)\s+much(?:\s+of)?)\s+(?:work|homework|coursework|marking|revision|"
    r"assignments|emails|deadlines|admin|paperwork)(?:\s+(?:to\s+do|on|at\s+the\s+moment|right\s+now|today|"
    r"tonight|yesterday|this\s+(?:week|weekend|month)|last\s+(?:night|week|weekend|month)|lately|these\s+days))*"
    r"\s*(?:[.!,]|$)|"
    r"(?:(?:have|'ve)\s+(?:just\s+)?(?:got|had)|have|got|just\s+got|had)\s+(?:"
    r"(?:my|the|her)\s+period|(?:way\s+)?(?:too\s+much|one\s+too\s+many|a\s+(?:few|lot|bit\s+too\s+much))"
    r"(?:\s+(?:to\s+drink|drinks|beers|glasses\s+of\s+wine|wine|beer))?(?=\s*(?:[.!,]|$|to\s+drink|tonight|today))))"
)
# "I'm so stressed these days", "I've been feeling down lately": a mood that lasts a while, not a trait: kept for
# a couple of weeks.
_MOOD_FOR_A_WHILE = rx(r"\b(?:these\s+days|lately|recently|at\s+the\s+moment|this\s+(?:week|month))\b")
MOOD_LIFETIME = timedelta(days=14)
"""How long "I'm stressed about work these days" is kept: a mood of the weeks, not a trait of the user's."""
_EPHEMERAL_STATE = rx(
    rf"^(?:i'm|i\s+am|im|i\s+feel|i'm\s+feeling|i\s+am\s+feeling|we're|we\s+are|we\s+feel)\s+"
    rf"(?:so\s+|really\s+|very\s+|a\s+bit\s+|"
    rf"kind\s+of\s+|pretty\s+|super\s+|quite\s+)?{_STATE}\b"
)
# "my mum is freaking out", "My dad is furious": the passing state of someone of the user's, said with nothing more
# ("My kids are so excited about summer break" says what about).
_THEIR_STATE = rx(
    rf"^{MY_PERSON_NAMED}\s+(?:is|are|seems|looks)\s+"
    rf"(?:so\s+|really\s+|very\s+|a\s+bit\s+|pretty\s+|super\s+|quite\s+|absolutely\s+|totally\s+)?{_STATE}"
    r"\s*(?:[.!,]|$|today\b|tonight\b|right\s+now\b|at\s+the\s+moment\b)"
)
# "My legs are absolutely wrecked after the half marathon", "my feet are killing me": a part of the body sore for a
# day or two (not "my knees are shot", "my back is bad": what lasts).
_SORE_FOR_NOW = rx(
    rf"^(?:my|our)\s+{BODY_PART}(?:'s|'re|\s+(?:is|are|feel|feels))\s+(?:(?:so|really|absolutely|totally|completely|"
    r"a\s+bit|properly|still)\s+)*(?:wrecked|destroyed|killing\s+me|aching|achy|stiff|sore|jelly|dead|on\s+fire)"
    r"(?=\s*(?:[.!,;]|$|(?:after|from|today|tonight|this\s+morning|right\s+now|now)\b))"
)
# "my flight to Dubai got cancelled AGAIN", "our train was delayed": a hitch of the day's travel or delivery (a trip
# called off is read apart: .trips).
_HITCH = rx(
    r"^(?:my|our)\s+(?:[\w'-]+\s+){0,3}?(?:flight|train|bus|ferry|connection|parcel|package|delivery|order)\b"
    r"(?:\s+(?:to|from|for)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+)?\s+(?:got|was|were|has\s+been|have\s+been|is|are|'s)\s+"
    r"(?:just\s+|been\s+)*(?:cancell?ed|delayed|diverted|overbooked|lost|stuck)\b"
)
# "my juniper looks sad", "my slides are a mess", "my neighbours are thrilled": how something of the user's looks or
# is taken for the moment (not "my back is bad", "my flat is tiny": what lasts).
_LOOKS_FOR_NOW = rx(
    r"^(?:my|our)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+(?:'s|'re|\s+(?:is|are|looks?|seems?))\s+(?:(?:so|really|a\s+bit|pretty|"
    r"very|kinda|absolutely|totally|a\s+little)\s+)*(?:(?:a|such\s+a)\s+(?:bit\s+of\s+a\s+)?(?:mess|disaster|"
    r"nightmare|shambles)|sad|droopy|miserable|thrilled|chuffed|delighted|over\s+the\s+moon|fuming|livid|"
    r"not\s+happy|unimpressed|in\s+(?:a\s+)?(?:state|shock|bits))(?=\s*(?:[.!,;]|$|(?:today|now|right\s+now|again)\b))"
)
# "I've been shattered lately", "I've been feeling rubbish": a mood or tiredness told in the perfect, read as
# "I'm shattered" is (not "I've been vegan", "I've been married for years", "I've been back in Leeds since May").
_MOOD_SO_FAR = rx(
    r"^(?:i|we)(?:'ve|\s+have)\s+been\s+(?:feeling\s+)?(?:so\s+|really\s+|very\s+|a\s+bit\s+|pretty\s+|super\s+|"
    r"quite\s+|absolutely\s+|totally\s+|utterly\s+)?(?:tired|exhausted|shattered|knackered|drained|wiped\s+out|"
    r"worn\s+out|run\s+down|rubbish|awful|terrible|rough|crap|crappy|low|down|flat|meh|stressed(?:\s+out)?|anxious|"
    r"overwhelmed|sad|lonely|miserable|grumpy|irritable|cranky|moody|off|under\s+the\s+weather|out\s+of\s+sorts|"
    r"not\s+myself|sleepy|bored|restless|fed\s+up|frazzled|snowed\s+under|swamped|flat\s+out|on\s+edge)"
    r"(?=\s*(?:[.!,;]|$|lately|recently|these\s+days|at\s+the\s+moment|this\s+(?:week|month)|for\s+(?:a\s+)?"
    r"(?:while|few|couple|weeks|days)|all\s+(?:week|month)|since|and|but|with|about|because))"
)
# "My back's flared up again", "My knee has been playing up": a flare of a part of the body or a condition, news for
# a couple of weeks (not "My asthma flares up in winter", which recurs, nor "My back is bad", the lasting state).
_FLARE_UP = rx(
    r"^(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:[\w-]+)(?:'s|\s+has|\s+is|\s+have|\s+are)\s+(?:been\s+)?"
    r"(?:(?:really|properly|badly|totally)\s+)?(?:flared\s+up|flaring(?:\s+up)?|playing\s+up|acting\s+up|"
    r"giving\s+me\s+(?:grief|gyp|jip|hell|trouble))\b"
)
NOW_WORDS = rx(
    r"\b(?:today|tonight|right\s+now|at\s+the\s+moment|this\s+(?:morning|afternoon|evening|week|weekend)|"
    r"(?:for|over)\s+the\s+(?:weekend|day|night)|for\s+(?:dinner|lunch|breakfast)|"
    rf"just\s+now|later\s+today|later(?:\s+on)?(?=\s*(?:[.!,]|$))|in\s+(?:a|an|{number_words('five')}|ten|twenty|thirty|a\s+few|\d+)\s+"
    r"(?:minutes?|mins?|hours?|hrs?))\b"
)
_MOMENT_VERB = rx(
    r"^(?:i'm|i\s+am|im|i\s+feel|i'm\s+feeling|i\s+have\s+a|i've\s+got\s+a|i\s+had|i\s+ate|we're|we\s+are|"
    r"we\s+have\s+a|we've\s+got\s+a|we\s+had)\b"
)
# "I have a headache", "I've got the flu": an ailment that passes ("I get migraines" is kept).
_AILMENT = rx(
    r"^(?:i|we)(?:\s+|(?='))(?:have|'ve\s+got|have\s+got|got|caught|'ve\s+caught|think\s+i\s+have|"
    r"think\s+i'm\s+getting|am\s+getting|'m\s+getting|'m\s+coming\s+down\s+with|am\s+coming\s+down\s+with)"
    r"\s+(?:a|an|the)\s+"
    r"(?:(?:bit\s+of\s+a|slight|bad|terrible|splitting|mild|nasty|killer|awful|horrible|stinking|pounding|really\s+bad)"
    r"\s+)*(?:headache|hangover|cold|fever|cough|sore\s+throat|stomach\s?ache|tummy\s+ache|toothache|earache|"
    r"migraine|flu|temperature|stiff\s+neck|runny\s+nose|blocked\s+nose|stomach\s+bug|bug|nosebleed)\b"
)
# "I've got a throat infection", "I have tonsillitis": an illness that passes in days or weeks, and matters for care
# while it lasts (what to take, what to tell a doctor): kept until ILLNESS_LIFETIME is over. Before, it was kept with
# no expiry, a Nov 5 throat infection still the user's in December (tester j21, finding 9).
_PASSING_ILLNESS = rx(
    r"^(?:(?:i|we)(?:\s+|(?='))(?:have|'ve\s+got|have\s+got|got|caught|'ve\s+caught|'ve\s+picked\s+up|picked\s+up|"
    r"am\s+getting|'m\s+getting|'m\s+coming\s+down\s+with|am\s+coming\s+down\s+with|'m\s+down\s+with|"
    r"am\s+down\s+with)"
    # "my son has an ear infection": someone of the user's, as passing
    rf"|(?:my|our)\s+(?:[\w-]+\s+)?(?:{PERSON}|{PETS})(?:\s+(?-i:[A-Z])[\w-]+)?(?:\s+has|'s\s+got|\s+has\s+got|"
    r"\s+caught|\s+has\s+caught|'s\s+caught))\s+(?:(?:a|an|the)\s+)?"
    r"(?:(?:bit\s+of\s+a|slight|bad|terrible|mild|nasty|awful|horrible|really\s+bad|viral|bacterial)\s+)*"
    r"(?:(?:throat|chest|ear|eye|sinus|urinary(?:\s+tract)?|bladder|tooth|gum|skin|stomach|viral|bacterial|fungal|"
    r"yeast)\s+infection|uti|tonsillitis|strep(?:\s+throat)?|laryngitis|sinusitis|bronchitis|conjunctivitis|"
    r"pink\s+eye|covid(?:-19)?|norovirus|gastroenteritis|stomach\s+flu|chest\s+cold)\b"
)
ILLNESS_LIFETIME = timedelta(days=14)
"""How long "I've got a throat infection" is kept: an illness of days or weeks, not a condition of the user's."""
# "I can't stop crying", "I keep panicking", "I've been crying all day": a feeling of the moment, told by what the
# body does (not a habit: "I can't stop smoking" is kept).
_FEELING_NOW = rx(
    r"^(?:i|we)(?:\s+|(?='))(?:(?:just|literally|honestly|still)\s+)?"
    r"(?:(?:can't|cant|cannot|couldn't|can\s+not)\s+stop|"
    r"keep|kept|(?:have|'ve)\s+been|(?:am|'m|are|'re)(?:\s+(?:still|just))?)\s+(?:(?:literally|just)\s+)?"
    r"(?:crying|sobbing|shaking|trembling|shivering|laughing|smiling|grinning|panicking|worrying|overthinking|"
    r"thinking\s+about\s+(?:it|this|that|him|her|them))\b"
)
# "lol my coworker spilled coffee on my laptop", "My boss yelled at me today": a passing incident someone of the
# user's caused them, an anecdote, not a fact of anyone's life (what changes, ends or matters for care is kept:
# "My sister gave me her car", "My mum told me I'm allergic to nuts" are read elsewhere).
_INCIDENT = rx(
    rf"^(?:my|our)\s+(?:[\w-]+\s+)?(?:{PERSON}|{PETS})(?:\s+(?-i:[A-Z])[\w-]+)?\s+(?:(?:just|accidentally|literally|"
    r"totally|completely|basically|finally)\s+)*(?:spilled|spilt|yelled|shouted|screamed|snapped|laughed|texted|"
    r"rang|pranked|stole|nicked|ate|drank|smashed|cracked|dropped|scratched|dented|bumped|kicked|bit|scared|"
    r"annoyed|ignored|woke|interrupted|sneezed|coughed|teased|roasted|blamed|tricked|splashed|knocked|tripped|"
    r"stepped|sat|threw|hid|borrowed|forgot)\b.*\b(?:me|my|us|our)\b"
)
# "my cat has already knocked it off the desk twice this morning", "the dog chewed my charger again": a pet's mischief
# of the day, an anecdote (news of its health is none: "the dog ate chocolate", "my dog broke his leg today").
_PET_MISCHIEF = rx(
    rf"^(?P<whose>my|our|the)\s+(?P<pet>(?:[\w-]+\s+)?(?:{PETS}))(?:\s+(?P<name>(?-i:[A-Z])[\w-]+))?\s+"
    r"(?:(?:has|have|just|already|literally|"
    r"totally|completely|once|also)\s+)*(?:knocked|pushed|stole|nicked|chewed|shredded|destroyed|scratched|dragged|hid|"
    r"tipped|spilled|spilt|woke)\b"
    r"(?=.*\b(?:today|tonight|this\s+(?:morning|afternoon|evening)|last\s+night|again|twice|already)\b)"
    # "my cat just walked across the keyboard", "the dog just jumped on me": what a pet did this minute, "just" its time
    # ("my dog Rex just threw up": the pet named, which is kept)
    rf"|^(?P<whose3>my|our|the)\s+(?P<pet3>(?:[\w-]+\s+)?(?:{PETS}))(?:\s+(?P<name3>(?-i:[A-Z])[\w-]+))?\s+"
    r"(?:literally\s+|also\s+)?just\s+(?:walked|jumped|sat|stepped|climbed|ran|lay|laid|sneezed|threw\s+up|puked|"
    r"barked|meowed|knocked|pushed|stole|chewed|tipped|spilled|spilt|woke)\b"
    # "my cat Miso keeps scratching the sofa": a pet's habit the user asks about, no day needed
    rf"|^(?P<whose2>my|our)\s+(?P<pet2>(?:[\w-]+\s+)?(?:{PETS}))(?:\s+(?P<name2>(?-i:[A-Z])[\w-]+))?\s+"
    r"(?:(?:still|just|always)\s+)?keeps\s+(?:on\s+)?[a-z]+ing\b"
)


def _pet_owned(mischief: re.Match[str]) -> str | None:
    """What a pet's mischief of the day tells for good: that the user has that pet ("my cat has knocked it off the
    desk twice this morning" -> "User has a cat."); ``None`` of "the dog", whose it is not said."""
    whose, pet, name = (mischief.group(g) or mischief.group(f"{g}2") or (mischief.groupdict().get(f"{g}3") or "")
                        for g in ("whose", "pet", "name"))
    if mischief.group("name3"):  # worded as .retold words a named pet, so that the two are one fact
        return f"User has {article(pet.lower())} {' '.join(pet.split()).lower()} named {name}."
    if whose.lower() == "the":
        return None
    pet = " ".join(pet.split()).lower()
    named = f" called {name}" if name else ""
    return f"User has {pet}{named}." if pet.endswith("s") else f"User has {article(pet)} {pet}{named}."


# "lol I spilled coffee on my laptop", "I locked myself out again", "I missed my bus": the user's own passing mishap,
# an anecdote (an injury, "I broke my wrist", "I burned my hand", is health news; "I dropped out", "I lost my job"
# are changes: neither is matched).
_OWN_MISHAP = rx(
    r"^(?:i|we)\s+(?:(?:just|accidentally|literally|totally|completely|basically|somehow|also|nearly|almost)\s+)*"
    r"(?:spilled|spilt|knocked\s+over|smashed|cracked|stubbed|overslept|"
    r"(?:dropped|burnt|burned)\s+(?:(?:my|our|the|a|an|some)\s+)?(?!out\b)|"
    r"locked\s+(?:myself|ourselves|my\s+keys|the\s+keys)\s+(?:out|in)|"
    r"missed\s+(?:my|the|our)\s+(?:bus|train|tram|flight|connection|stop|ferry)|"
    r"forgot\s+(?:my|our)\s+(?:keys|wallet|umbrella|lunch|phone|charger|laptop|coat|jacket|bag|headphones)|"
    r"left\s+(?:my|our)\s+(?:keys|wallet|umbrella|lunch|phone|charger|laptop|coat|jacket|bag|headphones)\s+"
    r"(?:at|on|in)|tripped\s+(?:over|on)|got\s+(?:soaked|drenched|caught\s+in\s+the\s+rain))"
)
_JUST_DID = rx(
    r"^(?:i|we)\s+(?:just\s+(?:had|ate|got|finished|woke|came|arrived|left)\b|"
    r"(?:slept|stayed\s+up|went\s+to\s+bed|woke\s+up)\b.*\b(?:last\s+night|this\s+morning)\b)"
)
# "I keep reaching for my face", "I keep forgetting my keys": what keeps happening to the user lately, a remark on the
# moment, not a lasting fact ("I keep bees", "I keep a journal" have no "-ing"; "I keep getting migraines" tells a
# condition and stays).
_KEEP_DOING = rx(r"^(?:i|we)\s+(?:just\s+|still\s+)?keep\s+(?:on\s+)?(?!getting\b|having\b)[a-z]+ing\b")
# The events a plan is for: "appointment", "exam", "recital", "wedding".
_EVENT_WORDS = (
    r"appointment|meeting|interview|exam|test|date|gig|concert|show|party|flight|class|lesson|shift|session|"
    r"presentation|match|game|surgery|operation|scan|check-?up|therapy|recital|performance|audition|wedding|"
    r"funeral|deadline|dinner\s+party|reservation|booking"
)
# "My flight leaves in two hours", "My exam is on Thursday", "My recital is on the 18th": an event of the user's,
# soon over.
_MY_EVENT = rx(rf"^(?:my|our)\s+(?:[\w'-]+\s+){{0,2}}?(?:{_EVENT_WORDS}|train|bus|ferry|call|trip)\b")
# "The recital is on the 18th", "the wedding's on June 3": an event the conversation is about, by its day.
_THE_EVENT = rx(rf"^the\s+(?:[\w'-]+\s+){{0,2}}?(?:{_EVENT_WORDS})s?\s+(?:is|'s|are|'re)\b")
# "My friends are going to a bar on Friday", "My sister is visiting next week", "My son Leo has a football match on
# Saturday": someone's plan, soon over.
_THEIRS = r"^(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:and\s+(?:his|her|their|my|our)\s+[\w-]+\s+)?"
_THEIR_PLAN = rx(
    _THEIRS + r"(?:(?:is|are|'s|'re)\s+(?:going|coming|visiting|flying|driving|heading|"
    r"staying|having|hosting|throwing|arriving|leaving)\b"
    rf"|(?:has|have|'s\s+got|has\s+got)\s+(?:a|an|his|her|their)\s+(?:[\w'-]+\s+){{0,2}}?(?:{_EVENT_WORDS})\b)"
)
# "My in-laws are coming to stay at the end of the month": a visit, over when its month is (not "My kids are going to
# a new school in September", which lasts).
_THEIR_VISIT = rx(_THEIRS + r"(?:is|are|'s|'re)\s+(?:coming|visiting|staying|arriving|over)\b")
# "My kids are driving me nuts today", "my boss is being weird today": what someone of the user's is doing now (not
# a change of their life told with its day: "my sister is moving to Leeds today").
_THEIR_MOMENT = rx(
    r"^(?:my|our)\s+(?:[\w-]+\s+){1,6}?(?:is|are|'s|'re)\s+(?:being|(?!going\s+to\b|moving\b|starting\b|leaving\b|"
    r"retiring\b|graduating\b|getting\s+married\b)\w+ing)\b"
)
# "I'm covering a day shift tomorrow", "I'm working a double shift on Friday": one event the user is doing, which a
# day said with it makes a plan (not "I'm working night shifts", a pattern: no event word in the singular; not
# "I'm on the early shift from Monday", a change).
_DOING_AN_EVENT = rx(
    r"^" + I_OR_WE_ARE + r"\s+(?:(?:also|just|still)\s+)?(?:[a-z]+ing\s+(?:up\s+)?|on\s+)"
    rf"(?:a|an|the|one|my|our)\s+(?:[\w'-]+\s+){{0,2}}?(?:{_EVENT_WORDS})\b(?!s\b)"
    r"(?!.*\b(?:from|starting|as\s+of|onwards|permanently|for\s+good)\b)"  # a change from that day on
)
# "I've got a dentist appointment at 4": today, at a time (not "every Monday at 9").
CLOCK = rx(
    r"\bat\s+(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.|o'clock)?|noon|midday|lunchtime|"
    r"half\s+(?:past\s+)?\w+|quarter\s+(?:past|to)\s+\w+)(?!\s*(?:%|years?|months?|weeks?|kg|km|miles?)\b)"
)
# "I have a date tonight", "My interview is this afternoon": an event later today, kept until the day is over
# (not "right now", "in 20 minutes": soon over).
_LATER_TODAY = rx(r"\b(?:tonight|later\s+today|today|this\s+(?:afternoon|evening))\b")
_NOW_ONLY = rx(rf"\b(?:right\s+now|at\s+the\s+moment|just\s+now|in\s+(?:a|an|{number_words('five')}|ten|"
               r"twenty|thirty|a\s+few|\d+)\s+(?:minutes?|mins?|hours?|hrs?))\b")
_EVENT = rx(rf"\b(?:{_EVENT_WORDS})\b")
# An event a day of the calendar is for, a longer one too: "a conference on 26-28 May".
# An illness said to come back ("tonsillitis every winter", "a UTI about once a month", "whenever I fly"): the
# user's for good, not passing.
_ILLNESS_RECURS = rx(r"\b(?:every|each|usually|always|when(?:ever)?|recurr(?:ing|ent)|"
                     r"(?:once|twice|\d+\s+times|a\s+few\s+times)\s+a\s+(?:week|month|year|winter|season))\b")
_DATED_EVENT = rx(rf"\b(?:{_EVENT_WORDS}|conference|festival|graduation|ceremony|reunion|retreat|workshop|course|"
                  r"tournament|race|marathon|trip|holiday|vacation|exams)\b")
_RECURRING = rx(rf"\b(?:every|each|weekly|daily|usually|always|on\s+(?:{WEEKDAYS_PLURAL}|weekdays|weekends))\b")
# "I have a meeting at 3pm tomorrow": true until it has happened.
SOON = rx(rf"\b(?:tomorrow|the\s+day\s+after\s+tomorrow|next\s+(?:week|weekend|{WEEKDAY})|"
          rf"(?:on|this)\s+{WEEKDAY}|this\s+weekend)\b")
# "the end of", "start of", "the very beginning of": a part of a month or a week.
_MONTH_PART = r"(?:the\s+)?(?:very\s+)?(?:end|start|beginning|middle)\s+of\s+"
# A day a plan is for, beyond the coming days: "is Thursday", "at the weekend", "on the 14th", "on 3 March".
_DAY_NAMED = rx(
    rf"\b(?:(?:is|'s|are|'re)\s+(?:this\s+coming\s+|coming\s+)?{WEEKDAY}(?!s)|(?:at|on)\s+the\s+weekend|"
    rf"this\s+coming\s+(?:week|{WEEKDAY})|the\s+week\s+after\s+next|{_MONTH_PART}(?:the\s+|this\s+|next\s+)week\b|"
    r"(?:for|at|over|on)\s+(?:christmas|xmas|boxing\s+day|new\s+year|thanksgiving)|"
    # "We're doing Thanksgiving at my mom's": the holiday as what is planned
    r"(?:doing|having|hosting|spending)\s+(?:christmas|xmas|thanksgiving)\b(?!\s+(?:dinner|lunch|party))|"
    r"(?:on|for)\s+the\s+\d{1,2}(?:st|nd|rd|th)|"
    rf"(?:on|for)\s+(?:{ANY_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?|"
    rf"(?:on|for)\s+\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{ANY_MONTH}))\b"
    # a weekday typed bare after the plan: "Jess is coming over saturday" (not "on saturdays", "saturday's match")
    rf"|(?<=\s)(?<!every\s)(?<!each\s){WEEKDAY}(?=\s*(?:[.!,;?]|$|(?:morning|afternoon|evening|night|at)\b))"
)
# "for two weeks", "for a few days", "for the weekend": how long a visit told now lasts.
_STAY_FOR = rx(
    rf"\bfor\s+(?:(?P<n>a|an|{number_words('ten')}|a\s+couple\s+of|a\s+few|\d{{1,2}})\s+"
    r"(?P<unit>days?|nights?|weeks?)|(?P<fortnight>a\s+fortnight)|the\s+(?P<the>weekend|week))\b"
)


def _stay_length(m: re.Match[str]) -> timedelta:
    """How long a :data:`_STAY_FOR` match says a visit lasts ("for two weeks": 14 days; "for the weekend": 3)."""
    if m.group("fortnight"):
        return timedelta(days=14)
    if m.group("the"):
        return timedelta(days=3 if m.group("the").lower() == "weekend" else 7)
    count = count_of(m.group("n"))
    return timedelta(days=count * (7 if m.group("unit").lower().startswith("week") else 1))


def stay_after_day(plan: str) -> timedelta:
    """How long ``plan`` says a stay lasts after the day it starts ("flying to Toronto on Monday 2026-11-02 to stay
    for three weeks": 21 days), which its expiry runs on by; none (zero) when it says no length or recurs."""
    m = _STAY_FOR.search(plan)
    return _stay_length(m) if m is not None and not _RECURRING.search(plan) else timedelta(0)


# "I have a dentist appointment", "we've got our scan", "I'm going to the clinic", "we're meeting the planner": the
# user, or the household with "our", opening a plan.
_APPOINTMENT = rx(
    r"^(?:(?:i\s+have|i've\s+got)\s+(?:a|an|my)|(?:we\s+have|we've\s+got)\s+(?:a|an|our)|"
    r"(?:i'm|i\s+am|we're)\s+going\s+to\s+the|(?:i'm|we're)\s+(?:seeing|meeting)|i\s+need\s+to\s+go\s+to)\b"
)


# "I'm busy this month with exams", "I'm swamped this week because of the move": a state of a stated span, with
# what it is about; kept until the week or month is over (a state alone, "I'm busy this week", passes).
_THIS_SPAN = rx(r"\bthis\s+(?P<span>week|month)\b(?!end)")
_ABOUT = rx(r"\b(?:with|because\s+of|due\s+to|studying\s+for|revising\s+for|preparing\s+for|working\s+on)\s+\w")
_BUSY = rx(
    r"^" + I_OR_WE_ARE + r"\s+(?:so\s+|really\s+|very\s+|super\s+|pretty\s+|a\s+bit\s+)?"
    r"(?:busy|swamped|slammed|snowed\s+under|flat\s+out|buried|stressed|overwhelmed|tied\s+up)\b"
)
# A day of the calendar: "May 15", "15 May", "May 15-17", "the 18th".
_CALENDAR_DAY = rx(
    rf"\b(?:(?:{ANY_MONTH})\s+\d{{1,2}}(?:st|nd|rd|th)?\b|"
    rf"\d{{1,2}}(?:st|nd|rd|th)?(?:\s*[-\u2013]\s*\d{{1,2}}(?:st|nd|rd|th)?)?\s+(?:of\s+)?(?:{ANY_MONTH})\b|"
    r"the\s+\d{1,2}(?:st|nd|rd|th)\b)"
)
# "I have my cousin's wedding May 25-27", "I had my cousin's wedding May 15-17", "We went to a concert on the 3rd":
# an event of the user's on a day of the calendar, that will be or was.
_EVENT_TOLD = rx(
    r"^(?:i|we)(?:\s+|(?='))(?:have|had|'ve\s+got|have\s+got|'ve\s+had|got|attended|went\s+to|was\s+at|were\s+at|"
    r"(?:am|'m|are|'re)\s+(?:going\s+to|attending|off\s+to|at|in))\b"
)
# "I went to a gig last night", "We had a party yesterday": an outing of the last day, over when told; a person
# keeps no lasting fact of it (not a change, a first, a care fact, or what touches a slot of the user's life).
_LAST_DAY = rx(r"\b(?:last\s+night|yesterday|this\s+(?:morning|afternoon|evening)|earlier\s+today|earlier|"
               r"tonight|today)\b")
_OUTING = rx(
    r"^(?:i|we)\s+(?:(?:just|finally|also)\s+)?(?:went|had|saw|watched|attended|caught|did|played|ate|got\s+to\s+see)"
    r"\b.*\b(?:gig|concert|show|movie|film|cinema|theatre|theater|play|musical|party|pub|bar|club|restaurant|dinner|"
    r"lunch|brunch|drinks|match|game|festival|museum|gallery|exhibition|comedy|karaoke|quiz|barbecue|bbq|picnic|"
    r"takeaway|pizza|sushi|curry|burgers?)\b"
)


# "I'm 20 weeks along today", "I'm 30 weeks now": how far along a pregnancy is (read with the stored facts, which
# say whether the user is expecting: .updates), not a passing moment.
_WEEKS_ALONG = rx(r"^" + I_OR_WE_ARE + r"\s+(?:now\s+)?\d{1,2}\s+weeks\b(?:\s+(?:pregnant|along))?"
                  r"(?:\s+(?:now|today|already|this\s+week))*\W*$")


def moment(body: str, now: datetime | None = None) -> tuple[str | None, str, timedelta | None] | None:
    """The verdict for a passing state or an appointment, ``None`` for anything else (``now``: when it was said,
    for a plan's month; default: now)."""
    if _WEEKS_ALONG.match(body) or away_until(body):
        return None  # "I'm 30 weeks now"; "I'm in Rome this week": kept until then (.stays)
    this_span = _THIS_SPAN.search(body)
    if this_span is not None and _BUSY.match(body) and _ABOUT.search(body):  # "I'm busy this month with exams"
        when = now or datetime.now(timezone.utc)
        until = _until_month_end(MONTH_NAMES[when.month - 1], when) if this_span.group("span") == "month" \
            else timedelta(days=7 - when.weekday())
        return as_fact(body), KEPT_EXPIRING, until
    if _FLARE_UP.match(body) and not _RECURRING.search(body):
        return as_fact(body), KEPT_EXPIRING, MOOD_LIFETIME  # "My back's flared up again"
    mood = _EPHEMERAL_STATE.match(body) or _MOOD_SO_FAR.match(body)
    # "I just got engaged", "I'm back on cigarettes": news, not a passing moment.
    if mood and not re.search(
        r"\bback\s+(?:on|to|in\s+the\s+office|at\s+(?:work|the\s+office|uni|university|college|school))\b"
        r"|\b(?:these\s+days|lately|nowadays|anymore|usually|every|always|a\s+lot\s+of)\b",  # a habit, not a moment
        body, re.IGNORECASE,
    ):
        return None, DROP_EPHEMERAL, None
    if mood and _MOOD_FOR_A_WHILE.search(body) and not re.search(
            r"\b(?:back|nowadays|anymore|usually|every|always|a\s+lot\s+of)\b", body, re.IGNORECASE):
        return as_fact(body), KEPT_EXPIRING, MOOD_LIFETIME  # "I'm so stressed these days"
    if _PASSING_HAVE.match(body) or _FEELING_NOW.match(body):
        return None, DROP_EPHEMERAL, None
    if _THEIR_STATE.match(body) and not (is_change(body) or is_care_fact(body)):
        return None, DROP_EPHEMERAL, None  # "my mum is freaking out"
    if (_SORE_FOR_NOW.match(body) or _HITCH.match(body) or _LOOKS_FOR_NOW.match(body)) and not (
            is_change(body) or is_care_fact(body)):
        return None, DROP_EPHEMERAL, None  # "my legs are wrecked after the half", "my flight got cancelled again"
    if ((passing_aside(body) or one_off_act(body)) and not (is_change(body) or is_care_fact(body))) or lost_track(body):
        return None, DROP_EPHEMERAL, None  # "I went blank", "we only told family", "I took the bus", "i forget"
    if recent_state(body):
        return None, DROP_EPHEMERAL, None  # "my dog has been scratching his ears since Sunday"
    if moved_about_the_home(body):
        return None, DROP_EPHEMERAL, None  # "moved the sofa into the lounge now"
    if _INCIDENT.match(body) and not (is_change(body) or is_care_fact(body)):
        return None, DROP_EPHEMERAL, None
    mischief = _PET_MISCHIEF.match(body)
    if mischief is not None and not (is_change(body) or is_care_fact(body)):
        owned = _pet_owned(mischief)  # the anecdote passes; that the user has the pet stays
        return (None, DROP_EPHEMERAL, None) if owned is None else (owned, KEPT_REWRITTEN, None)
    if _OWN_MISHAP.match(body) and not (is_change(body) or is_care_fact(body)) \
            and (re.search(r"\bstubbed\b", body, re.IGNORECASE) or not re.search(rf"\b(?:{BODY_PART})\b", body, re.I)):
        return None, DROP_EPHEMERAL, None  # "I spilled coffee on my laptop" (not "I burned my hand")
    whereabouts = _PASSING_WHEREABOUTS.match(body)
    if whereabouts is not None and (_ONLY_FOR_NOW.search(whereabouts.group("rest")) or (
            whereabouts.group("prep").lower() == "at" and _NOW_ONLY_AT.match(whereabouts.group("rest")))):
        return None, DROP_EPHEMERAL, None  # "I'm at Starbucks now", "I'm in London now for a conference"
    if _JUST_DID.match(body) and not is_change(body):
        return None, DROP_EPHEMERAL, None
    if _KEEP_DOING.match(body) and not (is_change(body) or is_care_fact(body) or _RECURRING.search(body)):
        return None, DROP_EPHEMERAL, None  # "I keep reaching for my glasses lol"
    if _OUTING.match(body) and _LAST_DAY.search(body) and not (
            is_change(body) or is_care_fact(body) or slots_of(body) or re.search(r"\bfirst\b", body, re.I)):
        return None, DROP_EPHEMERAL, None  # "I went to a gig last night"
    day = _CALENDAR_DAY.search(body)
    if day is not None and _DATED_EVENT.search(body) and not _RECURRING.search(body) and (
            _EVENT_TOLD.match(body) or _MY_EVENT.match(body) or _THE_EVENT.match(body)):
        # "I have my cousin's wedding May 25-27": the day is written out, and ends it (rules.judge_sentence)
        month = re.search(rf"\b(?:{ANY_MONTH})\b", day.group(0), re.IGNORECASE)
        return as_fact(body), KEPT_EXPIRING, _until_month_end(month.group(0), now) if month else timedelta(days=31)
    planned = _APPOINTMENT.match(body) or _MY_EVENT.match(body) or _THEIR_PLAN.match(body) or _PLANNED.match(body) \
        or _THE_EVENT.match(body) or _DOING_AN_EVENT.match(body)
    if _LATER_TODAY.search(body) and _EVENT.search(body) and (_APPOINTMENT.match(body) or _MY_EVENT.match(body)) \
            and not _NOW_ONLY.search(body) and not _RECURRING.search(body):
        return as_fact(body), KEPT_EXPIRING, timedelta(days=1)  # "I have a date tonight"
    if _LATER_TODAY.search(body) and _THEIR_VISIT.match(body) and not (_NOW_ONLY.search(body)
                                                                      or _RECURRING.search(body)):
        return as_fact(body), KEPT_EXPIRING, timedelta(days=1)  # "my girlfriend priya is coming over tonight"
    their_moment = _THEIR_MOMENT.match(body) and not _THEIR_PLAN.match(body) and not is_change(body)
    if NOW_WORDS.search(body) and (_MOMENT_VERB.match(body) or _MY_EVENT.match(body) or their_moment):
        return None, DROP_EPHEMERAL, None
    if _AILMENT.match(body):
        return None, DROP_EPHEMERAL, None
    if _PASSING_ILLNESS.match(body) and not _ILLNESS_RECURS.search(body):
        return as_fact(body), KEPT_EXPIRING, ILLNESS_LIFETIME
    if _SYMPTOM_NOW.match(body) and not _RECURRING.search(body) and not re.search(r"\bwhen(?:ever)?\b", body, re.I):
        return None, DROP_EPHEMERAL, None
    soon = SOON.search(body) or _DAY_NAMED.search(body)
    if soon is not None and planned:
        days = 2 if soon.group(0).lower().startswith(("tomorrow", "the day")) else 8
        # "..., she always makes a seafood chowder": an aside after the plan is no part of it
        return as_fact(cut_aside(body)), KEPT_EXPIRING, timedelta(days=days)
    span = IN_SPAN.search(body)
    if span is not None and planned and not _RECURRING.search(body):  # "We're flying to Lisbon in two weeks"
        return as_fact(body), KEPT_EXPIRING, span_days(span) + timedelta(days=2)
    stay = _STAY_FOR.search(body)
    if stay is not None and planned and not (_RECURRING.search(body) or _PLAN_MONTH.search(body)
                                             or _PLAN_SEASON.search(body) or _CALENDAR_DAY.search(body)):
        # "My mum is coming to stay for two weeks": a visit begun about now, over when its time is (what is said of
        # the visitor after it is another fact: "..., she has coeliac disease")
        return as_fact(body[:stay.end()]), KEPT_EXPIRING, _stay_length(stay) + timedelta(days=2)
    if CLOCK.search(body) and not _RECURRING.search(body) and (_APPOINTMENT.match(body) or _MY_EVENT.match(body)):
        return as_fact(body), KEPT_EXPIRING, timedelta(days=1)  # today, at that time
    month = _PLAN_MONTH.search(body) or _PLAN_SEASON.search(body)
    if month is not None and (_PLANNED.match(body) or _THEIR_VISIT.match(body) and _PLAN_MONTH.search(body)):
        plan = without_request(body)  # "... next month and would love some tips"
        return as_fact(plan), KEPT_EXPIRING, _until_month_end(month.group("month"), now)
    if _UNDATED_VISIT.match(body) and not (_RECURRING.search(body) or _CALENDAR_DAY.search(body)):
        return as_fact(body), KEPT_EXPIRING, UNDATED_VISIT_LIFETIME
    return None


# "My mum is coming to stay", "my partner Mikko's mother Sirpa is coming to stay; she's diabetic": a visit told with
# no day, begun or about to begin (not "... for good", a move; not "my sister is coming to the wedding", an event).
_UNDATED_VISIT = rx(
    r"^(?:my|our)\s+(?:[\w'-]+\s+){0,4}?(?:is|are|'s|'re)\s+(?:coming\s+(?:to\s+(?:stay|visit)|over\b|to\s+see\s+"
    r"(?:us|me))|visiting(?:\s+(?:us|me))?\s*(?:[,;.!]|$)|staying\s+with\s+(?:us|me))"
    r"(?!.*\b(?:for\s+good|permanently|indefinitely|moving\s+in|every|each)\b)"
)
UNDATED_VISIT_LIFETIME = timedelta(days=21)
"""How long a visit told with no day is kept: about to begin, and over within weeks (three: longer than most
stays), so it is not shown months later as if the visitor were still there."""


# "My chest feels tight after my run", "My truck is making a grinding noise": something wrong right now, told to
# ask about it (not "My knee hurts when it rains": that recurs).
_SYMPTOM_NOW = rx(
    r"^(?:my|our)\s+(?:[\w-]+\s+){0,2}?(?:feels?|is\s+feeling|hurts|is\s+hurting|aches|is\s+aching|is\s+sore|"
    r"is\s+swollen|is\s+itchy|is\s+making\s+(?:a|an|this|that|some|weird|strange)\b|is\s+leaking|keeps\s+"
    r"(?:crashing|freezing|beeping|leaking|stalling))"
    r"|^(?:i|we)\s+(?:feel|am\s+feeling|'m\s+feeling)\s+(?:a\s+bit\s+|really\s+|so\s+|very\s+)?(?:sick|dizzy|"
    r"nauseous|faint|feverish|achy|rough|awful|off|unwell|under\s+the\s+weather)\b"
)


# A plan of the user's for a month to come: "I've booked a trip to Lisbon in April", "My knee replacement is
# booked for June", "We're flying to Lisbon next month" (not "I moved to Paris in June": that happened).
_PLANNED = rx(
    r"^(?:(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|finally\s+)?booked|"
    r"(?:i|we)(?:'ve|\s+have)\s+got\s+(?:my|our|a|an)\s+[^.]*?\b(?:booked|scheduled)\b|"
    # "I'm planning a trip to Lisbon in November", "We plan to go to Iceland in June": a plan, made
    r"(?:i|we)\s+(?:also\s+)?plan\s+(?:to|on)\b|"
    rf"{I_OR_WE_ARE}\s+(?:(?:also|still|now)\s+)?(?:planning|off\s+to|flying|going|travell?ing|"
    r"heading|driving|visiting|having|getting|"
    r"bringing|hosting|attending|throwing|doing|running|playing|cooking|baking|"
    # a change to come: "We're moving to Bath next month", "I'm starting a new job next week"
    r"moving|relocating|emigrating|starting|beginning|leaving|retiring|switching|changing|graduating)|"
    r"(?:my|our)\s+(?:[\w'-]+\s+){0,2}?(?:surgery|operation|appointment|trip|holiday|vacation|flight|wedding|"
    r"procedure|scan|replacement)\b[^.]*?\b(?:is|'s)\s+(?:booked|scheduled|planned|set|on|in|for)|"
    r"(?:i|we)\s+have\s+(?:a|an|my|our)\s+[^.]*?\b(?:surgery|operation|appointment|procedure|scan)\b|"
    # "I have a trip to Rome in May", "We've got a holiday in Greece in August"
    r"(?:i|we)(?:'ve\s+got|\s+have\s+got|\s+have)\s+(?:a|an|my|our)\s+(?:[\w'-]+\s+){0,3}?(?:trip|holiday|vacation|"
    r"getaway|cruise|flight|road\s+trip|honeymoon|wedding)\b)"
)
_PLAN_MONTH = rx(
    rf"(?:\b(?:in|for|on|until|till)\s+(?:the\s+\w+\s+of\s+|early\s+|mid-?\s*|late\s+)?|\b(?=next\s+month)"
    # "at the end of the month", "end of next month", "the start of May"
    rf"|\b{_MONTH_PART}(?:the\s+|this\s+)?(?=(?:month|next\s+month|{ANY_MONTH})\b))"
    rf"(?P<month>{ANY_MONTH}|next\s+month|month)\b"
)


# "next summer", "this autumn", "next year": a plan for a season (its last month, in the north) or a year.
_PLAN_SEASON = rx(r"\b(?P<when>next|this)\s+(?P<month>spring|summer|autumn|fall|winter|year)\b")
_SEASON_END = {"spring": "may", "summer": "august", "autumn": "november", "fall": "november", "winter": "february"}


def _until_month_end(month: str, now: datetime | None = None) -> timedelta:
    """From ``now`` (default: now, UTC) to the end of ``month`` (its next occurrence, this month included; "next
    month": the next one; a season: its last month; "year": the end of next year): how long a plan for that
    month stays news."""
    now = now or datetime.now(timezone.utc)
    name = _SEASON_END.get(month.lower(), month.lower())
    name = MONTH_NAMES[now.month - 1] if name == "month" else name  # "the end of the month": this one
    if name == "year":
        return datetime(now.year + 2, 1, 1, tzinfo=timezone.utc) - now
    if name.startswith("next"):
        m, year = (1, now.year + 1) if now.month == 12 else (now.month + 1, now.year)
    else:
        m = MONTH_NAMES.index(name) + 1
        year = now.year if m >= now.month else now.year + 1
    end = date(year + (m == 12), m % 12 + 1, 1)  # the first day after that month
    return datetime(end.year, end.month, end.day, tzinfo=timezone.utc) - now
