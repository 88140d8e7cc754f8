import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _script import A, F, U, conv, write  # noqa: E402

# -- changes: address, job, diet, relationships -----------------------------------------
conv("chg-01", "change", [U("I live in Lisbon.", F("User lives in Lisbon.")), A("Lovely city!"),
     U("I moved to Porto last month.", F("User lives in Porto.", "User lives in Lisbon."))],
     [["User lives in Porto.", "User moved to Porto."]], ["User lives in Lisbon."])
conv("chg-02", "change", [U("I'm vegetarian.", F("User is vegetarian.")), A("Noted."),
     U("I'm no longer vegetarian \u2014 I eat fish again since January.", F("User eats fish.", "User is vegetarian."))],
     [["User eats fish.", "User eats fish again.", "User is no longer vegetarian."]], ["User is vegetarian."])
conv("chg-03", "change", [U("I work as a nurse at the city hospital.", F("User works as a nurse at the city hospital.")),
     A("That must be demanding."), U("I switched to a night shift.", F("User works night shifts."))],
     ["User works as a nurse at the city hospital.", ["User switched to a night shift.", "User works night shifts."]])
conv("chg-04", "change", [U("I work at Google as a data analyst.", F("User works at Google as a data analyst.")),
     A("Cool."), U("I quit Google and now I work at a small startup.", F("User works at a small startup.", "User works at Google as a data analyst."))],
     [["User works at a small startup.", "User now works at a small startup."]], ["User works at Google as a data analyst."])
conv("chg-05", "change", [U("My girlfriend Ana lives with me.", F("User's girlfriend Ana lives with the user.")),
     A("Nice."), U("Ana and I broke up in March.", F("User and Ana broke up in March.", "User's girlfriend Ana lives with the user."))],
     [["User and Ana broke up in March.", "User broke up with Ana."]], ["User's girlfriend Ana lives with me."])
conv("chg-06", "change", [U("I drive a Toyota Corolla.", F("User drives a Toyota Corolla.")),
     U("I sold my Corolla, I don't drive anymore.", F("User does not drive.", "User drives a Toyota Corolla."))],
     [["User doesn't drive anymore.", "User does not drive.", "User sold their Corolla."]], ["User drives a Toyota Corolla."])
conv("chg-07", "change", [U("I play tennis every Sunday.", F("User plays tennis every Sunday.")), A("Great exercise."),
     U("I don't play tennis anymore because of my knee.", F("User no longer plays tennis.", "User plays tennis every Sunday."))],
     [["User doesn't play tennis anymore.", "User no longer plays tennis."]], ["User plays tennis every Sunday."])
conv("chg-08", "change", [U("I live in Berlin with my two cats.", F("User lives in Berlin with two cats.")),
     U("I moved to Munich in June.", F("User lives in Munich.", "User lives in Berlin with two cats."))],
     [["User lives in Munich.", "User moved to Munich."]], ["User lives in Berlin with their two cats."])
conv("chg-09", "change", [U("I'm vegan.", F("User is vegan.")), A("Got it."),
     U("Now I eat eggs and cheese again, I'm not vegan anymore.", F("User eats eggs and cheese.", "User is vegan."))],
     [["User eats eggs and cheese again.", "User eats eggs and cheese.", "User is not vegan anymore."]], ["User is vegan."])
conv("chg-10", "change", [U("I teach math at a high school.", F("User teaches math at a high school.")),
     U("I switched to teaching physics this year.", F("User teaches physics.", "User teaches math at a high school."))],
     [["User switched to teaching physics.", "User teaches physics."]], ["User teaches math at a high school."])
conv("chg-11", "change", [U("I'm single.", F("User is single.")), A("OK."),
     U("I got engaged to Sam last weekend!", F("User is engaged to Sam.", "User is single."))],
     [["User got engaged to Sam.", "User is engaged to Sam."]], ["User is single."])
conv("chg-12", "change", [U("I live in a flat in Leeds.", F("User lives in a flat in Leeds.")),
     U("We moved to a house in York.", F("User lives in a house in York.", "User lives in a flat in Leeds."))],
     [["User lives in a house in York.", "User moved to a house in York."]], ["User lives in a flat in Leeds."])
