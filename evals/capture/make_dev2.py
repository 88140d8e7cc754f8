"""Writes dev2.json: a second development set of scripted capture conversations (evals/capture/README.md).

Written before the rules were changed for it, with other people, topics and phrasings than dev.json:
homes rented, bought and shared, jobs lost, left, started and retired from, diets taken up and dropped,
engagements, marriages, break-ups and a death, habits, pets, relatives' changes, lead-ins ("Quick
update:", "Bad news -"), "we" statements, nicknames, lower-case typing, a few non-English turns.
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _script import A, F, U, conv, write  # noqa: E402

# -- changes: home ----------------------------------------------------------------------------
conv("d2-chg-01", "change", [
    U("We rent a two-bedroom apartment in Oakland.", F("User rents a two-bedroom apartment in Oakland.")),
    A("Nice area, close to everything."),
    U("Quick update: we finally bought a house in Berkeley!",
      F("User bought a house in Berkeley.", "User rents a two-bedroom apartment in Oakland."))],
    [["User bought a house in Berkeley.", "User owns a house in Berkeley.", "User lives in a house in Berkeley."]],
    ["User rents a two-bedroom apartment in Oakland."])
conv("d2-chg-02", "change", [
    U("I live alone in a studio near the university.", F("User lives alone in a studio near the university.")),
    A("Studios are cosy."),
    U("Big news, I moved in with my boyfriend Theo last weekend.",
      F("User lives with their boyfriend Theo.", "User lives alone in a studio near the university."))],
    [["User lives with their boyfriend Theo.", "User moved in with their boyfriend Theo."]],
    ["User lives alone in a studio near the university."])
conv("d2-chg-03", "change", [
    U("I'm based in Toronto.", F("User is based in Toronto.")),
    A("Great city."),
    U("So, we relocated to Vancouver for my wife's job.",
      F("User relocated to Vancouver.", "User is based in Toronto."))],
    [["User relocated to Vancouver.", "User lives in Vancouver.", "User moved to Vancouver."]],
    ["User is based in Toronto."])
conv("d2-chg-04", "change", [
    U("i live in a shared flat in glasgow with three other students",
      F("User lives in a shared flat in Glasgow with three other students.")),
    U("just moved back home to my parents place in inverness to save money",
      F("User lives with their parents in Inverness.", "User lives in a shared flat in Glasgow with three other students."))],
    [["User moved back to their parents' place in Inverness.", "User lives with their parents in Inverness."]],
    ["User lives in a shared flat in Glasgow with three other students."])

# -- changes: job ---------------------------------------------------------------------------------
conv("d2-chg-05", "change", [
    U("I'm a project manager at a logistics company.", F("User is a project manager at a logistics company.")),
    A("Busy job!"),
    U("Bad news \u2014 I was made redundant last week.",
      F("User was made redundant.", "User is a project manager at a logistics company."))],
    [["User was made redundant.", "User was laid off.", "User lost their job."]],
    ["User is a project manager at a logistics company."])
conv("d2-chg-06", "change", [
    U("I work at a bank in the mortgage department.", F("User works at a bank in the mortgage department.")),
    A("Steady work."),
    U("So I handed in my notice and I start at a fintech startup on Monday.",
      F("User is starting a job at a fintech startup.", "User works at a bank in the mortgage department."))],
    [["User is starting a job at a fintech startup.", "User starts at a fintech startup.",
      "User works at a fintech startup."]],
    ["User works at a bank in the mortgage department."])
conv("d2-chg-07", "change", [
    U("I teach chemistry at a secondary school in Leeds.", F("User teaches chemistry at a secondary school in Leeds.")),
    A("Chemistry teachers are heroes."),
    U("Guess what, I retired at the end of June!",
      F("User is retired.", "User teaches chemistry at a secondary school in Leeds."))],
    [["User is retired.", "User retired at the end of June."]],
    ["User teaches chemistry at a secondary school in Leeds."])
conv("d2-chg-08", "change", [
    U("I'm a junior designer at an ad agency.", F("User is a junior designer at an ad agency.")),
    A("Fun!"),
    U("I got promoted to senior designer!",
      F("User was promoted to senior designer.", "User is a junior designer at an ad agency."))],
    [["User got promoted to senior designer.", "User was promoted to senior designer."]],
    ["User is a junior designer at an ad agency."])
conv("d2-chg-09", "change", [
    U("I've been job hunting for months.", F("User has been job hunting for months.")),
    A("Hang in there."),
    U("Finally! I started at Deloitte this week as an auditor.",
      F("User works at Deloitte as an auditor.", "User has been job hunting for months."))],
    [["User started at Deloitte as an auditor.", "User works at Deloitte as an auditor."]],
    ["User has been job hunting for months."])
conv("d2-chg-10", "change", [
    U("I'm studying for a nursing degree.", F("User is studying for a nursing degree.")),
    A("Good luck with it."),
    U("Update: I graduated and now I'm working as an ER nurse!",
      F("User graduated."), F("User works as an ER nurse.", "User is studying for a nursing degree."))],
    ["User graduated.", ["User works as an ER nurse.", "User is working as an ER nurse."]],
    ["User is studying for a nursing degree."])
conv("d2-chg-11", "change", [
    U("I commute by train into the city every day.", F("User commutes by train into the city every day.")),
    A("That's a long day."),
    U("I work from home now, no more commuting!",
      F("User works from home.", "User commutes by train into the city every day."))],
    ["User works from home."],
    ["User commutes by train into the city every day."])

# -- changes: diet, habits --------------------------------------------------------------------------
conv("d2-chg-12", "change", [
    U("I'm a total carnivore, I eat meat with every meal.", F("User eats meat with every meal.")),
    A("Ha, noted."),
    U("Oh and I've gone vegan since watching that documentary.",
      F("User is vegan.", "User eats meat with every meal."))],
    [["User is vegan.", "User has gone vegan.", "User went vegan."]],
    ["User eats meat with every meal."])
conv("d2-chg-13", "change", [
    U("Fun fact: I've been vegan since 2019.", F("User has been vegan since 2019.")),
    A("Impressive."),
    U("I started eating meat again last month.", F("User eats meat again.", "User has been vegan since 2019."))],
    [["User eats meat again.", "User started eating meat again."]],
    ["User has been vegan since 2019."])
conv("d2-chg-14", "change", [
    U("I eat a lot of pasta and bread.", F("User eats a lot of pasta and bread.")),
    A("Carbs are great."),
    U("My doctor says I'm coeliac, so I've cut out gluten completely.",
      F("User is coeliac."), F("User avoids gluten.", "User eats a lot of pasta and bread."))],
    [["User is coeliac.", "User has coeliac disease."],
     ["User avoids gluten.", "User is gluten-free.", "User cut out gluten completely."]],
    ["User eats a lot of pasta and bread."])
conv("d2-chg-15", "change", [
    U("I run 5k three times a week.", F("User runs 5k three times a week.")),
    A("Nice routine."),
    U("I've stopped running since my knee surgery.",
      F("User stopped running after knee surgery.", "User runs 5k three times a week."))],
    [["User stopped running.", "User no longer runs.", "User stopped running after knee surgery."]],
    ["User runs 5k three times a week."])
conv("d2-chg-16", "change", [
    U("I smoke about a pack a day.", F("User smokes about a pack a day.")),
    A("That's a lot."),
    U("I switched from cigarettes to vaping.", F("User vapes instead of smoking cigarettes.",
                                                "User smokes about a pack a day."))],
    [["User switched from cigarettes to vaping.", "User vapes.", "User vapes instead of smoking cigarettes."]],
    ["User smokes about a pack a day."])
conv("d2-chg-17", "change", [
    U("I'm a big coffee drinker, four cups a day.", F("User drinks four cups of coffee a day.")),
    A("Wow."),
    U("Small update - I've switched to decaf.", F("User drinks decaf.", "User drinks four cups of coffee a day."))],
    [["User switched to decaf.", "User drinks decaf."]],
    ["User drinks four cups of coffee a day."])
conv("d2-chg-18", "change", [
    U("I don't exercise at all.", F("User does not exercise.")),
    A("It's never too late."),
    U("I joined a gym in January and I go four times a week now.",
      F("User goes to the gym four times a week.", "User does not exercise."))],
    [["User goes to the gym four times a week.", "User joined a gym."]],
    ["User does not exercise."])
conv("d2-chg-19", "change", [
    U("I like a glass of wine with dinner.", F("User likes a glass of wine with dinner.")),
    A("Sounds nice."),
    U("I've been sober for three months now.",
      F("User has been sober for three months.", "User likes a glass of wine with dinner."))],
    [["User has been sober for three months.", "User is sober."]],
    ["User likes a glass of wine with dinner."])

# -- changes: relationships ---------------------------------------------------------------------
conv("d2-chg-20", "change", [
    U("I'm engaged to Daniel.", F("User is engaged to Daniel.")),
    A("Congratulations!"),
    U("We got married last Saturday!", F("User is married to Daniel.", "User is engaged to Daniel."))],
    [["User is married to Daniel.", "User got married."]],
    ["User is engaged to Daniel."])
conv("d2-chg-21", "change", [
    U("I'm married to Carla.", F("User is married to Carla.")),
    A("How long?"),
    U("Carla and I are divorced now.", F("User is divorced from Carla.", "User is married to Carla."))],
    [["User is divorced from Carla.", "User and Carla are divorced."]],
    ["User is married to Carla."])
conv("d2-chg-22", "change", [
    U("My girlfriend Jess and I live together in Manchester.",
      F("User lives with their girlfriend Jess in Manchester.")),
    A("Lovely."),
    U("Jess and I split up, so I'm living with my parents for now.",
      F("User and Jess split up.", "User lives with their girlfriend Jess in Manchester."),
      F("User lives with their parents."))],
    [["User and Jess split up.", "User split up with Jess."],
     ["User lives with their parents.", "User is living with their parents."]],
    ["User lives with their girlfriend Jess in Manchester."])
conv("d2-chg-23", "change", [
    U("I'm married to Frank.", F("User is married to Frank.")),
    A("Nice."),
    U("My husband Frank passed away in March.",
      F("User's husband Frank passed away in March.", "User is married to Frank."))],
    [["User's husband Frank passed away in March.", "User is widowed."]],
    ["User is married to Frank."])

# -- changes: pets, relatives ----------------------------------------------------------------------
conv("d2-chg-24", "change", [
    U("I don't have any pets.", F("User has no pets.")),
    A("Maybe one day."),
    U("We adopted a rescue dog named Biscuit!",
      F("User has a rescue dog named Biscuit.", "User has no pets."))],
    [["User has a rescue dog named Biscuit.", "User adopted a rescue dog named Biscuit."]],
    ["User has no pets."])
conv("d2-chg-25", "change", [
    U("I have a cat called Mochi.", F("User has a cat called Mochi.")),
    A("Cute name."),
    # "passed away", not "died": "User's cat Mochi died." holds 2 of the 3 tokens of "User has a cat called
    # Mochi." and would match it (README: token matching's blind spot).
    U("Sad news: our cat Mochi passed away on Sunday.",
      F("User's cat Mochi passed away.", "User has a cat called Mochi."))],
    [["User's cat Mochi passed away.", "Mochi passed away."]],
    ["User has a cat called Mochi."])
conv("d2-chg-26", "change", [
    U("I live in Dublin and my parents live in Cork.", F("User lives in Dublin."), F("User's parents live in Cork.")),
    A("Not too far apart."),
    U("My parents sold the house and moved to Spain.",
      F("User's parents moved to Spain.", "User's parents live in Cork."))],
    ["User lives in Dublin.", ["User's parents moved to Spain.", "User's parents sold the house and moved to Spain."]],
    ["User's parents live in Cork."])
conv("d2-chg-27", "change", [
    U("My brother is a chef in Lyon.", F("User's brother is a chef in Lyon.")),
    A("Lucky you."),
    U("My brother quit cooking and became a pilot.",
      F("User's brother became a pilot.", "User's brother is a chef in Lyon."))],
    [["User's brother became a pilot.", "User's brother is a pilot.",
      "User's brother quit cooking and became a pilot."]],
    ["User's brother is a chef in Lyon."])

# -- ephemeral remarks -------------------------------------------------------------------------------
conv("d2-eph-01", "ephemeral", [
    U("Ugh, I'm so sleepy this afternoon."), A("Grab a coffee?"),
    U("I've got a job interview on Thursday."), A("Good luck!"),
    U("I'm a paralegal.", F("User is a paralegal."))],
    ["User is a paralegal."])
conv("d2-eph-02", "ephemeral", [
    U("Feeling a bit under the weather today."), A("Rest up."),
    U("My flight to Rome leaves in two hours."),
    U("I'm allergic to latex.", F("User is allergic to latex."))],
    ["User is allergic to latex."])
conv("d2-eph-03", "ephemeral", [
    U("Just got back from the gym, I'm exhausted."),
    U("Stuck in traffic again lol."),
    U("I drive a Honda Civic.", F("User drives a Honda Civic."))],
    ["User drives a Honda Civic."])
conv("d2-eph-04", "ephemeral", [
    U("I'm cooking dinner for my in-laws tonight."), A("Nervous?"),
    U("I'm really nervous about my exam tomorrow."),
    U("I'm a second-year law student.", F("User is a second-year law student."))],
    ["User is a second-year law student."])
conv("d2-eph-05", "ephemeral", [
    U("I'm working from home today because of the snow."),
    U("We're at my mum's this weekend."),
    U("I'm left-handed.", F("User is left-handed."))],
    ["User is left-handed."])

# -- questions ----------------------------------------------------------------------------------------
conv("d2-q-01", "question", [
    U("What's a good substitute for eggs in baking?"), A("Flax eggs or applesauce."),
    U("I'm vegan, so no dairy either.", F("User is vegan."))],
    [["User is vegan.", "User is vegan and avoids dairy."]])
conv("d2-q-02", "question", [
    U("How long do I roast a whole chicken for?"), A("About 20 minutes per 500 g, plus 20."),
    U("Should I get a Kindle or a Kobo?"), U("Do you know any good podcasts about history?")],
    [])
conv("d2-q-03", "question", [
    U("Where should I take my parents for their anniversary?"), A("Where do they live?"),
    U("They live in Phoenix, by the way.", F("User's parents live in Phoenix."))],
    ["User's parents live in Phoenix."])
conv("d2-q-04", "question", [
    U("Can you help me plan meals for the week? I'm diabetic.", F("User is diabetic.")),
    A("Of course.")],
    ["User is diabetic."])

# -- small talk -----------------------------------------------------------------------------------------
conv("d2-st-01", "small_talk", [
    U("hey hey"), A("Hi!"), U("thanks so much, that helped a ton!"), U("I'm good, how are you?")],
    [])
conv("d2-st-02", "small_talk", [
    U("That's hilarious \U0001F602"), A(":)"), U("I know, right?"),
    U("I'm an accountant, numbers are my thing.", F("User is an accountant."))],
    ["User is an accountant."])
conv("d2-st-03", "small_talk", [
    U("Happy Friday!"), A("You too!"), U("I love that idea."), U("We should grab lunch sometime haha")],
    [])

# -- self-introductions, nicknames ----------------------------------------------------------------------
conv("d2-intro-01", "introduction", [
    U("My name's Rebecca, but everyone calls me Becky.", F("User's name is Rebecca."), F("User goes by Becky.")),
    A("Hi Becky!")],
    [["User's name is Rebecca.", "User is Rebecca."],
     ["User goes by Becky.", "User is called Becky.", "User's nickname is Becky."]])
conv("d2-intro-02", "introduction", [
    U("You can call me Kai.", F("User's name is Kai.")), A("Hi Kai."),
    U("I'm a marine biologist.", F("User is a marine biologist."))],
    [["User's name is Kai.", "User goes by Kai."], "User is a marine biologist."])
conv("d2-intro-03", "introduction", [
    U("I go by Alex, short for Alexandra.", F("User goes by Alex."), F("User's full name is Alexandra.")),
    A("Nice to meet you, Alex.")],
    [["User goes by Alex.", "User's name is Alex."], ["User's full name is Alexandra.", "User's name is Alexandra."]])
conv("d2-intro-04", "introduction", [
    U("Hi! Name's Dmitri, I'm from Kyiv.", F("User's name is Dmitri."), F("User is from Kyiv.")), A("Welcome!")],
    [["User's name is Dmitri.", "User is Dmitri."], "User is from Kyiv."])
conv("d2-intro-05", "introduction", [
    U("I'm Hana.", F("User's name is Hana.")), A("Hello Hana."),
    U("Hana here again, quick question: what's a good rice cooker?")],
    ["User's name is Hana."])

# -- repeats, paraphrased repeats ------------------------------------------------------------------------
conv("d2-rep-01", "repeat", [
    U("I'm allergic to cats.", F("User is allergic to cats.")), A("Noted."),
    U("Like I told you, cats make me sneeze, I'm allergic.")],
    ["User is allergic to cats."])
conv("d2-rep-02", "repeat", [
    U("I work as a paramedic.", F("User works as a paramedic.")), A("Tough job."),
    U("Being a paramedic, I see a lot of rough stuff.")],
    [["User works as a paramedic.", "User is a paramedic."]])
conv("d2-rep-03", "repeat", [
    U("We live in Austin.", F("User lives in Austin.")), A("Keep Austin weird."),
    U("We've lived in Austin for ten years.", F("User has lived in Austin for ten years.", "User lives in Austin."))],
    [["User has lived in Austin for ten years.", "User lives in Austin."]])
conv("d2-rep-04", "repeat", [
    U("I have two daughters.", F("User has two daughters.")), A("Lovely."),
    U("My two girls are 5 and 8.", F("User's daughters are 5 and 8."))],
    ["User has two daughters.", ["User's daughters are 5 and 8.", "User's two daughters are 5 and 8."]])
conv("d2-rep-05", "repeat", [
    U("I'm gluten intolerant.", F("User is gluten intolerant.")), A("Got it."),
    U("Just a reminder that I'm gluten intolerant.")],
    ["User is gluten intolerant."])

# -- compound sentences, "we" statements ------------------------------------------------------------------
conv("d2-cmp-01", "compound", [
    U("We have two kids and a dog, and we live in a small town outside Denver.",
      F("User has two kids."), F("User has a dog."), F("User lives in a small town outside Denver."))],
    [["User has two kids.", "User has two kids and a dog."], ["User has a dog.", "User has two kids and a dog."],
     "User lives in a small town outside Denver."])
conv("d2-cmp-02", "compound", [
    U("I'm a nurse, my husband's a firefighter, and we have twin boys.",
      F("User is a nurse."), F("User's husband is a firefighter."), F("User has twin boys."))],
    ["User is a nurse.", "User's husband is a firefighter.", "User has twin boys."])
conv("d2-cmp-03", "compound", [
    U("I work nights at a warehouse but I'm studying accounting online.",
      F("User works nights at a warehouse."), F("User is studying accounting online."))],
    ["User works nights at a warehouse.", "User is studying accounting online."])
conv("d2-cmp-04", "compound", [
    U("I grew up in Nairobi and I've lived in London since 2015.",
      F("User grew up in Nairobi."), F("User has lived in London since 2015."))],
    ["User grew up in Nairobi.", ["User has lived in London since 2015.", "User lives in London."]])
conv("d2-cmp-05", "compound", [
    U("We're expecting our first baby in October!", F("User is expecting their first baby in October.")),
    A("Congratulations!"),
    U("We keep bees in the back garden.", F("User keeps bees in the back garden."))],
    ["User is expecting their first baby in October.", "User keeps bees in the back garden."])

# -- non-English ------------------------------------------------------------------------------------------
conv("d2-ne-01", "non_english", [
    U("Hola, vivo en Valencia con mi pareja.", F("User lives in Valencia with their partner.")), A("\u00a1Qu\u00e9 bien!"),
    U("I work as a translator.", F("User works as a translator."))],
    ["User lives in Valencia with their partner.", "User works as a translator."])
conv("d2-ne-02", "non_english", [
    U("Bonjour ! Je suis tr\u00e8s fatigu\u00e9e ce soir."), A("Repose-toi."), U("Danke sch\u00f6n!"),
    U("I'm from Quebec.", F("User is from Quebec."))],
    ["User is from Quebec."])
conv("d2-ne-03", "non_english", [
    U("Ich arbeite als Krankenpfleger in Hamburg.", F("User works as a nurse in Hamburg.")),
    U("Sono vegetariano da dieci anni.", F("User has been vegetarian for ten years."))],
    ["User works as a nurse in Hamburg.", "User has been vegetarian for ten years."])

write("capture-dev2", "A second development set of scripted conversations, written before the rules were changed "
      "for it; format as dev.json (evals/capture/README.md).", Path(__file__).with_name("dev2.json"))
