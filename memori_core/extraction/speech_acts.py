"""What a sentence does when it states no fact of the user's own: asks, asks for, greets, supposes, tells a story.

The rules drop such a sentence (:func:`~memori_core.extraction.rules.judge_sentence`), each check with its reason:
a question, an instruction or a request to the assistant, small talk, words about the assistant, a condition or
a plan only thought of, someone else's view of the user, a story, a dream, a game or a joke, talk that leans on
what was said before. Pure: patterns, English only.
"""

from __future__ import annotations

from collections.abc import Callable

from ..ranking.care import OFF_FOODS
from ..slots import PERSON
from .dates import WEEKDAY
from .grammar import ADVERBS
from .leads import CLINICIAN
from .patterns import I_AM, MY_PERSON, rx
from .cues import is_change, is_ended
from .endings import is_loss
from .health import BODY_PART, health_news
from .this_chat import about_this_chat
from .verdicts import (
    DROP_ELLIPTICAL,
    DROP_EPHEMERAL,
    DROP_HYPOTHETICAL,
    DROP_INSTRUCTION,
    DROP_JOKE,
    DROP_OPINION,
    DROP_SECOND_PERSON,
    DROP_SMALL_TALK,
    DROP_STORY,
    DROP_UNCLEAR,
)

__all__ = [
    "BECAUSE",
    "CONDITIONAL",
    "HEDGE",
    "HYPOTHETICAL",
    "QUESTION_OPENER",
    "QUESTION_TAIL",
    "SECOND_PERSON",
    "SUPPOSED_DUTY",
    "said_in_sarcasm",
    "leans_on_what_was_said",
    "not_a_statement",
    "not_what_holds",
    "own_part",
    "story_or_joke",
]

SECOND_PERSON = rx(r"\b(?:you|you're|you've|you'll|you'd|your|yours|yourself|yourselves|u|ur|ya)\b")