conv("chg-13", "change", [U("I drink a lot of coffee.", F("User drinks a lot of coffee.")),
     U("I switched to green tea, no more coffee for me.", F("User drinks green tea instead of coffee.", "User drinks a lot of coffee."))],
     [["User switched to green tea.", "User drinks green tea."]], ["User drinks a lot of coffee."])
conv("chg-14", "change", [U("I use an iPhone.", F("User uses an iPhone.")), A("Sure."),
     U("I switched to an Android phone last week.", F("User uses an Android phone.", "User uses an iPhone."))],
     [["User switched to an Android phone.", "User uses an Android phone."]], ["User uses an iPhone."])
conv("chg-15", "change", [U("I work as a barista.", F("User works as a barista.")),
     U("I'm a software developer now.", F("User is a software developer.", "User works as a barista."))],
     ["User is a software developer."], ["User works as a barista."])
conv("chg-16", "change", [U("I smoke about ten cigarettes a day.", F("User smokes about ten cigarettes a day.")),
     U("I no longer smoke, I quit in May.", F("User quit smoking in May.", "User smokes about ten cigarettes a day."))],
     [["User no longer smokes.", "User quit smoking."]], ["User smokes about ten cigarettes a day."])

# -- ephemeral remarks --------------------------------------------------------------------
conv("eph-01", "ephemeral", [U("I'm tired today."), A("Take it easy."), U("I'm allergic to peanuts.", F("User is allergic to peanuts."))],
     ["User is allergic to peanuts."])
conv("eph-02", "ephemeral", [U("I have a meeting at 3pm tomorrow."), A("Good luck."), U("I work in sales.", F("User works in sales."))],
     ["User works in sales."])
conv("eph-03", "ephemeral", [U("I'm so hungry right now."), U("I'm in a bad mood today, sorry."), U("I have two kids.", F("User has two kids."))],
     ["User has two kids."])
conv("eph-04", "ephemeral", [U("I'm at the airport at the moment."), A("Safe travels."), U("I'm a pilot.", F("User is a pilot."))],
     ["User is a pilot."])
conv("eph-05", "ephemeral", [U("I have a headache today."), U("I just had lunch."), U("I live in Madrid.", F("User lives in Madrid."))],
     ["User lives in Madrid."])
conv("eph-06", "ephemeral", [U("I'm bored."), A("Want a game?"), U("I'm stressed this week."), U("I'm training for a marathon.", F("User is training for a marathon."))],
     ["User is training for a marathon."])
conv("eph-07", "ephemeral", [U("I'm going to the dentist tomorrow at 10am."), U("I speak Spanish and German.", F("User speaks Spanish and German."))],
     [["User speaks Spanish and German.", "User speaks Spanish."]])

# -- questions ----------------------------------------------------------------------------
conv("q-01", "question", [U("What's the capital of Australia?"), A("Canberra."), U("I'm a geography teacher.", F("User is a geography teacher."))],
     ["User is a geography teacher."])
conv("q-02", "question", [U("Can you recommend a good pasta recipe?"), A("Try carbonara."), U("I'm lactose intolerant, what else?", F("User is lactose intolerant."))],
     ["User is lactose intolerant."])
conv("q-03", "question", [U("How do I fix a flat bike tire?"), A("Use a patch kit."), U("Do I need a pump?"), U("I commute by bike.", F("User commutes by bike."))],
     ["User commutes by bike."])
conv("q-04", "question", [U("Is it going to rain in Dublin tomorrow?"), A("Probably."), U("Why is the sky blue?")], [])

# -- small talk ---------------------------------------------------------------------------
conv("st-01", "small_talk", [U("Hi there!"), A("Hello!"), U("Thanks, that's great."), U("I have a dog named Rex.", F("User has a dog named Rex."))],
     ["User has a dog named Rex."])
conv("st-02", "small_talk", [U("lol ok"), U("I'm sure that's wrong."), U("I see."), U("I'm fine, thanks.")], [])
conv("st-03", "small_talk", [U("Good morning!"), A("Morning!"), U("I think it will rain."), U("I own a bakery.", F("User owns a bakery."))],
     ["User owns a bakery."])
