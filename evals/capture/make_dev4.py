"""Writes dev4.json: the fourth development set (until round 4 of the rules it was the blind set, heldout2.json).

Written by someone who had not seen or run the capture rules; its numbers were read once as a blind set
(0.507 / 0.618 / 0.188 for the rules), then it became a development set (evals/capture/README.md).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _script import A, F, U, conv, write  # noqa: E402

# -- changes: home ------------------------------------------------------------------------
conv("h2-change-01", "change", [
    U("We rent a one-bedroom flat in Ghent, tiny but cheap.", F("User rents a one-bedroom flat in Ghent.")),
    A("Ghent is lovely."),
    U("update! we finally bought a house in Bruges, got the keys on Friday",
      F("User owns a house in Bruges.", "User rents a one-bedroom flat in Ghent."))],
    [["User owns a house in Bruges.", "User bought a house in Bruges.", "User lives in a house in Bruges."]],
    ["User rents a one-bedroom flat in Ghent."])
conv("h2-change-02", "change", [
    U("I live alone in a studio in Krak\u00f3w, it's about 25 square metres.", F("User lives alone in a studio in Krak\u00f3w.")),
    A("Cosy!"),
    U("ok so Tomasz and I moved in together, we share his apartment in Nowa Huta now",
      F("User lives with Tomasz in his apartment in Nowa Huta.", "User lives alone in a studio in Krak\u00f3w.")),
    A("Congrats on the move!")],
    [["User lives with Tomasz in Nowa Huta.", "User moved in with Tomasz.", "User shares an apartment with Tomasz."]],
    ["User lives alone in a studio in Krak\u00f3w."])
conv("h2-change-03", "change", [
    U("I'm in a flat share in Manchester with three other guys.", F("User lives in a flat share in Manchester.")),
    A("Sounds lively."),
    U("long story short, the lease ended and I'm back at my parents' place in Stockport for now",
      F("User lives with their parents in Stockport.", "User lives in a flat share in Manchester."))],
    [["User lives with their parents in Stockport.", "User moved back to their parents' place in Stockport."]],
    ["User lives in a flat share in Manchester."])

# -- changes: job -------------------------------------------------------------------------
conv("h2-change-04", "change", [
    U("I'm a warehouse supervisor at an Amazon fulfilment centre.", F("User is a warehouse supervisor at an Amazon fulfilment centre.")),
    A("Busy job, I imagine."),
    U("So they let me go on Monday. Budget cuts. I'm job hunting now.",
      F("User is unemployed and looking for a job.", "User is a warehouse supervisor at an Amazon fulfilment centre.")),
    A("I'm sorry to hear that."),
    U("good news though, I start as a dispatcher at a logistics firm in Coventry next week!",
      F("User has a new job as a dispatcher at a logistics firm in Coventry.", "User is unemployed and looking for a job."))],
    [["User has a new job as a dispatcher at a logistics firm in Coventry.", "User is a dispatcher at a logistics firm.",
      "User works as a dispatcher in Coventry."]],
    ["User is a warehouse supervisor at an Amazon fulfilment centre.", "User is unemployed and looking for a job."])
conv("h2-change-05", "change", [
    U("I'm a dental hygienist at a practice in Galway.", F("User is a dental hygienist at a practice in Galway.")),
    A("Nice."),
    U("big news in the family: my brother quit his bank job and now works as a carpenter",
      F("User's brother works as a carpenter.")),
    A("Brave move for him!")],
    [["User is a dental hygienist at a practice in Galway.", "User is a dental hygienist.", "User works as a dental hygienist in Galway."],
     ["User's brother works as a carpenter.", "User's brother is a carpenter."]],
    [])
conv("h2-change-06", "change", [
    U("I teach piano at a music school in Graz.", F("User teaches piano at a music school in Graz.")),
    A("Lovely."),
    U("fyi I quit the music school, I only give private lessons from home now",
      F("User gives private piano lessons from home.", "User teaches piano at a music school in Graz."))],
    [["User gives private piano lessons from home.", "User teaches piano privately from home.", "User quit the music school."]],
    ["User teaches piano at a music school in Graz."])
conv("h2-change-07", "change", [
    U("I'm a postman, been doing the same route for thirty years.", F("User is a postman.")),
    A("That's dedication."),
    U("Friday was my last day - I'm officially retired!", F("User is retired.", "User is a postman.")),
    A("Congratulations!")],
    [["User is retired.", "User retired.", "User is a retired postman."]],
    ["User is a postman."])
conv("h2-change-08", "change", [
    U("My job: lab technician at a pharma company in Basel.", F("User works as a lab technician at a pharma company in Basel.")),
    A("Interesting."),
    U("I left the lab - started a PhD in biochemistry at ETH Zurich in September.",
      F("User is doing a PhD in biochemistry at ETH Zurich.", "User works as a lab technician at a pharma company in Basel."))],
    [["User is doing a PhD in biochemistry at ETH Zurich.", "User is a PhD student at ETH Zurich.",
      "User started a PhD in biochemistry."]],
    ["User works as a lab technician at a pharma company in Basel."])
conv("h2-change-09", "change", [
    U("I work full-time as an accountant.", F("User works full-time as an accountant.")),
    A("OK."),
    U("since the baby arrived I've gone down to three days a week",
      F("User works part-time as an accountant, three days a week.", "User works full-time as an accountant."),
      F("User has a baby."))],
    [["User works part-time as an accountant.", "User works three days a week.", "User works part-time."],
     ["User has a baby.", "User recently had a baby."]],
    ["User works full-time as an accountant."])
conv("h2-change-10", "change", [
    U("I work as a paralegal at a law firm in Leeds.", F("User works as a paralegal at a law firm in Leeds.")),
    A("Do you enjoy it?"),
    U("yes! and I just qualified, so I'm a solicitor at the same firm now",
      F("User is a solicitor at a law firm in Leeds.", "User works as a paralegal at a law firm in Leeds.")),
    A("Well done!")],
    [["User is a solicitor at a law firm in Leeds.", "User is a solicitor.", "User qualified as a solicitor."]],
    ["User works as a paralegal at a law firm in Leeds."])

# -- changes: diet ------------------------------------------------------------------------
conv("h2-change-11", "change", [
    U("I'm a big meat eater, steak at least twice a week.", F("User eats steak at least twice a week.")),
    A("Noted."),
    U("ok so I watched a documentary and went fully vegan three weeks ago", F("User is vegan.", "User eats steak at least twice a week."))],
    [["User is vegan.", "User went vegan.", "User went vegan three weeks ago."]],
    ["User eats steak at least twice a week."])
conv("h2-change-12", "change", [
    U("I take two sugars in my tea, always have.", F("User takes two sugars in their tea.")),
    A("Sweet tooth!"),
    U("Not anymore - I've cut out sugar completely, I'm prediabetic.",
      F("User has given up sugar.", "User takes two sugars in their tea."), F("User is prediabetic."))],
    [["User has given up sugar.", "User avoids sugar.", "User doesn't eat sugar."], ["User is prediabetic."]],
    ["User takes two sugars in their tea."])
conv("h2-change-13", "change", [
    U("I've been pescatarian for years.", F("User is pescatarian.")),
    A("Got it."),
    U("heads up, I eat chicken again, my doctor suggested it", F("User eats chicken.", "User is pescatarian."))],
    [["User eats chicken.", "User eats chicken again.", "User is no longer pescatarian."]],
    ["User is pescatarian."])
conv("h2-change-14", "change", [
    U("I drink a big glass of milk every night before bed.", F("User drinks a glass of milk every night.")),
    A("Classic."),
    U("turns out I'm lactose intolerant, so it's oat milk only from now on",
      F("User is lactose intolerant."), F("User drinks oat milk instead of cow's milk.", "User drinks a glass of milk every night."))],
    ["User is lactose intolerant.", ["User drinks oat milk instead of cow's milk.", "User drinks oat milk.", "User only drinks oat milk."]],
    ["User drinks a glass of milk every night."])

# -- changes: relationships ---------------------------------------------------------------
conv("h2-change-15", "change", [
    U("My girlfriend Leonie and I have been together for two years.", F("User has a girlfriend named Leonie.")),
    A("That's sweet."),
    U("SHE SAID YES!!! Leonie and I are engaged", F("User is engaged to Leonie.", "User has a girlfriend named Leonie."))],
    [["User is engaged to Leonie.", "User got engaged to Leonie.", "Leonie is User's fiancée."]],
    ["User has a girlfriend named Leonie."])
conv("h2-change-16", "change", [
    U("I'm engaged to Rahul, the wedding is in Jaipur.", F("User is engaged to Rahul.")),
    A("How exciting!"),
    U("well, we did it - Rahul and I got married last weekend!", F("User is married to Rahul.", "User is engaged to Rahul."))],
    [["User is married to Rahul.", "User married Rahul.", "User's husband is Rahul."]],
    ["User is engaged to Rahul."])
conv("h2-change-17", "change", [
    U("My wife Ingrid and I live in a house in Uppsala with our two kids.",
      F("User is married to Ingrid."), F("User lives in a house in Uppsala."), F("User has two kids.")),
    A("Sounds like a full house."),
    U("Since the divorce I live alone in a studio in Stockholm. The kids are with me every other week.",
      F("User is divorced from Ingrid.", "User is married to Ingrid."),
      F("User lives alone in a studio in Stockholm.", "User lives in a house in Uppsala."),
      F("User has the kids every other week."))],
    [["User is divorced from Ingrid.", "User is divorced.", "User and Ingrid divorced."],
     ["User lives alone in a studio in Stockholm.", "User lives in a studio in Stockholm."],
     ["User has two kids.", "User has two children."],
     ["User has the kids every other week.", "User's kids stay with them every other week."]],
    ["User is married to Ingrid.", "User lives in a house in Uppsala."])
conv("h2-change-18", "change", [
    U("My husband Miguel and I run a small caf\u00e9 together.",
      F("User is married to Miguel."), F("User runs a small caf\u00e9 with their husband Miguel.")),
    A("That must be lovely."),
    U("Miguel passed away in the spring. I'm running the caf\u00e9 on my own now.",
      F("User's husband Miguel passed away in the spring.", "User is married to Miguel."),
      F("User runs the caf\u00e9 alone.", "User runs a small caf\u00e9 with their husband Miguel.")),
    A("I'm so sorry for your loss.")],
    [["User's husband Miguel passed away.", "User is widowed.", "Miguel passed away in the spring."],
     ["User runs the caf\u00e9 alone.", "User runs a small caf\u00e9 on their own."]],
    ["User is married to Miguel.", "User runs a small caf\u00e9 with their husband Miguel."])
conv("h2-change-19", "change", [
    U("I'm single, haven't dated in ages.", F("User is single.")),
    A("No rush."),
    U("so... I'm seeing someone! her name is Chlo\u00e9, we met at a friend's wedding",
      F("User is dating Chlo\u00e9.", "User is single."))],
    [["User is dating Chlo\u00e9.", "User is seeing Chlo\u00e9.", "User's girlfriend is Chlo\u00e9."]],
    ["User is single."])

# -- changes: habits ----------------------------------------------------------------------
conv("h2-change-20", "change", [
    U("I'm a smoker, about a pack a day.", F("User smokes about a pack a day.")),
    A("OK."),
    U("Day 40 without a cigarette. I think I've actually quit!", F("User has quit smoking.", "User smokes about a pack a day."))],
    [["User has quit smoking.", "User quit smoking.", "User no longer smokes."]],
    ["User smokes about a pack a day."])
conv("h2-change-21", "change", [
    U("I drive to work every day, forty minutes each way.", F("User drives to work.")),
    A("That's a long commute."),
    U("new habit: I cycle to the office now, the car stays at home", F("User cycles to work.", "User drives to work."))],
    [["User cycles to work.", "User bikes to the office.", "User cycles to the office."]],
    ["User drives to work."])
conv("h2-change-22", "change", [
    U("My wife and I have wine with dinner most nights.", F("User drinks wine with dinner most nights."), F("User is married.")),
    A("Sounds relaxing."),
    U("I've stopped drinking altogether, six months sober now",
      F("User has stopped drinking alcohol.", "User drinks wine with dinner most nights."))],
    [["User has stopped drinking alcohol.", "User doesn't drink alcohol.", "User is sober."], ["User is married.", "User has a wife."]],
    ["User drinks wine with dinner most nights."])
conv("h2-change-23", "change", [
    U("Green tea person through and through, three cups a day.", F("User drinks three cups of green tea a day.")),
    A("Very healthy."),
    U("don't laugh, I've switched to coffee. a flat white every morning",
      F("User drinks a flat white every morning.", "User drinks three cups of green tea a day."))],
    [["User drinks a flat white every morning.", "User drinks coffee.", "User switched from tea to coffee."]],
    ["User drinks three cups of green tea a day."])

# -- changes: pets, vehicles, phones ------------------------------------------------------
conv("h2-change-24", "change", [
    U("No pets for us, our landlord doesn't allow them.", F("User has no pets.")),
    A("That's a shame."),
    U("new landlord, new rules: we adopted a beagle called Pickle!", F("User has a beagle called Pickle.", "User has no pets."))],
    [["User has a beagle called Pickle.", "User adopted a beagle named Pickle.", "User has a dog named Pickle."]],
    ["User has no pets."])
conv("h2-change-25", "change", [
    U("My cat Miso is 17, she still sleeps on my keyboard.", F("User has a 17-year-old cat named Miso.")),
    A("Ha, classic cat."),
    U("Miso died on Sunday. The house feels so empty.", F("User's cat Miso died.", "User has a 17-year-old cat named Miso."))],
    [["User's cat Miso died.", "User's cat Miso passed away."]],
    ["User has a 17-year-old cat named Miso."])
conv("h2-change-26", "change", [
    U("I drive an old Volvo estate.", F("User drives an old Volvo estate.")),
    A("Solid cars."),
    U("sold the Volvo! we're a car-free household now, bikes and trams", F("User doesn't have a car.", "User drives an old Volvo estate."))],
    [["User doesn't have a car.", "User sold their Volvo.", "User's household is car-free."]],
    ["User drives an old Volvo estate."])
conv("h2-change-27", "change", [
    U("I'm an iPhone person, had one since the 4S.", F("User uses an iPhone.")),
    A("Loyal!"),
    U("fyi I switched to a Pixel 8 last week, so Android now", F("User uses a Pixel 8 Android phone.", "User uses an iPhone."))],
    [["User uses a Pixel 8.", "User uses an Android phone.", "User switched to a Pixel 8."]],
    ["User uses an iPhone."])

# -- ephemeral remarks --------------------------------------------------------------------
conv("h2-ephemeral-01", "ephemeral", [
    U("ugh, I'm so grumpy this morning"), A("Coffee?"),
    U("I'm at the dentist right now, the waiting room is freezing"),
    U("I'm a sound engineer for a theatre, so late nights are normal", F("User is a sound engineer for a theatre."))],
    [["User is a sound engineer for a theatre.", "User is a sound engineer.", "User works as a sound engineer at a theatre."]])
conv("h2-ephemeral-02", "ephemeral", [
    U("tonight we're ordering pizza and watching the match"), A("Enjoy!"),
    U("I'm a Liverpool season ticket holder btw", F("User is a Liverpool season ticket holder."))],
    [["User is a Liverpool season ticket holder.", "User has a Liverpool season ticket."]])
conv("h2-ephemeral-03", "ephemeral", [
    U("I have a physio appointment tomorrow at 10."), A("Hope it helps."),
    U("I'm so nervous about it lol"),
    U("I tore my ACL skiing last year.", F("User tore their ACL skiing last year."))],
    [["User tore their ACL skiing last year.", "User tore their ACL.", "User had an ACL tear last year."]])
conv("h2-ephemeral-04", "ephemeral", [
    U("feeling really anxious about my exam results today"), A("Fingers crossed."),
    U("I study nursing at Cardiff University.", F("User studies nursing at Cardiff University."))],
    [["User studies nursing at Cardiff University.", "User is a nursing student at Cardiff University."]])
conv("h2-ephemeral-05", "ephemeral", [
    U("I'm on the train to Glasgow at the moment"), U("just had the worst coffee of my life"), A("Oh no!"),
    U("I'm allergic to penicillin btw, it came up at the pharmacy", F("User is allergic to penicillin."))],
    ["User is allergic to penicillin."])
conv("h2-ephemeral-06", "ephemeral", [
    U("I'm off to the gym tonight"), A("Have fun."),
    U("and I'm meeting the accountant tomorrow at 10, wish me luck"),
    U("I'm so excited for the weekend!")],
    [])
conv("h2-ephemeral-07", "ephemeral", [
    U("I'm sick in bed with the flu this week"), A("Get well soon."),
    U("I'm a primary school teacher, so the whole class probably gave it to me", F("User is a primary school teacher."))],
    ["User is a primary school teacher."])

# -- questions ----------------------------------------------------------------------------
conv("h2-question-01", "question", [
    U("how long should I boil an egg for a runny yolk?"), A("About six minutes."),
    U("what about at high altitude?"), U("and do you know when the Lisbon metro closes?")],
    [])
conv("h2-question-02", "question", [
    U("I'm thinking about getting a cat, is that a good idea?"), A("Depends on your schedule."),
    U("Would a cat be okay alone for eight hours?")],
    [])
conv("h2-question-03", "question", [
    U("Can you explain how compound interest works?"), A("Sure: interest earns interest."),
    U("so if I save 200 a month for 10 years, what do I end up with?"),
    U("I'm a pharmacist, does that change anything for my pension?", F("User is a pharmacist."))],
    [["User is a pharmacist.", "User works as a pharmacist."]])
conv("h2-question-04", "question", [
    U("Should I move to Berlin or Amsterdam for a tech job?"), A("Both are good options."),
    U("Would I need to learn Dutch?"), U("What if I quit my job first, is that risky?")],
    [])
conv("h2-question-05", "question", [
    U("Do you think I should learn Rust or Go?"), A("Go is easier to start."),
    U("Am I too old to switch careers at 45?"), U("Is it normal to feel this unsure?")],
    [])

# -- small talk ---------------------------------------------------------------------------
conv("h2-small_talk-01", "small_talk", [
    U("good morning!"), A("Morning! How can I help?"), U("haha yes exactly"), U("thanks, that helps a lot")],
    [])
conv("h2-small_talk-02", "small_talk", [
    U("hey hey"), A("Hi!"), U("cool cool"),
    U("I'm a night owl, always have been", F("User is a night owl."))],
    ["User is a night owl."])
conv("h2-small_talk-03", "small_talk", [
    U("thanks, you're a lifesaver"), A("Happy to help."), U("I'm good, how are you?"),
    U("by the way, I run a bike repair shop in Utrecht", F("User runs a bike repair shop in Utrecht."))],
    [["User runs a bike repair shop in Utrecht.", "User owns a bike repair shop in Utrecht."]])
conv("h2-small_talk-04", "small_talk", [
    U("lol no way"), A("Yes way!"), U("I know, right?"), U("ok bye for now, talk tomorrow")],
    [])
conv("h2-small_talk-05", "small_talk", [
    U("I'm back!"), A("Welcome back."), U("that's so true, I totally agree"), U("I'm not sure about that one tbh")],
    [])

# -- self-introductions -------------------------------------------------------------------
conv("h2-introduction-01", "introduction", [
    U("hi! I'm Oluwaseun but everyone calls me Seun", F("User's name is Oluwaseun."), F("User goes by Seun.")),
    A("Nice to meet you, Seun!")],
    [["User's name is Oluwaseun.", "User is Oluwaseun."], ["User goes by Seun.", "User's nickname is Seun.", "User is called Seun."]])
conv("h2-introduction-02", "introduction", [
    U("Hey, Marta here.", F("User's name is Marta.")), A("Hi Marta!"),
    U("I'm 34, if that matters for the training plan.", F("User is 34."))],
    [["User's name is Marta.", "User is Marta."], ["User is 34.", "User is 34 years old."]])
conv("h2-introduction-03", "introduction", [
    U("My name's Dev.", F("User's name is Dev.")), A("Hi Dev."),
    U("as I said, I'm Dev - short for Devendra", F("User's full name is Devendra."))],
    [["User's name is Dev.", "User is called Dev.", "User goes by Dev."],
     ["User's full name is Devendra.", "User's name Dev is short for Devendra."]])
conv("h2-introduction-04", "introduction", [
    U("Hello! Jonas, 41, dad of three, based in Aarhus.",
      F("User's name is Jonas."), F("User is 41."), F("User has three children."), F("User lives in Aarhus.")),
    A("Welcome, Jonas.")],
    [["User's name is Jonas.", "User is Jonas."], ["User is 41.", "User is 41 years old."],
     ["User has three children.", "User is a father of three.", "User has three kids."],
     ["User lives in Aarhus.", "User is based in Aarhus."]])
conv("h2-introduction-05", "introduction", [
    U("I'm Greta, 29.", F("User's name is Greta."), F("User is 29.")), A("Hi Greta!"),
    U("well, 30 as of yesterday, ugh", F("User is 30.", "User is 29.")),
    A("Happy belated birthday!")],
    [["User's name is Greta.", "User is Greta."], ["User is 30.", "User turned 30.", "User is 30 years old."]],
    ["User is 29."])
conv("h2-introduction-06", "introduction", [
    U("I'm Hannah.", F("User's name is Hannah.")), A("Hello Hannah."),
    U("Hannah Okafor, I mean, in case you need the surname.", F("User's surname is Okafor."))],
    [["User's name is Hannah.", "User's name is Hannah Okafor.", "User is Hannah."],
     ["User's surname is Okafor.", "User's full name is Hannah Okafor."]])

# -- repeats ------------------------------------------------------------------------------
conv("h2-repeat-01", "repeat", [
    U("I don't eat pork.", F("User doesn't eat pork.")), A("Noted."),
    U("yeah, no pork for me, never has been")],
    [["User doesn't eat pork.", "User does not eat pork."]])
conv("h2-repeat-02", "repeat", [
    U("I live in Valencia with my partner.", F("User lives in Valencia with their partner.")), A("Great city."),
    U("like I mentioned, we're in Valencia")],
    [["User lives in Valencia with their partner.", "User lives in Valencia."]])
conv("h2-repeat-03", "repeat", [
    U("I'm a freelance translator, Japanese to English.", F("User is a freelance translator from Japanese to English.")),
    A("Fascinating."),
    U("translating Japanese is literally my job, so trust me on this one")],
    [["User is a freelance translator from Japanese to English.", "User is a freelance translator.",
      "User translates Japanese to English."]])
conv("h2-repeat-04", "repeat", [
    U("I used to play rugby at university.", F("User played rugby at university.")), A("Tough sport."),
    U("back in uni I played rugby, so I know a thing or two about injuries")],
    [["User played rugby at university.", "User used to play rugby."]])
conv("h2-repeat-05", "repeat", [
    U("I have type 1 diabetes.", F("User has type 1 diabetes.")), A("Thanks for telling me."),
    U("just a reminder, I'm type 1 diabetic, so watch the carbs in that recipe")],
    [["User has type 1 diabetes.", "User is type 1 diabetic."]])

# -- compound sentences -------------------------------------------------------------------
conv("h2-compound-01", "compound", [
    U("I'm a midwife and my husband drives a taxi.", F("User is a midwife."), F("User's husband drives a taxi.")),
    A("So your shifts never line up, I guess."),
    U("pretty much haha")],
    ["User is a midwife.", ["User's husband drives a taxi.", "User's husband is a taxi driver."]])
conv("h2-compound-02", "compound", [
    U("I love running but my knees are shot, so I swim now.",
      F("User has bad knees."), F("User swims instead of running.")),
    A("Swimming is gentle on the joints.")],
    [["User has bad knees.", "User has knee problems."], ["User swims instead of running.", "User swims now.", "User swims."]])
conv("h2-compound-03", "compound", [
    U("I used to live in Dublin, now I'm in Cork and I work remotely for a bank.",
      F("User used to live in Dublin."), F("User lives in Cork."), F("User works remotely for a bank.")),
    A("Cork has a great food scene."),
    U("it really does, the English Market is my happy place")],
    [["User used to live in Dublin.", "User previously lived in Dublin."], "User lives in Cork.",
     ["User works remotely for a bank.", "User works remotely."]])
conv("h2-compound-04", "compound", [
    U("My sister is a pilot and I'm scared of flying, funny right?", F("User's sister is a pilot."), F("User is scared of flying.")),
    A("Ha, that is ironic.")],
    ["User's sister is a pilot.", ["User is scared of flying.", "User is afraid of flying."]])
conv("h2-compound-05", "compound", [
    U("fyi I don't drink coffee and I can't eat gluten", F("User doesn't drink coffee."), F("User can't eat gluten.")),
    A("Thanks, I'll keep that in mind for the menu."),
    U("so what could I order at an Italian place?")],
    [["User doesn't drink coffee.", "User does not drink coffee."],
     ["User can't eat gluten.", "User is gluten-free.", "User doesn't eat gluten."]])
conv("h2-compound-06", "compound", [
    U("We live in a village near Ljubljana and we keep chickens.",
      F("User lives in a village near Ljubljana."), F("User keeps chickens.")), A("Fresh eggs!")],
    ["User lives in a village near Ljubljana.", ["User keeps chickens.", "User has chickens."]])

# -- non-English --------------------------------------------------------------------------
conv("h2-non_english-01", "non_english", [
    U("Salut ! Je m'appelle Camille.", F("User's name is Camille.")), A("Bonjour Camille !"),
    U("Je travaille comme infirmi\u00e8re \u00e0 Bordeaux.", F("User works as a nurse in Bordeaux.")),
    U("Je suis crev\u00e9e ce soir.")],
    [["User's name is Camille.", "User is Camille."], ["User works as a nurse in Bordeaux.", "User is a nurse in Bordeaux."]])
conv("h2-non_english-02", "non_english", [
    U("Ich wohne in Hamburg.", F("User lives in Hamburg.")), A("Sch\u00f6n!"),
    U("Wir sind letzten Monat nach Leipzig gezogen.", F("User lives in Leipzig.", "User lives in Hamburg.")),
    U("Wie wird das Wetter morgen?")],
    [["User lives in Leipzig.", "User moved to Leipzig."]],
    ["User lives in Hamburg."])
conv("h2-non_english-03", "non_english", [
    U("Bom dia!"), A("Bom dia!"),
    U("Sou vegetariana h\u00e1 cinco anos e tenho dois gatos.", F("User has been vegetarian for five years."), F("User has two cats.")),
    U("Obrigada pela ajuda!")],
    [["User has been vegetarian for five years.", "User is vegetarian."], "User has two cats."])
conv("h2-non_english-04", "non_english", [
    U("Cze\u015b\u0107, jestem Bartek.", F("User's name is Bartek.")),
    U("Mam 28 lat i pracuj\u0119 jako programista w Gda\u0144sku.", F("User is 28."), F("User works as a programmer in Gda\u0144sk.")),
    A("Mi\u0142o mi!"),
    U("Jutro o dziesi\u0105tej mam wizyt\u0119 u lekarza.")],
    [["User's name is Bartek.", "User is Bartek."], ["User is 28.", "User is 28 years old."],
     ["User works as a programmer in Gda\u0144sk.", "User is a programmer in Gda\u0144sk.", "User is a programmer."]])
conv("h2-non_english-05", "non_english", [
    U("Fr\u00fcher habe ich geraucht, aber seit drei Jahren nicht mehr.", F("User quit smoking three years ago.")),
    A("Gl\u00fcckwunsch!"),
    U("Ich trinke auch keinen Alkohol.", F("User doesn't drink alcohol.")),
    U("Haha, ja genau.")],
    [["User quit smoking three years ago.", "User no longer smokes.", "User used to smoke."],
     ["User doesn't drink alcohol.", "User does not drink alcohol."]])
conv("h2-non_english-06", "non_english", [
    U("Je suis boulang\u00e8re \u00e0 Nantes.", F("User is a baker in Nantes.")), A("Super !"),
    U("Mon fr\u00e8re vient d'ouvrir un restaurant \u00e0 Paris.", F("User's brother opened a restaurant in Paris.")),
    U("Et moi, j'ai pris ma retraite en juin !", F("User is retired.", "User is a baker in Nantes."))],
    [["User is retired.", "User retired in June."],
     ["User's brother opened a restaurant in Paris.", "User's brother has a restaurant in Paris."]],
    ["User is a baker in Nantes."])

write("capture-dev4", "Fourth development set of scripted conversations (formerly the blind set heldout2.json, "
              "written without reading or running the capture rules; the rules were improved on it from round 4 "
              "on); format as dev.json (evals/capture/README.md).",
      Path(__file__).with_name("dev4.json"))