QUESTION_OPENER = rx(
    r"^(?:(?:what|how|why|when|where|which|who|whom|whose)(?:'s|'re|'d|'ll)?\s+"
    r"(?:is|are|was|were|do|does|did|can|could|should|would|will|shall|may|might|about|if|kind|sort|type|much|"
    r"many|long|often|far|old|else)\b"
    r"|(?:what|how|why|who|where)'s\b"
    r"|(?:do|does|did|is|are|was|were|am|can|could|would|will|should|shall|may|might|have|has|had|isn't|aren't|"
    r"don't|doesn't|didn't|won't|wouldn't|can't|couldn't|shouldn't)\s+"
    r"(?:i|you|we|they|he|she|it|there|this|that|these|those|my|your|anyone|someone|any|u)\b"
    r"|any\s+(?:tips|ideas|suggestions|recommendations|advice|thoughts)\b)"
)
# "I'm vegetarian, what should I cook?": the statement before the question clause is kept.
QUESTION_TAIL = rx(
    r"^(?P<head>.+?)(?:\s*[,;:\u2014\u2013]\s*|\s+-\s+|\s+(?=so\s)|\s+(?=(?:any|ideas|thoughts|suggestions|"
    r"recommendations)\s+(?:good|great|nice|tips|ideas|suggestions|recommendations|advice|thoughts|for|on)\b)"
    # "I live in Porto now any good cafes?", "I'm vegan what should I cook?": a question typed on without a comma
    r"|\s+(?=(?:what|how|where|which)\s+(?:should|can|could|would|do|does|is|are)\s+(?:i|we|you)\b))"
    r"(?:so|but|and|then)?\s*"
    r"(?P<tail>(?:what|how|why|when|where|which|who|can|could|would|will|should|shall|do|does|did|is|are|am|any|"
    r"anything|ideas|thoughts|suggestions|recommendations)\b.*)$"
)
CONDITIONAL = rx(
    r"^(?:if|unless|suppose|supposing|imagine|assuming|what if|in case|say|hypothetically|even if|whether|"
    r"let's say|pretend)\b"
)
_IMPERATIVE = rx(
    r"^(?:please|pls|plz|kindly|let's|lets|let us|let me know|write|tell|give|show|explain|help|make|create|list|"
    r"summari[sz]e|translate|suggest|find|describe|generate|draft|compose|plan|remind|check|search|"
    r"look up|calculate|compare|convert|fix|rewrite|edit|proofread|review|book|order|schedule|set|add|remove|"
    r"delete|send|call|draw|design|outline|brainstorm|name|define|teach|try|use|consider|continue|stop|don't|"
    r"do not|keep|act as|go ahead|go on|answer|respond|reply|ignore|forget|assume|note down|save|store|"
    r"remember|note|tell me|give me|show me|walk me|guide me|can you|could you|would you|will you|"
    r"i want you to|i need you to|i'd like you to|i would like you to)\b"
)
# What the chat is asked to make, wanted in the user's words: "I need a recipe", "I want a polite request to HR",
# "I'm after a bit of advice", "I want to prepare a lesson on fractions" (the chat's task, no fact of the user's).
_ASKED_FOR = (
    r"(?:(?:a|an|some|the|more|any|few|couple\s+of|a\s+few|bit\s+of|little|new|good|quick|simple|short|detailed|"
    r"polite|fun|realistic|easy|formal|professional|proper|better|nice)\s+)*"
    r"(?:(?!to\b)[a-z-]+\s+)?"  # what it is for: "a retirement plan", "a cover letter" (not "to help")
    r"(?:help|advice|tips?|ideas?|suggestions?|recommendations?|recipes?|options?|list|plan|summary|poem|story|"
    r"email|e-mail|mail|letter|essay|answer|explanation|examples?|information|info|guidance|feedback|overview|outline|"
    r"assistance|something|anything|request|message|draft|template|lesson|activities|exercises|worksheet|script|"
    r"speech|caption|reply|checklist|way\s+to|"
    # what the chat is asked to make: "a short toast for a party", "a chore chart for my kids", "a fun demo"
    r"toast|chart|demo|quiz|menu|schedule|timetable|playlist|itinerary|slogan|tagline|flashcards|presentation)\b"
)
_FIRST_PERSON_REQUEST = rx(
    r"^(?:i\s+(?:really\s+|just\s+|also\s+)?(?:need|want|would\s+like|'d\s+like|would\s+love|'d\s+love)\s+"
    + _ASKED_FOR +
    r"|i(?:'m|\s+am)\s+(?:just\s+|really\s+)?after\s+" + _ASKED_FOR +
    r"|i\s+(?:really\s+|just\s+|also\s+)?(?:want|need|would\s+like|'d\s+like)\s+to\s+"
    r"(?:prepare|write|draft|make|create|put\s+together|compose|design)\s+" + _ASKED_FOR +
    # "I want to make a portfolio website", "I want to update my signature for email": a document or page to make or
    # change with the chat's help ("I want to start running", "I want to create a place for people to dance" are
    # the user's aims, kept)
    r"|i\s+(?:really\s+|just\s+|also\s+)?(?:want|need|would\s+like|'d\s+like)\s+to\s+"
    r"(?:make|build|create|design|set\s+up|update|redo|rewrite|fix|improve)\s+(?:a|an|my|our|the|some)\s+"
    r"(?:[\w-]+\s+){0,2}?(?:website|web\s*site|site|portfolio|cv|resume|r\u00e9sum\u00e9|linkedin|profile|signature|"
    r"spreadsheet|budget|logo|slides|slide\s+deck|deck|bio|newsletter|invoice|template)\b" +
    r"|i\s+(?:want|need|would\s+like|'d\s+like)\s+to\s+"
    r"(?:know|ask|learn\s+about|find\s+out|understand|see|get\s+some)\b"
    r"|i(?:'m|\s+am)\s+(?:looking\s+for|searching\s+for|wondering|asking|curious\s+(?:about|whether|if|what|how|which)|"
    r"not\s+sure\s+(?:whether|if|what|how|which|where|when|about)|"
    r"weighing\s+up|torn\s+between|debating\s+(?:whether|between)|"
    r"trying\s+to\s+(?:decide|figure\s+out|find|choose|pick|"
    # "I'm trying to plan the drive down for graduation", "trying to sort out the seating": the chat's task
    r"plan|organi[sz]e|sort\s+out|work\s+out|"
    r"think\s+of|come\s+up\s+with|understand|learn\s+about))\b"
    r"|i\s+(?:was\s+)?wonder(?:ing|ed)?\b"
    r"|i\s+have\s+(?:a|another|one\s+more|some|a\s+quick)\s+(?:question|request|favou?r)\b)"
)
# A plan only thought of is no fact yet ("I'm thinking of taking the ferry", "I may switch to decaf"); the change,
# when it comes, is told as one.
HYPOTHETICAL = rx(
    r"^(?:i'd|i\s+would|i\s+could|i\s+should|i\s+wish|i\s+might|i\s+may|we\s+(?:should|could|would|might|may)|we'd|"
    r"(?:i|we)(?:'m|'re|\s+am|\s+are)\s+(?:(?:still|also|kind\s+of|sort\s+of|seriously|now)\s+)?"
    r"(?:thinking\s+(?:of|about)|considering|toying\s+with|tempted\s+to))\b"
)
# "I think ...": kept as said when what follows is about the user ("I think I'm allergic"), else an opinion.
HEDGE = rx(
    r"^i\s+(?:(?:really|just|kind\s+of|sort\s+of)\s+)?"
    r"(?:think(?!\s+(?:about|of)\b)|guess|believe(?!\s+in\b)|suppose|feel\s+like|reckon|assume|hope|doubt)\b"
    r"(?:\s+that)?\s*(?P<rest>.*)$"
)
_REACTION = rx(
    r"^(?:i(?:'m|\s+am)|we(?:'re|\s+are))\s+(?:(?:so|really|very|just|pretty|truly|super|quite|all|both)\s+)*"
    r"(?:glad|sorry|sure|not\s+sure|happy|excited|thankful|grateful|proud|impressed|jealous|curious|confused|"
    r"relieved|amazed|touched|thrilled|fine|good|great|ok|okay|well|alright|back|here|done|ready|in|down|"
    r"not\s+(?:kidding|joking|lying)|(?:dead\s+)?serious|"
    r"all\s+set|doing\s+(?:well|good|great|fine|ok|okay|alright))"
    r"(?:,?\s+(?:to\s+(?:hear|see|know|read|help|go|bed)|too|now|then|thanks|thank\s+you|"
    r"(?:about|of|with)\s+(?:that|it|this|you|him|her|them)|"
    r"for\s+(?:that|it|this|him|her|them|you))\b.*)?\s*[.!]*$"
    # "I'm off" is leave-taking, "I'm off dairy" a diet (or a habit dropped: "off cigarettes"), "I'm off work until
    # the 20th" a time off
    rf"|^i(?:'m|\s+am)\s+(?:just\s+|now\s+)?(?:off(?!\s+(?:(?:{OFF_FOODS}|coffee|bread|cigarettes|smoking|work|sick|"
    # "I'm off to Japan in March" is a plan; "I'm leaving" takes leave, "I'm leaving Google next month" is a plan
    r"the\s+cigarettes)\b|to\s+(?-i:[A-Z])))|heading\s+out|"
    r"leaving(?!\s+(?:(?-i:[A-Z])|(?:my|our|the)\s+(?:job|company|firm|role|position)\b)))\b"
)
# "we'll see", "I'll see how it goes", "let's see": a hedge closing what was said, no fact ("User will see.").
_WAIT_AND_SEE = rx(
    r"^(?:(?:i|we)(?:'ll|\s+will|\s+shall)|let's|let\s+us)\s+(?:just\s+)?see"
    r"(?:\s+(?:how\s+it\s+goes|what\s+happens|how\s+(?:we|i)\s+feel))?(?:\s+(?:i\s+guess|lol|haha))?\s*[.!]*$"
)
_SHORT_FIRST_PERSON_TALK = rx(
    r"^i\s+(?:(?:totally|really|completely|just|so|do|also)\s+)*"
    r"(?:see|agree|understand|know|mean|bet|hope\s+so|think\s+so|guess\s+so|suppose\s+so|"
    r"appreciate\s+(?:it|that|this)|"
    r"get\s+it|got\s+it|feel\s+(?:that|the\s+same)|hear\s+(?:that|ya)|can't\s+wait|cannot\s+wait|"
    r"(?:love|like|loved|liked|enjoy|enjoyed|adore)\s+(?:it|that|this|those|these)|"
    # "I love that idea": about what was just said, not a taste of the user's
    r"(?:love|like|loved|liked|hate|adore|dig)\s+(?:that|this|these|those|the|your)\s+"
    r"(?:idea|plan|suggestion|answer|one|tip|advice|option|approach|solution|list|thought|response|"
    r"explanation|recommendation)s?|"
    r"(?:have|gotta|got|need|must)\s+(?:to\s+)?(?:go|run|leave|head\s+out|get\s+going))"
    r"(?:\s+(?:too|as\s+well|right|now|though))?(?:,?\s+(?:thanks|thank\s+you|haha|lol))?\s*[.!]*$"
)
# A bare auxiliary is an answer to something said before, not a fact: "I did.", "I definitely will."
_SHORT_ANSWER = rx(
    rf"^(?:i|we)\s*(?:{ADVERBS}\s+)*(?:am|'m|are|'re|do|did|will|'ll|can|have|'ve|was|were|would|could|should|"
    r"must|might|may|won't|don't|didn't|can't|haven't|wasn't)"
    r"(?:\s+(?:it|that|this|too|not|so|as\s+well|either|indeed))?\s*[.!]*$"
)
# "My bad.", "My pleasure!", "my dog's name": too short to say anything about the user.
_MY_FRAGMENT = rx(r"^my\s+\S+(?:\s+\S+)?\s*[.!]*$")
# "I no longer smoke, I quit in May": the second clause says only when; alone, "User quit in May." says nothing.
_BARE_ENDING = rx(
    r"^i\s+(?:(?:finally|just|actually|already)\s+)?(?:quit|stopped|gave\s+up|gave\s+it\s+up|quit\s+it|stopped\s+it)"
    rf"(?:\s+(?:in|on\s+(?:the\s+)?(?:\d|{WEEKDAY})|last|this|about|"
    r"around|over|back|since|at|a|two|three|several|some|years?|months?|weeks?|ago|\d+)\b.*)?[.!]*$"
)
# "Since I'm vegan, ...?", "As I'm diabetic, ...?": the reason given for a question, said first.
BECAUSE = rx(r"^(?:since|as|because|given\s+that|seeing\s+as|now\s+that)\s+(?=(?:i|i'm|i've|my|we|we're|our)\b)")
# "We spoke last week about my garden", "We talked about this before": the user and the assistant, not a fact.
_OUR_TALK = rx(
    r"^we\s+(?:(?:already|just|briefly)\s+)?(?:spoke|talked|chatted|discussed|messaged|were\s+talking|"
    r"were\s+chatting|went\s+over|covered)\b.*\b(?:last\s+(?:week|time|month|night)|before|earlier|yesterday|"
    r"the\s+other\s+day|a\s+while\s+(?:ago|back)|(?:about|over)\s+(?:this|that|it)|the\s+last\s+time)\b"
)
# "I'm sure that's wrong", "I agree with that": about what was said, not about the user.
_ABOUT_THAT = rx(
    rf"^(?:{I_AM}\s+(?:pretty\s+|quite\s+|not\s+)?(?:sure|certain|afraid|glad)\s+(?:that's|that|it's|it|this)\b"
    r"|i\s+(?:totally\s+|completely\s+)?(?:agree|disagree)\b)"
)