conv("st-04", "small_talk", [U("Haha, that's funny."), A(":)"), U("I agree with that."), U("I play the violin.", F("User plays the violin."))],
     ["User plays the violin."])

# -- self-introductions -------------------------------------------------------------------
conv("intro-01", "introduction", [U("I'm Maya, by the way.", F("User's name is Maya.")), A("Hi Maya!"), U("I'm a vet.", F("User is a vet."))],
     [["User's name is Maya.", "User is Maya."], "User is a vet."])
conv("intro-02", "introduction", [U("My name is Tom.", F("User's name is Tom.")), A("Hi Tom."), U("My name is Tom, as I said.")],
     ["User's name is Tom."])
conv("intro-03", "introduction", [U("Hi, I'm Priya and I'm a chemist.", F("User's name is Priya."), F("User is a chemist.")), A("Welcome!")],
     [["User's name is Priya.", "User is Priya."], "User is a chemist."])
conv("intro-04", "introduction", [U("Hello, my name is Lars.", F("User's name is Lars.")), A("Hello."), U("I'm Lars, from Oslo.", F("User is from Oslo."))],
     ["User's name is Lars.", "User is from Oslo."])

# -- repeats ------------------------------------------------------------------------------
conv("rep-01", "repeat", [U("I'm allergic to shellfish.", F("User is allergic to shellfish.")), A("Noted."),
     U("As I said, I'm allergic to shellfish.")], ["User is allergic to shellfish."])
conv("rep-02", "repeat", [U("I have a golden retriever.", F("User has a golden retriever.")),
     U("I have a golden retriever called Bo.", F("User's golden retriever is called Bo.", "User has a golden retriever."))],
     [["User has a golden retriever called Bo.", "User's golden retriever is called Bo."]], [])
conv("rep-03", "repeat", [U("I live in Paris.", F("User lives in Paris.")), A("Bonjour!"), U("I live in Paris."), U("Like I said, I live in Paris.")],
     ["User lives in Paris."])
conv("rep-04", "repeat", [U("I work as an architect.", F("User works as an architect.")), U("I'm an architect.")],
     [["User works as an architect.", "User is an architect."]])

# -- compound sentences -------------------------------------------------------------------
conv("cmp-01", "compound", [U("I'm vegetarian and my daughter Mia is 7.", F("User is vegetarian."), F("User's daughter Mia is 7."))],
     ["User is vegetarian.", "User's daughter Mia is 7."])
conv("cmp-02", "compound", [U("I live in Rome and I work as a chef.", F("User lives in Rome."), F("User works as a chef."))],
     ["User lives in Rome.", "User works as a chef."])
conv("cmp-03", "compound", [U("My husband is a doctor and my son plays football.", F("User's husband is a doctor."), F("User's son plays football."))],
     ["User's husband is a doctor.", "User's son plays football."])
conv("cmp-04", "compound", [U("I have a cat, and I'm allergic to dogs.", F("User has a cat."), F("User is allergic to dogs."))],
     ["User has a cat.", "User is allergic to dogs."])
conv("cmp-05", "compound", [U("I'm 34 and I love hiking.", F("User is 34."), F("User loves hiking."))],
     ["User is 34.", "User loves hiking."])

# -- non-English --------------------------------------------------------------------------
conv("ne-01", "non_english", [U("Ich bin Vegetarierin.", F("User is vegetarian.")), A("Verstanden."), U("I'm a student.", F("User is a student."))],
     ["User is vegetarian.", "User is a student."])
conv("ne-02", "non_english", [U("Je suis fatigu\u00e9e aujourd'hui."), U("J'habite \u00e0 Lyon.", F("User lives in Lyon."))], ["User lives in Lyon."])
conv("ne-03", "non_english", [U("Eu moro em S\u00e3o Paulo.", F("User lives in S\u00e3o Paulo.")), U("I have a brother.", F("User has a brother."))], ["User lives in S\u00e3o Paulo.", "User has a brother."])

write("capture-dev", "Scripted conversations and the facts a careful person would keep valid at the end (evals/capture/README.md).",
      Path(__file__).with_name("dev.json"))
