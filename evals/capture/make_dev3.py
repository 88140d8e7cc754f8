"""Writes dev3.json: the third development set (until round 3 of the rules it was the held-out set, heldout.json).

Written after the rules' first version with other people, topics and phrasing than make_dev.py; its numbers were
read once as a held-out set, then it became a development set (evals/capture/README.md).
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _script import A, F, U, conv, write  # noqa: E402

# -- changes --------------------------------------------------------------------------------
conv("h-chg-01", "change", [U("I'm an accountant at a logistics firm.", F("User is an accountant at a logistics firm.")),
     A("Numbers all day, then."), U("Bad news: I got laid off on Friday.", F("User was laid off.", "User is an accountant at a logistics firm."))],
     [["User got laid off.", "User was laid off.", "User got laid off on Friday."]], ["User is an accountant at a logistics firm."])
conv("h-chg-02", "change", [U("My husband Karim and I have been married for ten years.", F("User has been married to Karim for ten years.")),
     A("Congratulations on ten years!"), U("Karim and I divorced this spring.", F("User and Karim divorced.", "User has been married to Karim for ten years."))],
     [["User and Karim divorced this spring.", "User and Karim divorced.", "User is divorced from Karim."]],
     ["User has been married to Karim for ten years."])
conv("h-chg-03", "change", [U("We rent an apartment in Denver.", F("User rents an apartment in Denver.")),
     U("We relocated to Austin in August.", F("User lives in Austin.", "User rents an apartment in Denver."))],
     [["User lives in Austin.", "User relocated to Austin.", "We relocated to Austin in August."]], ["User rents an apartment in Denver."])
conv("h-chg-04", "change", [U("I eat pretty much anything.", F("User eats anything.")), A("Easy to cook for!"),
     U("I went keto two months ago.", F("User follows a keto diet.", "User eats anything."))],
     [["User went keto.", "User follows a keto diet.", "User is on a keto diet."]], ["User eats pretty much anything."])
conv("h-chg-05", "change", [U("I drive an old Honda Civic.", F("User drives an old Honda Civic.")),
     U("I finally sold the Civic and now I bike to work.", F("User bikes to work.", "User drives an old Honda Civic."))],
     [["User bikes to work.", "User now bikes to work."]], ["User drives an old Honda Civic."])
conv("h-chg-06", "change", [U("I work as a junior designer at an agency.", F("User works as a junior designer at an agency.")),
     A("Nice."), U("I got promoted to art director last week!", F("User is an art director.", "User works as a junior designer at an agency."))],
     [["User got promoted to art director.", "User is an art director."]], ["User works as a junior designer at an agency."])
conv("h-chg-07", "change", [U("I'm seeing someone called Jonas.", F("User is dating Jonas.")), A("How exciting."),
     U("Jonas and I split up, it's over.", F("User and Jonas split up.", "User is dating Jonas."))],
     [["User and Jonas split up.", "User split up with Jonas."]], ["User is seeing someone called Jonas."])
conv("h-chg-08", "change", [U("I run every morning before work.", F("User runs every morning before work.")),
     U("I stopped running after my knee surgery.", F("User stopped running.", "User runs every morning before work."))],
     [["User stopped running after their knee surgery.", "User stopped running.", "User no longer runs."]],
     ["User runs every morning before work."])
conv("h-chg-09", "change", [U("I drink two espressos a day.", F("User drinks two espressos a day.")), A("Strong!"),
     U("These days I only drink decaf.", F("User only drinks decaf.", "User drinks two espressos a day."))],
     [["User only drinks decaf.", "User drinks decaf."]], ["User drinks two espressos a day."])
conv("h-chg-10", "change", [U("My sister lives in Glasgow.", F("User's sister lives in Glasgow.")),
     U("I live in Edinburgh.", F("User lives in Edinburgh.")), A("Close to her, then."),
     U("My sister moved to Dublin.", F("User's sister lives in Dublin.", "User's sister lives in Glasgow."))],
     ["User lives in Edinburgh.", ["User's sister moved to Dublin.", "User's sister lives in Dublin."]],
     ["User's sister lives in Glasgow."])
conv("h-chg-11", "change", [U("I'm a full-time student.", F("User is a full-time student.")),
     U("I graduated in June and started a job as a lab technician.", F("User works as a lab technician.", "User is a full-time student."))],
     [["User started a job as a lab technician.", "User works as a lab technician."]], ["User is a full-time student."])

# -- ephemeral ------------------------------------------------------------------------------
conv("h-eph-01", "ephemeral", [U("Ugh, I'm exhausted this morning."), A("Coffee?"), U("I teach yoga on weekends.", F("User teaches yoga on weekends."))],
     ["User teaches yoga on weekends."])
conv("h-eph-02", "ephemeral", [U("I have a job interview next Tuesday."), A("Good luck!"), U("I have three older brothers.", F("User has three older brothers."))],
     ["User has three older brothers."])
conv("h-eph-03", "ephemeral", [U("I'm stuck in traffic right now."), U("I'm a volunteer firefighter.", F("User is a volunteer firefighter."))],
     ["User is a volunteer firefighter."])

# -- questions and small talk ---------------------------------------------------------------
conv("h-q-01", "question", [U("How long should I boil an egg?"), A("About 9 minutes for hard."), U("I keep chickens in my garden.", F("User keeps chickens in their garden."))],
     ["User keeps chickens in their garden."])
conv("h-q-02", "question", [U("I'm diabetic, can I eat mango?", F("User is diabetic.")), A("In moderation.")],
     ["User is diabetic."])
conv("h-q-03", "question", [U("Who won the World Cup in 2010?"), A("Spain."), U("Which team won in 2014?")], [])
conv("h-st-01", "small_talk", [U("Hey! How's it going?"), A("All good."), U("Nice, glad to hear it."), U("I collect vinyl records.", F("User collects vinyl records."))],
     ["User collects vinyl records."])
conv("h-st-02", "small_talk", [U("Oh wow, that's so cool."), U("I totally agree."), U("Makes sense.")], [])

# -- introductions, repeats, compounds -------------------------------------------------------
conv("h-intro-01", "introduction", [U("Hey, I'm Oluwaseun, but everyone calls me Seun.", F("User's name is Oluwaseun; they go by Seun.")),
     A("Nice to meet you, Seun."), U("I'm a nurse in Lagos.", F("User is a nurse in Lagos."))],
     [["User's name is Oluwaseun.", "User goes by Seun.", "User's name is Oluwaseun; they go by Seun."], "User is a nurse in Lagos."])
conv("h-intro-02", "introduction", [U("Call me Bea.", F("User's name is Bea.")), A("Hi Bea!"), U("Bea here again, I'm the one with the parrot.", F("User has a parrot."))],
     [["User's name is Bea.", "User is called Bea."], "User has a parrot."])
conv("h-rep-01", "repeat", [U("I'm allergic to penicillin.", F("User is allergic to penicillin.")), A("Important to know."),
     U("Remember, I'm allergic to penicillin.")], ["User is allergic to penicillin."])
conv("h-rep-02", "repeat", [U("I speak Korean.", F("User speaks Korean.")), U("I speak Korean fluently.", F("User speaks Korean fluently.", "User speaks Korean."))],
     [["User speaks Korean fluently.", "User speaks Korean."]])
conv("h-cmp-01", "compound", [U("I'm a paramedic and my wife runs a florist shop.", F("User is a paramedic."), F("User's wife runs a florist shop."))],
     ["User is a paramedic.", "User's wife runs a florist shop."])
conv("h-cmp-02", "compound", [U("I grew up in Manila, but I've lived in Toronto for 12 years.", F("User grew up in Manila."), F("User has lived in Toronto for 12 years."))],
     ["User grew up in Manila.", "User has lived in Toronto for 12 years."])
conv("h-cmp-03", "compound", [U("We have twin boys and I work from home on Fridays.", F("User has twin boys."), F("User works from home on Fridays."))],
     [["User has twin boys.", "We have twin boys."], "User works from home on Fridays."])

# -- non-English ----------------------------------------------------------------------------
conv("h-ne-01", "non_english", [U("Vivo en Valencia con mi pareja.", F("User lives in Valencia with their partner.")), U("I play the drums.", F("User plays the drums."))],
     ["User lives in Valencia with their partner.", "User plays the drums."])
conv("h-ne-02", "non_english", [U("Sono celiaca.", F("User has coeliac disease.")), A("Capito."), U("Oggi sono stanca.")],
     ["User has coeliac disease."])

write("capture-dev3", "Third development set of scripted conversations (formerly the held-out set heldout.json; "
              "the rules were improved on it from round 3 on); format as dev.json (evals/capture/README.md).",
      Path(__file__).with_name("dev3.json"))