# What a story, a dream or a game is told in: what happens there is not the user's life.
_STORIES = (
    r"movies?|films?|shows?|series|episodes?|documentar(?:y|ies)|books?|novels?|stor(?:y|ies)|plays?|musicals?|"
    r"comics?|manga|anime|games?|video\s+games?|dreams?|nightmares?|daydreams?|fantas(?:y|ies)|sitcoms?|dramas?|"
    r"cartoons?|fanfics?|fan\s+fiction|scripts?|screenplays?|roleplays?|campaigns?|simulations?"
)
# "In my dream I moved to Tokyo", "In the game I'm married", "I dreamt I quit my job", "My character in the game
# moved to Paris": the user tells a story, not their life.
_STORY_FRAME = rx(
    rf"^(?:(?:in|inside)\s+(?:my|the|this|that|a|an|our|his|her|their|last\s+night's)\s+(?:[\w'-]+\s+){{0,2}}?"
    rf"(?:{_STORIES})\b(?!\s+(?:club|group|shop|store|class|night|festival|football|league)\b)"
    r"|(?:i|we)\s+(?:(?:just|once|literally)\s+)?(?:dreamt|dreamed|had\s+a\s+(?:[\w-]+\s+)?(?:dream|nightmare)"
    r"(?!\s+(?:job|role|house|home|holiday|wedding|car|team|school|come\s+true)\b)|imagined|pretended)\b"
    r"|(?:my|our)\s+(?:[\w'-]+\s+)?(?:character|avatar|sims?|oc|protagonist|hero|heroine|villain|persona|"
    r"alter\s+ego|toon)\b)"
)
# "a guy who moved to Paris", "a novel where the hero got divorced", "a movie about a couple who split up": after
# a noun, a relative word (or "about") starts what is told of someone or something else.
_OF_SOMEONE_ELSE = rx(
    r"\b(?:a|an|the|this|that|some|one)\s+(?:[\w'-]+\s+){0,2}?[\w'-]+(?P<cut>\s+(?:who|whom|whose|where|about|"
    r"in\s+which)\b)"
)


