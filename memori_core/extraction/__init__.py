"""From conversation turns to long-term facts: keep what the user states about themselves, never questions.

Capture (``capture=True`` in the adapters) hands the latest turn to a
:class:`FactExtractor`, which returns the facts worth storing:

- :class:`RuleBasedFactExtractor` (the default) keeps only first-person
  statements ("I'm vegetarian", "my daughter Mia starts school in September")
  and rewrites them as "User ..." facts where the rewrite is reliable. It drops
  questions, greetings / thanks / small talk, instructions and requests to the
  assistant, hypotheticals and opinions. Allergies, intolerances, medication
  and dietary restrictions come back ``core`` (:func:`is_core_fact`; its
  ``core_rule=`` replaces the rule, ``None`` marks nothing).
- An LLM extractor (``memori_langchain.LLMFactExtractor``,
  ``memori_llamaindex.LLMFactExtractor``, both a :class:`PromptedFactExtractor`)
  asks a model, with the prompt of :func:`build_extraction_prompt`, and reads
  its reply with :func:`parse_extraction_reply`. It also sees the user's most
  similar stored facts, so it can say which ones a new fact replaces
  (``supersedes``), and it marks the same kinds of facts ``core``
  (``mark_core=False`` turns that off).

Capture stores a ``core`` fact with ``engine.add(..., core=True)``: recall
then appends it on every turn (``RecallConfig.core_limit``).

The package is pure: no framework, no engine, no I/O. Its modules:
``types`` (messages, :class:`ExtractedFact`, the :class:`FactExtractor`
protocol), ``sentences`` (a message cut into sentences), ``rule_based``
(:class:`RuleBasedFactExtractor`) and the English rules it reads a message
with: ``filler`` (chat filler cut first), ``pasted`` (someone else's words in
it, pasted, relayed or quoted), ``played`` (a role-play the user sets up),
``clauses`` (a sentence cut into clauses), ``retold`` and ``restated``
(the user's own words as plain statements), ``job_change``, ``events`` (a
life event told in other words), ``labels`` (a profile typed as labels),
``rules`` (:func:`judge_sentence`: one sentence
kept or dropped, and why, ``verdicts``) and the checks it applies
(``leads``, ``tails``, ``speech_acts``, ``introductions``, ``moments``,
``grammar``, ``rewrite``, ``empty_facts``, ``holds_now``), ``named``
(someone the stored facts name), ``trips`` (a planned trip told later as
taken), ``updates`` (a kept fact read with those
told before), ``supersede`` (which stored facts a new one ends, and what hung
on them), ``slots``, ``typos``, ``dates`` (a plan's day, written out, and when
it ends), ``patterns``; ``core_facts`` (which facts are core), ``prompt``
(the LLM prompt and its reply parser) and ``prompted`` (the base of the LLM
extractors).

>>> RuleBasedFactExtractor().extract([("user", "I'm training for a marathon. What should I eat before my run?")])
[ExtractedFact(text='User is training for a marathon.', supersedes=(), core=False)]
"""

from . import core_facts, dates, pasted, prompt, prompted, rule_based, rules, sentences, types, verdicts
from .clauses import split_clauses

# The package exports what each module exports: each module's ``__all__`` is the one list of its names (a star
# import binds exactly those; type checkers read it so too).
from .core_facts import *  # noqa: F403
from .pasted import *  # noqa: F403
from .prompt import *  # noqa: F403
from .prompted import *  # noqa: F403
from .rule_based import *  # noqa: F403
from .rules import *  # noqa: F403
from .sentences import *  # noqa: F403
from .types import *  # noqa: F403
from .verdicts import *  # noqa: F403

__all__: list[str] = []
__all__ += types.__all__
__all__ += sentences.__all__
__all__ += verdicts.__all__
__all__ += rules.__all__
__all__ += rule_based.__all__
__all__ += ["split_clauses"]  # the other names of .clauses serve the rules only
__all__ += pasted.__all__
__all__ += core_facts.__all__
__all__ += prompt.__all__
__all__ += prompted.__all__