def own_part(text: str) -> str:
    """``text`` up to where it starts telling of someone or something else after a noun ("User watched a movie
    about a guy who moved to Paris." -> "User watched a movie"): a change told there is not the user's.

    >>> own_part("User is reading a novel where the hero got divorced."), own_part("User moved to Porto.")
    ('User is reading a novel', 'User moved to Porto.')
    """
    m = _OF_SOMEONE_ELSE.search(text)
    return text[: m.start("cut")] if m is not None else text


# "my mum thinks I'm still vegan", "my dad reckons I'm allergic to everything", "everyone thinks I should move":
# someone's view of the user, not the user's fact (a clinician's is read as the user's: "doctor says I have ...").
_OTHERS_VIEW = rx(
    rf"^(?:(?:my|our)\s+(?!(?:{CLINICIAN})\b)(?:[\w'-]+\s+){{0,2}}?|everyone\s+|everybody\s+|people\s+|they\s+|he\s+|"
    r"she\s+|(?-i:[A-Z])[a-z]+\s+)(?:(?:still|really|honestly|probably|just|also|always|totally|genuinely|seriously)\s+)*"
    r"(?:thinks?|reckons?|believes?|assumes?|(?:is|are)\s+(?:convinced|sure)|insists?|swears?|keeps?\s+saying|"
    r"says\s+i\s+should|wants?\s+me\s+to|wishes|would\s+(?:like|love)\s+me\s+to|is\s+always\s+saying)\b"
)
# "my dad says italy", "my wife always says I work too much": what someone of the user's says, their view ("my
# doctor says I'm coeliac" is read as the user's care fact; "my lease says no pets" is no person's). "..., my wife
# says" after a statement ("I'm a born pessimist, my wife says") is her view of the user as well.
_THEY_SAY = rx(
    rf"^(?:my|our)\s+(?:[\w-]+\s+)?(?!(?:{CLINICIAN})\b)(?:{PERSON})(?:\s+(?-i:[A-Z])[\w-]+)?\s+"
    # "my gf ana says hi": a greeting passed on, which names her (read elsewhere)
    r"(?:(?:always|still|just|also|keeps)\s+)?(?:says|saying)\b(?!\s+(?:hi|hello|hey|hiya|thanks|thank\s+you|congrats|"
    r"good\s+luck)\b)"
    rf"|,\s*(?:or\s+so\s+)?{MY_PERSON}\s+(?:says|thinks|reckons)\s*[.!]*$"
)
# "..., april fools", "... jk", "... just kidding lol": said as a joke, nothing of it holds. ("I'm not kidding" is
# no joke.)
_JOKE_TAIL = rx(
    r"(?:^|[\s,.!;-])(?<!not\s)(?<!no\s)(?:april\s+fools?(?:'s)?(?:\s+day)?|jk|j/k|just\s+kidding|kidding|"
    r"(?:only|just)\s+joking|/s)\s*(?:haha+|lol+|lmao|xd)?[\s.!]*$"
)
# "Yeah right, I'm a billionaire", "As if I'd ever go vegan": sarcasm in front of the statement, which says the
# opposite of it (not "Yeah, right now I live in Leeds", "It feels as if ...", "Yeah, I'm right-handed", "As if that
# wasn't enough, ...").
_SARCASM_OPENER = rx(
    r"^(?:oh\s+)?(?:(?:yeah|yea|yeh|ya|yah)\s*,?\s*(?:sure\s*,?\s*)?right\b(?!-|\s+(?:now|after|before|here|there|"
    r"away|then|when|from|at|on|in|next|by|as|about)\b)|sure\s+(?:thing\s+)?jan\b|"
    # "As if that wasn't enough, I broke my leg": the idiom, no sarcasm
    r"as\s+if\b(?!\s+(?:on\s+cue|(?:that|this|things|it|life|work|(?:all\s+)?that)\s+(?:wasn't|weren't|isn't|"
    r"(?:was|were|is)\s+not)\b)))"
)
# "I'm a billionaire, yeah right", "I'll quit sugar... as if": the same said after it.
_SARCASM_TAIL = rx(r"(?:[,.!;-]|\.\.\.)\s*(?:(?:yeah|yea|ya|yah)\s*,?\s*right|as\s+if)\s*(?:lol+|haha+)?[\s.!]*$")
# "so i basically have a dog now", "I practically live at the gym": not so, only as good as ("I'm basically vegan",
# "I basically live on coffee" are so).
_AS_GOOD_AS = rx(
    r"^(?:i|we)(?:\s+|(?='))(?:'ve\s+|have\s+)?(?:basically|practically|pretty\s+much|kind\s+of|kinda|sort\s+of|"
    r"sorta|virtually|more\s+or\s+less|as\s+good\s+as)\s+(?:have|has|got|own|live\s+(?:at|in|with))\b"
)
# "my mum would be horrified", "my wife would kill me": how someone of the user's would take something, no fact
# ("my gran would always bake on Sundays" tells a habit of the past, read as before).
_THEIR_WOULD = rx(
    r"^(?:my|our)\s+(?:[\w'\u00c0-\u00ff-]+\s+){0,2}?[\w'\u00c0-\u00ff-]+\s+would(?:n't)?\s+"
    r"(?!(?:always|often|usually|never|sometimes)\b)(?:(?:probably|definitely|totally|absolutely|literally)\s+)?"
    r"(?:be|kill|die|freak|go|love|hate|never|not|lose|have|think|say)\b"
)
# "my landlord wants +12% on our 2br", "my friend wants to know if ...", "my dad wants me to finish it first": what
# someone wants of the moment (not "my son wants to be an engineer", what they mean to become; not "my boyfriend Tom
# wants a roast", where the name is kept).
_THEIR_WANT = rx(
    r"^(?:my|our)\s+(?:(?-i:[a-z\u00e0-\u00ff])[\w'-]*\s+){0,3}?(?-i:[a-z\u00e0-\u00ff])[\w'-]*\s+"
    r"(?:really\s+|just\s+)?wants\s+"
    r"(?:to\s+(?:know|ask|check|see|talk|chat)\b|(?:me|us|them)\s+to\b|[+\d£$€]|(?:a|an|the|some|more)\s)"
)
# "I've been craving sushi so bad", "I'm craving pizza": a passing want.
_CRAVING = rx(r"^(?:i|we)(?:\s+|(?='))(?:(?:'ve|have)\s+been|(?:'m|am|'re|are))\s+(?:(?:so|really|just)\s+)*craving\b")
# "I guess I still have to be careful what I eat": a duty the user supposes, not a fact.
SUPPOSED_DUTY = rx(
    r"^i\s+(?:(?:still|probably|really|just|also)\s+)*(?:have\s+to|need\s+to|should|must|gotta|got\s+to|ought\s+to)\b"
)



def _small_talk(body: str) -> bool:
    """Whether ``body`` is a reaction, a short answer or a fragment ("I'm good", "I see", "I did.", "My bad."; "My
    dog died." is news)."""
    talk = (_REACTION, _SHORT_FIRST_PERSON_TALK, _WAIT_AND_SEE, _SHORT_ANSWER)
    return any(pattern.match(body) for pattern in talk) or bool(
        _MY_FRAGMENT.match(body) and not (is_change(body) or is_ended(body) or is_loss(body) or _health(body))
    )


_MY_BODY_PART = rx(rf"^my\s+(?:{BODY_PART})(?P<rest>'s\s+\S.*|\s+\S.*)$")


def _health(body: str) -> bool:
    """Whether ``body`` ("My ankle's healed") is news of the health of a part of the user's body."""
    m = _MY_BODY_PART.match(body)
    if m is None:
        return False
    rest = m.group("rest")
    return health_news("is " + rest[2:].lstrip() if rest.startswith("'s") else rest)


_Check = tuple[Callable[[str], object], str]
"""A test of a sentence, and why it is dropped when the test holds."""

_STORY_OR_JOKE: tuple[_Check, ...] = (
    (_STORY_FRAME.match, DROP_STORY),
    (_JOKE_TAIL.search, DROP_JOKE),  # "haha I'm moving to the moon, april fools"
)
_NOT_A_STATEMENT: tuple[_Check, ...] = (
    (CONDITIONAL.match, DROP_HYPOTHETICAL),
    (_IMPERATIVE.match, DROP_INSTRUCTION),
    (_small_talk, DROP_SMALL_TALK),
    (SECOND_PERSON.search, DROP_SECOND_PERSON),
    (about_this_chat, DROP_SECOND_PERSON),  # "I will be using this to draft leaflets" (.this_chat)
    (_FIRST_PERSON_REQUEST.match, DROP_INSTRUCTION),
)
_NOT_WHAT_HOLDS: tuple[_Check, ...] = (
    (HYPOTHETICAL.match, DROP_HYPOTHETICAL),
    (_THEIR_WOULD.match, DROP_HYPOTHETICAL),  # "my mum would be horrified"
    (_THEIR_WANT.match, DROP_EPHEMERAL),  # "my landlord wants +12% on our flat"
    (_OTHERS_VIEW.match, DROP_OPINION),  # "my mum thinks I'm still vegan"
    (_THEY_SAY.search, DROP_OPINION),  # "my dad says italy", "I'm a born pessimist, my wife says"
    (_AS_GOOD_AS.match, DROP_UNCLEAR),  # "I basically have a dog now" (the flatmate's)
    (_CRAVING.match, DROP_EPHEMERAL),
)
_LEANS_ON_WHAT_WAS_SAID: tuple[_Check, ...] = (
    (_ABOUT_THAT.match, DROP_OPINION),
    (_OUR_TALK.match, DROP_SMALL_TALK),
    (_BARE_ENDING.match, DROP_ELLIPTICAL),
)


def _first_reason(body: str, checks: tuple[_Check, ...]) -> str | None:
    """The reason of the first of ``checks`` that holds for ``body``, ``None`` when none does."""
    return next((reason for holds, reason in checks if holds(body)), None)


def story_or_joke(body: str) -> str | None:
    """Why ``body`` (a sentence, its lead cut) is not the user's own life: a story, a dream or a game told
    (``DROP_STORY``), or said as a joke (``DROP_JOKE``); ``None`` otherwise."""
    return _first_reason(body, _STORY_OR_JOKE)


def said_in_sarcasm(text: str) -> bool:
    """Whether ``text`` (a sentence, its lead not yet cut) is said in sarcasm: "Yeah right, I'm a billionaire.",
    "As if I'd ever eat meat.", "I'm a morning person, yeah right." (a "/s" or "jk" after it is a joke:
    :func:`story_or_joke`)."""
    return bool(_SARCASM_OPENER.match(text) or _SARCASM_TAIL.search(text))


def not_a_statement(body: str) -> str | None:
    """Why ``body`` states nothing of the user: a condition (``DROP_HYPOTHETICAL``), an instruction or a request
    (``DROP_INSTRUCTION``), small talk (``DROP_SMALL_TALK``), words about the assistant (``DROP_SECOND_PERSON``);
    ``None`` otherwise. The first that fits wins."""
    return _first_reason(body, _NOT_A_STATEMENT)


def not_what_holds(body: str) -> str | None:
    """Why ``body``, a first-person sentence, does not say what holds: a plan only thought of
    (``DROP_HYPOTHETICAL``), someone else's view of the user (``DROP_OPINION``), only as good as so ("I
    basically have a dog now": ``DROP_UNCLEAR``), a craving (``DROP_EPHEMERAL``); ``None`` otherwise."""
    return _first_reason(body, _NOT_WHAT_HOLDS)


def leans_on_what_was_said(body: str) -> str | None:
    """Why ``body`` says nothing without what was said before: a view of it ("I'm sure that's wrong":
    ``DROP_OPINION``), talk about the conversation ("We spoke last week about my garden": ``DROP_SMALL_TALK``),
    when something stopped without what ("I quit in May": ``DROP_ELLIPTICAL``); ``None`` otherwise."""
    return _first_reason(body, _LEANS_ON_WHAT_WAS_SAID)
