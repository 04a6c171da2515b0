"""Write the client's gettext catalogs (p2p_rommy/locale/*/LC_MESSAGES/rommy.po) from
the source strings and the translations below, then compile them. Run after adding or
changing a string in the client: ``python tools/catalogs.py`` (needs Babel)."""

from __future__ import annotations

import io
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import write_po

from p2p_rommy.i18n import LOCALE_DIR, compile_catalogs

ROOT = Path(__file__).resolve().parent.parent

# family-flow (issue 30: leaving and coming back, lobby and join, verify and replay)
FAMILY_FLOW: dict[str, tuple[str, str]] = {
    "{name} left the table — can come back with `rommy resume`": (
        "{name} forlod bordet — kan komme tilbage med `rommy resume`",
        "{name} forlot bordet — kan komme tilbake med `rommy resume`",
    ),
    "{name} is back": ("{name} er tilbage", "{name} er tilbake"),
    "The game was ended without {name}; signed by {signers}": (
        "Spillet blev afsluttet uden {name}; underskrevet af {signers}",
        "Spillet ble avsluttet uten {name}; signert av {signers}",
    ),
    "You left the table; the others wait for you. Come back with:": (
        "Du forlod bordet; de andre venter på dig. Kom tilbage med:",
        "Du forlot bordet; de andre venter på deg. Kom tilbake med:",
    ),
    "the game is over": ("spillet er slut", "spillet er slutt"),
    "Køb! is open: k buys, p passes": (
        "Køb! er åbent: k køber, p melder pas",
        "Kjøp! er åpent: k kjøper, p melder pass",
    ),
    "your turn: draw a card (d or t)": (
        "din tur: træk et kort (d eller t)",
        "din tur: trekk et kort (d eller t)",
    ),
    "you have drawn: meld, or discard a card (x)": (
        "du har trukket: meld, eller kast et kort (x)",
        "du har trukket: legg ut, eller kast et kort (x)",
    ),
    "waiting for {name}": ("venter på {name}", "venter på {name}"),
    "the table goes on": ("bordet spiller videre", "bordet spiller videre"),
    "Welcome back: {doing}": ("Velkommen tilbage: {doing}", "Velkommen tilbake: {doing}"),
    "End the game without {name}? The scores so far stand. e again confirms": (
        "Afslut spillet uden {name}? Pointene indtil nu gælder. e igen bekræfter",
        "Avslutte spillet uten {name}? Poengene til nå gjelder. e igjen bekrefter",
    ),
    "I agree to end the game without {name}": (
        "Jeg er med på at afslutte spillet uden {name}",
        "Jeg er med på å avslutte spillet uten {name}",
    ),
    "told the table; {proposer} ends it with e, and your seat signs": (
        "sagt til bordet; {proposer} afslutter med e, og din plads skriver under",
        "sagt til bordet; {proposer} avslutter med e, og din plass signerer",
    ),
    " (the table waits for you: rommy resume)": (
        " (bordet venter på dig: rommy resume)",
        " (bordet venter på deg: rommy resume)",
    ),
    "{game}: table {table}, {players}; last played {when}": (
        "{game}: bordet {table}, {players}; sidst spillet {when}",
        "{game}: bordet {table}, {players}; sist spilt {when}",
    ),
    "no unfinished game to resume under {where}": (
        "intet uafsluttet spil at fortsætte i {where}",
        "ikke noe uavsluttet spill å fortsette i {where}",
    ),
    "several unfinished games; resume one with rommy resume GAME_ID:\n{listed}": (
        "flere uafsluttede spil; fortsæt et med rommy resume SPIL-ID:\n{listed}",
        "flere uavsluttede spill; fortsett ett med rommy resume SPILL-ID:\n{listed}",
    ),
    "cannot read {path}: {why}": ("kan ikke læse {path}: {why}", "kan ikke lese {path}: {why}"),
    "{path} is not a readable transcript: {why}": (
        "{path} er ikke en læsbar spillog: {why}",
        "{path} er ikke en lesbar spillogg: {why}",
    ),
    "--step N needs --round R, and N counts from 1": (
        "--step N kræver --round R, og N tælles fra 1",
        "--step N krever --round R, og N telles fra 1",
    ),
    "(Enter: next; a: all the rest; q: stop) ": (
        "(Enter: næste; a: resten på én gang; q: stop) ",
        "(Enter: neste; a: resten på én gang; q: stopp) ",
    ),
    "(?? : a card nobody but its holder saw: round {round} did not finish, so its cards "
    "were never shown)": (
        "(?? : et kort, kun den, der havde det, så: runde {round} blev ikke færdig, så dens "
        "kort blev aldrig vist)",
        "(?? : et kort bare den som hadde det, så: runde {round} ble ikke ferdig, så kortene "
        "ble aldri vist)",
    ),
    "nobody buys": ("ingen køber", "ingen kjøper"),
    "{name} buys (Køb!) and takes a penalty card": (
        "{name} køber (Køb!) og tager et strafkort",
        "{name} kjøper (Kjøp!) og tar et straffekort",
    ),
    "-- the hands after move {step}:": (
        "-- hænderne efter træk {step}:",
        "-- hendene etter trekk {step}:",
    ),
    "-- round {round}, dealer {dealer}, upcard {upcard}": (
        "-- runde {round}, giver {dealer}, første afkast {upcard}",
        "-- runde {round}, giver {dealer}, første kastekort {upcard}",
    ),
    "round {round} scores: {scores}": (
        "point i runde {round}: {scores}",
        "poeng i runde {round}: {scores}",
    ),
    "DAMAGED TRANSCRIPT: {damage}; the file was changed or broken after the game, so no "
    "player is blamed (the {steps} steps before it were in order)": (
        "BESKADIGET SPILLOG: {damage}; filen blev ændret eller ødelagt efter spillet, så "
        "ingen spiller får skylden (de {steps} trin før var i orden)",
        "SKADET SPILLOGG: {damage}; filen ble endret eller ødelagt etter spillet, så ingen "
        "spiller får skylden (de {steps} stegene før var i orden)",
    ),
    "INCOMPLETE: nobody cheated in the {steps} steps there are, but the game stops there, "
    "before its end (a player left, or the file was copied early)": (
        "UFULDSTÆNDIGT: ingen snød i de {steps} trin, der er, men spillet stopper dér, "
        "før det var slut (en spiller forlod bordet, eller filen blev kopieret for tidligt)",
        "UFULLSTENDIG: ingen jukset i de {steps} stegene som finnes, men spillet stopper "
        "der, før det var slutt (en spiller forlot bordet, eller filen ble kopiert for tidlig)",
    ),
    "FAIR": ("FAIRT SPIL", "ÆRLIG SPILL"),
    "CHEATING DETECTED: the transcript at step {step}: {what}": (
        "SNYD OPDAGET: spilloggen ved trin {step}: {what}",
        "JUKS OPPDAGET: spilloggen ved steg {step}: {what}",
    ),
    "CHEATING DETECTED: seat {seat} ({name}, {fingerprint}) at step {step}: {what}": (
        "SNYD OPDAGET: plads {seat} ({name}, {fingerprint}) ved trin {step}: {what}",
        "JUKS OPPDAGET: plass {seat} ({name}, {fingerprint}) ved steg {step}: {what}",
    ),
    "game {game} (code {code}): {rules}, {players} players, table {table}": (
        "spil {game} (kode {code}): {rules}, {players} spillere, bord {table}",
        "spill {game} (kode {code}): {rules}, {players} spillere, bord {table}",
    ),
    "seats: {seats}": ("pladser: {seats}", "plasser: {seats}"),
    "{steps} steps checked: each signed by its player, in turn, by the rules, every shuffle "
    "and deal proven, and confirmed by every player": (
        "{steps} trin kontrolleret: hvert underskrevet af sin spiller, i tur, efter reglerne, "
        "hver blanding og uddeling bevist og bekræftet af alle spillere",
        "{steps} steg kontrollert: hvert signert av sin spiller, i tur, etter reglene, hver "
        "stokking og utdeling bevist og bekreftet av alle spillere",
    ),
    "round {round}: shuffled by {shufflers}; {dealt} cards dealt, {drawn} drawn, {revealed} "
    "turned face up; audit clean (every card was where the deal said)": (
        "runde {round}: blandet af {shufflers}; {dealt} kort givet, {drawn} trukket, "
        "{revealed} vendt op; kontrollen er ren (hvert kort var, hvor uddelingen sagde)",
        "runde {round}: stokket av {shufflers}; {dealt} kort delt ut, {drawn} trukket, "
        "{revealed} snudd opp; kontrollen er ren (hvert kort var der utdelingen sa)",
    ),
    "scores: {scores}": ("point: {scores}", "poeng: {scores}"),
    "standing: {places}": ("stilling: {places}", "stilling: {places}"),
    "(forfeited)": ("(tabt ved udeblivelse)", "(tapt ved uteblivelse)"),
    "ended by the others' agreement without seat {seat} ({name}), on the word of seats "
    "{signers}: {reason}": (
        "afsluttet efter aftale mellem de andre, uden plads {seat} ({name}), underskrevet af pladserne {signers}: {reason}",
        "avsluttet etter avtale mellom de andre, uten plass {seat} ({name}), signert av plassene {signers}: {reason}",
    ),
    "abandoned on the word of seat {signers} alone, without seat {seat} ({name}): no "
    "standing (at a table of two one player's word forfeits nobody): {reason}": (
        "opgivet med kun plads {signers}s underskrift, uden plads {seat} ({name}): ingen stilling (ved et bord med to kan én spillers ord ikke give nogen et tab): {reason}",
        "oppgitt med bare plass {signers}s signatur, uten plass {seat} ({name}): ingen stilling (ved et bord med to kan ikke én spillers ord gi noen tap): {reason}",
    ),
    "ended by the others' agreement without seats {seats}, who all forfeit, on the word of "
    "seats {signers}: {reason}": (
        "afsluttet efter aftale mellem de andre, uden pladserne {seats}, som alle taber, underskrevet af pladserne {signers}: {reason}",
        "avsluttet etter avtale mellom de andre, uten plassene {seats}, som alle taper, signert av plassene {signers}: {reason}",
    ),
    " and ": (" og ", " og "),
    "round {round} was not over: its cards stay secret, so its shuffles and deals were "
    "checked by their proofs only": (
        "runde {round} var ikke slut: dens kort forbliver hemmelige, så dens blandinger og "
        "uddelinger blev kun kontrolleret ved deres beviser",
        "runde {round} var ikke over: kortene forblir hemmelige, så stokkingene og "
        "utdelingene ble bare kontrollert ved bevisene",
    ),
    "the file ends in the middle of a record (a crash while writing): the rest is missing": (
        "filen slutter midt i en post (et nedbrud under skrivning): resten mangler",
        "filen slutter midt i en post (et krasj under skriving): resten mangler",
    ),
    "not yet checkable: {note}": (
        "kan endnu ikke kontrolleres: {note}",
        "kan ennå ikke kontrolleres: {note}",
    ),
    "cannot reach the table at {address}: {why}": (
        "kan ikke nå bordet på {address}: {why}",
        "kan ikke nå bordet på {address}: {why}",
    ),
    "the table did not let you in: it is full, its game has started, or it refused your "
    "name (the table's creator closed the connection)": (
        "bordet lukkede dig ikke ind: det er fuldt, spillet er i gang, eller dit navn blev "
        "afvist (bordets opretter lukkede forbindelsen)",
        "bordet slapp deg ikke inn: det er fullt, spillet har startet, eller navnet ditt ble "
        "avvist (bordets oppretter lukket forbindelsen)",
    ),
    "the table closed: its creator left or sent you away (the creator closed the "
    "connection); to play, ask them to open a table again with rommy host": (
        "bordet blev lukket: opretteren gik eller sendte dig væk (opretteren lukkede forbindelsen); bed dem åbne et bord igen med rommy host for at spille",
        "bordet ble lukket: oppretteren gikk eller sendte deg bort (oppretteren lukket forbindelsen); be dem åpne et bord igjen med rommy host for å spille",
    ),
    "two table names given: {first!r} and {second!r}": (
        "to bordnavne givet: {first!r} og {second!r}",
        "to bordnavn gitt: {first!r} og {second!r}",
    ),
    "a table needs a name: rommy host NAME (say, rommy host Fredag)": (
        "et bord skal have et navn: rommy host NAVN (fx rommy host Fredag)",
        "et bord må ha et navn: rommy host NAVN (f.eks. rommy host Fredag)",
    ),
    "Did you mean {table!r}?": ("Mente du {table!r}?", "Mente du {table!r}?"),
    "another table on this network is also called {table!r} (by {creators}): joiners will "
    "have to pick by fingerprint; a different name avoids the mix-up": (
        "et andet bord på netværket hedder også {table!r} (af {creators}): de, der sætter sig, "
        "må vælge efter fingeraftryk; et andet navn undgår forvekslingen",
        "et annet bord på nettverket heter også {table!r} (av {creators}): de som blir med, "
        "må velge etter fingeravtrykk; et annet navn unngår forvekslingen",
    ),
    "Waiting {seconds} s for {name}: e ends the game without {name}": (
        "Venter {seconds} s på {name}: e afslutter spillet uden {name}",
        "Venter {seconds} s på {name}: e avslutter spillet uten {name}",
    ),
    "Waiting {seconds} s for {name}: e ends the game without {names}": (
        "Venter {seconds} s på {name}: e afslutter spillet uden {names}",
        "Venter {seconds} s på {name}: e avslutter spillet uten {names}",
    ),
    "(q leaves)": ("(q går)", "(q går)"),
    "Still looking...": ("Leder stadig...", "Ser fortsatt etter..."),
    "looking for the table {name!r}...": (
        "leder efter bordet {name!r}...",
        "ser etter bordet {name!r}...",
    ),
    "looking for a table...": ("leder efter et bord...", "ser etter et bord..."),
    "{table}: {variant}, {taken} of {seats} seats, open to join": (
        "{table}: {variant}, {taken} af {seats} pladser, åbent",
        "{table}: {variant}, {taken} av {seats} plasser, åpent",
    ),
    "{table}: {variant}, {taken} of {seats} seats, playing": (
        "{table}: {variant}, {taken} af {seats} pladser, i gang",
        "{table}: {variant}, {taken} av {seats} plasser, i gang",
    ),
    "creator {creator} at {where}": (
        "opretter {creator} på {where}",
        "oppretter {creator} på {where}",
    ),
    "(compare it aloud now; the game gets a code of its own)": (
        "(sammenlign den højt nu; spillet får sin egen kode)",
        "(sammenlign den høyt nå; spillet får sin egen kode)",
    ),
    "there is no round {round} in this game (it has {count})": (
        "der er ingen runde {round} i dette spil (det har {count})",
        "det er ingen runde {round} i dette spillet (det har {count})",
    ),
    "round {round} has no move {step}": (
        "runde {round} har intet træk {step}",
        "runde {round} har ikke noe trekk {step}",
    ),
    "usage: ": ("brug: ", "bruk: "),
    "%(prog)s: error: %(message)s\n": (
        "%(prog)s: fejl: %(message)s\n",
        "%(prog)s: feil: %(message)s\n",
    ),
    "argument %(argument_name)s: %(message)s": (
        "%(argument_name)s: %(message)s",
        "%(argument_name)s: %(message)s",
    ),
    "invalid choice: %(value)r (choose from %(choices)s)": (
        "ugyldigt valg: %(value)r (vælg mellem %(choices)s)",
        "ugyldig valg: %(value)r (velg mellom %(choices)s)",
    ),
    "invalid %(type)s value: %(value)r": ("ugyldig værdi: %(value)r", "ugyldig verdi: %(value)r"),
    "the following arguments are required: %s": ("disse mangler: %s", "disse mangler: %s"),
    "expected one argument": ("forventede én værdi", "forventet én verdi"),
    "ambiguous option: %(option)s could match %(matches)s": (
        "tvetydigt tilvalg: %(option)s kan være %(matches)s",
        "tvetydig valg: %(option)s kan være %(matches)s",
    ),
    "unrecognized arguments: %s": ("ukendte tilvalg: %s", "ukjente valg: %s"),
}

# source string -> (Danish, Norwegian Bokmål)
# the checkers' own reasons (issue 30): English where they are made, on the wire and in
# the transcript; translated where they are shown (`i18n.say_reason`)
CHECKERS: dict[str, tuple[str, str]] = {
    "{name} must be a house rule value": (
        "feltet {name} skal være en husregels værdi",
        "feltet {name} må være en husregels verdi",
    ),
    "the first dealer must be seated": (
        "den første giver skal have en plads",
        "den første giveren må ha en plass",
    ),
    "a key can hold only one seat": (
        "en nøgle kan kun have én plads",
        "en nøkkel kan bare ha én plass",
    ),
    "the table's name: {problem}": (
        "bordets navn: {problem}",
        "bordets navn: {problem}",
    ),
    "{kind!r}: {problem}": (
        "{kind!r}: {problem}",
        "{kind!r}: {problem}",
    ),
    "{kind!r} has a weak or malformed key": (
        "{kind!r} har en svag eller misdannet nøgle",
        "{kind!r} har en svak eller misdannet nøkkel",
    ),
    "protocol version {value} is not {PROTOCOL_VERSION}": (
        "protokolversion {value} er ikke {PROTOCOL_VERSION}",
        "protokollversjon {value} er ikke {PROTOCOL_VERSION}",
    ),
    "bad game config: {error}": (
        "ugyldig spilopsætning: {error}",
        "ugyldig spilloppsett: {error}",
    ),
    "the game config is not in canonical form": (
        "spilopsætningen er ikke på kanonisk form",
        "spilloppsettet er ikke på kanonisk form",
    ),
    "a peer: {reason}": (
        "en anden spiller: {reason}",
        "en annen spiller: {reason}",
    ),
    "a peer at step {step}: {reason}": (
        "en anden spiller ved trin {step}: {reason}",
        "en annen spiller ved steg {step}: {reason}",
    ),
    "seat {seat}: {reason}": (
        "plads {seat}: {reason}",
        "plass {seat}: {reason}",
    ),
    "seat {seat} at step {step}: {reason}": (
        "plads {seat} ved trin {step}: {reason}",
        "plass {seat} ved steg {step}: {reason}",
    ),
    'as written: "{text}"': (
        'med afsenderens egne ord (uoversat): "{text}"',
        'med avsenderens egne ord (uoversatt): "{text}"',
    ),
    "not a p2p-rommy transcript (bad magic line)": (
        "ikke en p2p-rommy-spillog (forkert første linje)",
        "ikke en p2p-rommy-spillogg (feil første linje)",
    ),
    "the step: {reason}": (
        "trinnet: {reason}",
        "steget: {reason}",
    ),
    "it does not hold a step of this game": (
        "den indeholder ikke et trin i dette spil",
        "den inneholder ikke et steg i dette spillet",
    ),
    "it holds step {n} (records removed, repeated or reordered)": (
        "den indeholder trin {n} (poster fjernet, gentaget eller byttet om)",
        "den inneholder steg {n} (poster fjernet, gjentatt eller byttet om)",
    ),
    "it holds {value} ACKs for {players} seats": (
        "den indeholder {value} kvitteringer for {players} pladser",
        "den inneholder {value} kvitteringer for {players} plasser",
    ),
    "seat {value}'s ACK: {reason}": (
        "plads {value}s kvittering: {reason}",
        "plass {value}s kvittering: {reason}",
    ),
    "the ACK in seat {value}'s place is not its ACK of this step": (
        "kvitteringen på plads {value}s sted er ikke dens kvittering for dette trin",
        "kvitteringen på plass {value}s sted er ikke dens kvittering for dette steget",
    ),
    "message for another game, round or seat": (
        "besked til et andet spil, en anden runde eller plads",
        "beskjed til et annet spill, en annen runde eller plass",
    ),
    "shuffle of an unknown pass": (
        "blanding i en ukendt omgang",
        "stokking i en ukjent omgang",
    ),
    "shuffle proof fails: {error}": (
        "blandingsbeviset holder ikke: {error}",
        "stokkebeviset holder ikke: {error}",
    ),
    "the revealed seed does not open its commitment": (
        "den viste hemmelighed passer ikke til dens forsegling",
        "den viste hemmeligheten passer ikke til forseglingen sin",
    ),
    "did not reveal its seed (forfeit)": (
        "viste ikke sin hemmelighed (tabt ved udeblivelse)",
        "viste ikke hemmeligheten sin (tapt ved uteblivelse)",
    ),
    "share for unknown position {position}": (
        "andel til en ukendt position {position}",
        "andel til en ukjent posisjon {position}",
    ),
    "position {position} given twice": (
        "position {position} givet to gange",
        "posisjon {position} gitt to ganger",
    ),
    "share proof fails: {error}": (
        "andelsbeviset holder ikke: {error}",
        "andelsbeviset holder ikke: {error}",
    ),
    "the key of pass {u} does not come from the seed": (
        "nøglen til omgang {u} kommer ikke fra hemmeligheden",
        "nøkkelen til omgang {u} kommer ikke fra hemmeligheten",
    ),
    "the shuffle of pass {u} does not replay from the seed": (
        "blandingen i omgang {u} kan ikke genskabes fra hemmeligheden",
        "stokkingen i omgang {u} kan ikke gjenskapes fra hemmeligheten",
    ),
    "position {value} holds no card": (
        "position {value} indeholder intet kort",
        "posisjon {value} inneholder ikke noe kort",
    ),
    "the share for position {position} does not replay": (
        "andelen til position {position} kan ikke genskabes",
        "andelen til posisjon {position} kan ikke gjenskapes",
    ),
    "position {position} opened to the wrong card": (
        "position {position} viste sig at være det forkerte kort",
        "posisjon {position} viste seg å være feil kort",
    ),
    "not a point of the prime-order group": (
        "ikke et punkt i gruppen af primorden",
        "ikke et punkt i gruppen av primorden",
    ),
    "{what} is not a valid group point": (
        "{what} er ikke et gyldigt gruppepunkt",
        "{what} er ikke et gyldig gruppepunkt",
    ),
    "the hash maps to the identity": (
        "hashen giver det neutrale element",
        "hashen gir det nøytrale elementet",
    ),
    "scalar multiplication of an invalid point or by zero": (
        "skalarmultiplikation af et ugyldigt punkt eller med nul",
        "skalarmultiplikasjon av et ugyldig punkt eller med null",
    ),
    "scalar multiplication by an invalid scalar": (
        "skalarmultiplikation med en ugyldig skalar",
        "skalarmultiplikasjon med en ugyldig skalar",
    ),
    "scalar multiplication by a multiple of the order": (
        "skalarmultiplikation med et multiplum af ordenen",
        "skalarmultiplikasjon med et multiplum av ordenen",
    ),
    "addition of an invalid point": (
        "addition af et ugyldigt punkt",
        "addisjon av et ugyldig punkt",
    ),
    "the sum is the identity": (
        "summen er det neutrale element",
        "summen er det nøytrale elementet",
    ),
    "an empty sum": (
        "en tom sum",
        "en tom sum",
    ),
    "as many scalars as points": (
        "lige så mange skalarer som punkter",
        "like mange skalarer som punkter",
    ),
    "scalar arithmetic on an invalid scalar": (
        "regning med en ugyldig skalar",
        "regning med en ugyldig skalar",
    ),
    "unknown deck message kind {kind!r}": (
        "ukendt slags kortbesked {kind!r}",
        "ukjent type kortbeskjed {kind!r}",
    ),
    "share proof scalars are not canonical": (
        "andelsbevisets skalarer er ikke kanoniske",
        "andelsbevisets skalarer er ikke kanoniske",
    ),
    "a share proof covers one output for every item": (
        "et andelsbevis dækker ét resultat for hvert element",
        "et andelsbevis dekker ett resultat for hvert element",
    ),
    "a share is not a valid group point": (
        "en andel er ikke et gyldigt gruppepunkt",
        "en andel er ikke et gyldig gruppepunkt",
    ),
    "not one share proof for each pass the shares touch": (
        "ikke ét andelsbevis for hver blandingsomgang, andelene berører",
        "ikke ett andelsbevis for hver stokkeomgang som andelene berører",
    ),
    "a shares message carries one proof for each pass it touches": (
        "en andelsbesked har ét bevis for hver blandingsomgang, den berører",
        "en andelsbeskjed har ett bevis for hver stokkeomgang den berører",
    ),
    "bad shares of pass {shuffle_pass}: {error}": (
        "forkerte andele i blandingsomgang {shuffle_pass}: {error}",
        "feil andeler i stokkeomgang {shuffle_pass}: {error}",
    ),
    "share proof does not verify": (
        "andelsbeviset holder ikke",
        "andelsbeviset holder ikke",
    ),
    "the shuffled deck has {value} cards, not {size}": (
        "det blandede kortspil har {value} kort, ikke {size}",
        "den stokkede kortstokken har {value} kort, ikke {size}",
    ),
    "the shuffled deck holds a duplicated point": (
        "det blandede kortspil har et punkt to gange",
        "den stokkede kortstokken har et punkt to ganger",
    ),
    "card {index} of the shuffled deck is not a valid group point": (
        "kort {index} i det blandede kortspil er ikke et gyldigt gruppepunkt",
        "kort {index} i den stokkede kortstokken er ikke et gyldig gruppepunkt",
    ),
    "bad shuffle: {error}": (
        "ugyldig blanding: {error}",
        "ugyldig stokking: {error}",
    ),
    "a message signed with this seat's own key came back": (
        "en besked underskrevet med denne plads' egen nøgle kom tilbage",
        "en beskjed signert med denne plassens egen nøkkel kom tilbake",
    ),
    "message is for another game, round or seat": (
        "beskeden er til et andet spil, en anden runde eller plads",
        "beskjeden er til et annet spill, en annen runde eller plass",
    ),
    "message does not follow the round's deck transcript as this seat has it (different decks shown to different seats, or a replay)": (
        "beskeden følger ikke rundens kortlog, sådan som denne plads har den (forskellige kortspil vist til forskellige pladser, eller en gentagelse)",
        "beskjeden følger ikke rundens kortlogg slik denne plassen har den (ulike kortstokker vist til ulike plasser, eller en gjentakelse)",
    ),
    "unexpected commitment": (
        "uventet forsegling",
        "uventet forsegling",
    ),
    "no shuffle is due now": (
        "ingen blanding er ventet nu",
        "ingen stokking er ventet nå",
    ),
    "it is seat {expected}'s turn to shuffle pass {index}": (
        "det er plads {expected}s tur til at blande omgang {index}",
        "det er plass {expected}s tur til å stokke omgang {index}",
    ),
    "the shuffle names a key other than the committed one": (
        "blandingen nævner en anden nøgle end den forseglede",
        "stokkingen nevner en annen nøkkel enn den forseglede",
    ),
    "no shares are due now": (
        "ingen andele er ventet nu",
        "ingen andeler er ventet nå",
    ),
    "it is seat {expected_seat}'s turn to share": (
        "det er plads {expected_seat}s tur til at give andele",
        "det er plass {expected_seat}s tur til å gi andeler",
    ),
    "the shares are not for the positions the game assigned": (
        "andelene er ikke til de positioner, spillet tildelte",
        "andelene er ikke til posisjonene spillet tildelte",
    ),
    "unexpected seed reveal": (
        "uventet visning af en hemmelighed",
        "uventet visning av en hemmelighet",
    ),
    "position {position} did not open to a card": (
        "position {position} viste sig ikke at være et kort",
        "posisjon {position} viste seg ikke å være et kort",
    ),
    "no generators for a deck of {size} cards": (
        "ingen generatorer til et kortspil med {size} kort",
        "ingen generatorer til en kortstokk med {size} kort",
    ),
    "the shuffle proof's lists do not all have {size} items": (
        "blandingsbevisets lister har ikke alle {size} elementer",
        "stokkebevisets lister har ikke alle {size} elementer",
    ),
    "a shuffle proof response is not a canonical non-zero scalar": (
        "et svar i blandingsbeviset er ikke en kanonisk skalar forskellig fra nul",
        "et svar i stokkebeviset er ikke en kanonisk skalar forskjellig fra null",
    ),
    "a shuffle proof point is invalid or a sum is the identity": (
        "et punkt i blandingsbeviset er ugyldigt, eller en sum er det neutrale element",
        "et punkt i stokkebeviset er ugyldig, eller en sum er det nøytrale elementet",
    ),
    "seat {seat} ({name}) refused step {n}, which the others found valid ({why}), and did not come back": (
        "plads {seat} ({name}) afviste trin {n}, som de andre fandt gyldigt ({why}), og kom ikke tilbage",
        "plass {seat} ({name}) avviste steg {n}, som de andre fant gyldig ({why}), og kom ikke tilbake",
    ),
    "seat {seat} ({name}) did not come back": (
        "plads {seat} ({name}) kom ikke tilbage",
        "plass {seat} ({name}) kom ikke tilbake",
    ),
    "an end leaves out half the table or more: a majority signs": (
        "en afslutning udelader halvdelen af bordet eller mere: et flertal skal underskrive",
        "en avslutning utelater halve bordet eller mer: et flertall må signere",
    ),
    "an end lists the seats it leaves out unsorted or twice": (
        "en afslutning nævner de udeladte pladser usorteret eller to gange",
        "en avslutning nevner de utelatte plassene usortert eller to ganger",
    ),
    "seat {seat} ({name}) did not come back; {what} never came": (
        "plads {seat} ({name}) kom ikke tilbage; {what} kom aldrig",
        "plass {seat} ({name}) kom ikke tilbake; {what} kom aldri",
    ),
    "--interface takes this machine's IPv4 address on the network (such as 192.168.1.20), not {given!r}; `rommy doctor` lists them": (
        "--interface tager denne maskines IPv4-adresse på netværket (såsom 192.168.1.20), ikke {given!r}; `rommy doctor` viser dem",
        "--interface tar denne maskinens IPv4-adresse på nettverket (for eksempel 192.168.1.20), ikke {given!r}; `rommy doctor` viser dem",
    ),
    "the round's deck is closed": ("rundens kortspil er lukket", "rundens kortstokk er lukket"),
    "no seat {seat}": ("ingen plads {seat}", "ingen plass {seat}"),
    "seat {seat} does not hold position {position}": (
        "plads {seat} har ikke position {position}",
        "plass {seat} har ikke posisjon {position}",
    ),
    "position {position} was already given to seat {seat}": (
        "position {position} er allerede givet til plads {seat}",
        "posisjon {position} er allerede gitt til plass {seat}",
    ),
    "no deck position {position}": (
        "ingen position {position} i kortspillet",
        "ingen posisjon {position} i kortstokken",
    ),
    "key": ("nøglen", "nøkkelen"),
    "commitment": ("forseglingen", "forseglingen"),
    "product chain": ("produktkæden", "produktkjeden"),
    "cards": ("kortene", "kortene"),
    "the shuffle proof does not verify ({what})": (
        "blandingsbeviset holder ikke ({what})",
        "stokkebeviset holder ikke ({what})",
    ),
    "Køb! answers": (
        "Køb!-svar",
        "Kjøp!-svar",
    ),
    "seat {seat}'s Køb! answer does not open its seal (both kept as proof)": (
        "plads {seat}s Køb!-svar passer ikke til dens forsegling (begge gemt som bevis)",
        "plass {seat}s Kjøp!-svar passer ikke til forseglingen (begge lagret som bevis)",
    ),
    "{name} must be 0 or 32 bytes": (
        "feltet {name} skal være 0 eller 32 byte",
        "feltet {name} må være 0 eller 32 byte",
    ),
    "a move for another seat, or one nobody proposes": (
        "et træk for en anden plads, eller et som ingen foreslår",
        "et trekk for en annen plass, eller et som ingen foreslår",
    ),
    "unknown step kind {kind!r}": (
        "ukendt slags trin {kind!r}",
        "ukjent type steg {kind!r}",
    ),
    "a message names another seat than its signer": (
        "en besked nævner en anden plads end dens underskriver",
        "en beskjed nevner en annen plass enn den som signerte",
    ),
    "an observation lists a seat twice": (
        "en iagttagelse nævner en plads to gange",
        "en observasjon nevner en plass to ganger",
    ),
    "unknown log message kind {kind!r}": (
        "ukendt slags logbesked {kind!r}",
        "ukjent type loggbeskjed {kind!r}",
    ),
    "a transcript record is [step, [acks]]": (
        "en post i spilloggen er [trin, [kvitteringer]]",
        "en post i spilloggen er [steg, [kvitteringer]]",
    ),
    "a move must be a list starting with its kind": (
        "et træk skal være en liste, der begynder med dets slags",
        "et trekk må være en liste som begynner med typen",
    ),
    "unknown move kind {kind!r}": (
        "ukendt slags træk {kind!r}",
        "ukjent type trekk {kind!r}",
    ),
    "a {kind} move has {value} fields": (
        "et træk ({kind}) har {value} felter",
        "et trekk ({kind}) har {value} felt",
    ),
    "malformed move: {error}": (
        "misdannet træk: {error}",
        "misdannet trekk: {error}",
    ),
    "step for another game": (
        "trin til et andet spil",
        "steg til et annet spill",
    ),
    "step {n} when step {value} is due": (
        "trin {n}, når trin {value} er det næste",
        "steg {n} når steg {value} er det neste",
    ),
    "step does not build on the committed state": (
        "trinnet bygger ikke på den vedtagne stilling",
        "steget bygger ikke på den vedtatte stillingen",
    ),
    "an end for step {n}, which it cannot replace": (
        "en afslutning for trin {n}, som den ikke kan erstatte",
        "en avslutning for steg {n}, som den ikke kan erstatte",
    ),
    "it is seat {expected}'s step, not seat {sender}'s": (
        "det er plads {expected}s trin, ikke plads {sender}s",
        "det er plass {expected}s steg, ikke plass {sender}s",
    ),
    "malformed end step": (
        "misdannet afslutningstrin",
        "misdannet avslutningssteg",
    ),
    "the game is already over": ("spillet er allerede slut", "spillet er allerede slutt"),
    "seat {value} proposes ending the game": (
        "plads {value} foreslår at afslutte spillet",
        "plass {value} foreslår å avslutte spillet",
    ),
    "no deck protocol is running": (
        "ingen kortprotokol kører",
        "ingen kortprotokoll kjører",
    ),
    "no deck message is due now": (
        "ingen kortbesked er ventet nu",
        "ingen kortbeskjed er ventet nå",
    ),
    "illegal move: {error}": (
        "ulovligt træk: {error}",
        "ulovlig trekk: {error}",
    ),
    "shown cards without their proof, or a stray proof": (
        "viste kort uden deres bevis, eller et bevis uden kort",
        "viste kort uten beviset sitt, eller et bevis uten kort",
    ),
    "cannot show that card: {error}": (
        "kan ikke vise det kort: {error}",
        "kan ikke vise det kortet: {error}",
    ),
    "the card in slot {slot} is not the one claimed": (
        "kortet på plads {slot} er ikke det, der blev påstået",
        "kortet på plass {slot} er ikke det som ble påstått",
    ),
    "{what} is signed by another seat": (
        "{what} er underskrevet af en anden plads",
        "{what} er signert av en annen plass",
    ),
    "no buy window to resolve": (
        "intet købsvindue at afgøre",
        "ikke noe kjøpsvindu å avgjøre",
    ),
    "the resolution is for another buy window": (
        "afgørelsen gælder et andet købsvindue",
        "avgjørelsen gjelder et annet kjøpsvindu",
    ),
    "in the resolution: {error}": (
        "i afgørelsen: {error}",
        "i avgjørelsen: {error}",
    ),
    "seat {seat} answers twice": (
        "plads {seat} svarer to gange",
        "plass {seat} svarer to ganger",
    ),
    "the resolution leaves out the answers of seats {missing}": (
        "afgørelsen udelader svarene fra pladserne {missing}",
        "avgjørelsen utelater svarene fra plassene {missing}",
    ),
    "bad buy resolution: {error}": (
        "ugyldig afgørelse af købet: {error}",
        "ugyldig avgjørelse av kjøpet: {error}",
    ),
    "seals where the answers race": (
        "forseglinger, hvor svarene kappes",
        "forseglinger der svarene kappes",
    ),
    "seat {seat} seals twice": (
        "plads {seat} forsegler to gange",
        "plass {seat} forsegler to ganger",
    ),
    "the resolution leaves out the seals of seats {missing}": (
        "afgørelsen udelader forseglingerne fra pladserne {missing}",
        "avgjørelsen utelater forseglingene fra plassene {missing}",
    ),
    "its Køb! answer does not open its seal": (
        "dens Køb!-svar passer ikke til dens forsegling",
        "Kjøp!-svaret passer ikke til forseglingen",
    ),
    "a buy seal must be an envelope": (
        "en købsforsegling skal være en kuvert",
        "en kjøpsforsegling må være en konvolutt",
    ),
    "not a buy seal for this game": (
        "ikke en købsforsegling til dette spil",
        "ikke en kjøpsforsegling til dette spillet",
    ),
    "a buy seal outside its window": (
        "en købsforsegling uden for dens vindue",
        "en kjøpsforsegling utenfor vinduet sitt",
    ),
    "this seat does not seal an answer here": (
        "denne plads forsegler ikke et svar her",
        "denne plassen forsegler ikke et svar her",
    ),
    "a buy answer must be an envelope": (
        "et købssvar skal være en kuvert",
        "et kjøpssvar må være en konvolutt",
    ),
    "not a buy answer for this game": (
        "ikke et købssvar til dette spil",
        "ikke et kjøpssvar til dette spillet",
    ),
    "a buy answer outside its window": (
        "et købssvar uden for dets vindue",
        "et kjøpssvar utenfor vinduet sitt",
    ),
    "this seat does not answer in this window": (
        "denne plads svarer ikke i dette vindue",
        "denne plassen svarer ikke i dette vinduet",
    ),
    "this seat may not buy the card": (
        "denne plads må ikke købe kortet",
        "denne plassen får ikke kjøpe kortet",
    ),
    "a sealed answer needs its nonce, no observation": (
        "et forseglet svar skal have sit engangstal og ingen iagttagelse",
        "et forseglet svar må ha engangstallet sitt og ingen observasjon",
    ),
    "a nonce where the answers race": (
        "et engangstal, hvor svarene kappes",
        "et engangstall der svarene kappes",
    ),
    "a call whose observation leaves it out": (
        "et råb, hvis iagttagelse udelader det selv",
        "et rop der observasjonen utelater det selv",
    ),
    "a record for another step than the one held": (
        "en post for et andet trin end det, denne plads har",
        "en post for et annet steg enn det denne plassen har",
    ),
    "step {n} is committed without every seat's ACK": (
        "trin {n} er vedtaget uden alle pladsers kvittering",
        "steg {n} er vedtatt uten alle plassenes kvittering",
    ),
    "record {n}: not seat {value}'s ACK": (
        "post {n}: ikke plads {value}s kvittering",
        "post {n}: ikke plass {value}s kvittering",
    ),
    "record {n}: its own ACK acknowledges another step than the one it signed here (two steps for one number)": (
        "post {n}: dens egen kvittering bekræfter et andet trin end det, den underskrev her (to trin med ét nummer)",
        "post {n}: dens egen kvittering bekrefter et annet steg enn det den signerte her (to steg med ett nummer)",
    ),
    "record {n}: seat {value}'s ACK acknowledges another step than seat {value2}'s step held here (two steps for one number, or an altered record)": (
        "post {n}: plads {value}s kvittering bekræfter et andet trin end plads {value2}s trin her (to trin med ét nummer, eller en ændret post)",
        "post {n}: plass {value}s kvittering bekrefter et annet steg enn plass {value2}s steg her (to steg med ett nummer, eller en endret post)",
    ),
    "record {n}: seat {value} ACKed another state": (
        "post {n}: plads {value} kvitterede for en anden stilling",
        "post {n}: plass {value} kvitterte for en annen stilling",
    ),
    "a transcript record must hold a step": (
        "en post i spilloggen skal indeholde et trin",
        "en post i spilloggen må inneholde et steg",
    ),
    "round {round_no} audit: {what}": (
        "revisionen af runde {round_no}: {what}",
        "revisjonen av runde {round_no}: {what}",
    ),
    "the transcript does not start with a game config": (
        "spilloggen begynder ikke med en spilopsætning",
        "spilloggen begynner ikke med et spilloppsett",
    ),
    "the game config is not signed by every seat": (
        "spilopsætningen er ikke underskrevet af alle pladser",
        "spilloppsettet er ikke signert av alle plasser",
    ),
    "a seat's signature is not on this game config": (
        "en plads' underskrift står ikke på denne spilopsætning",
        "en plass' signatur står ikke på dette spilloppsettet",
    ),
    "seat {seat} refused step {n}, which this seat found valid ({why}); the others may end the game without it": (
        "plads {seat} afviste trin {n}, som denne plads fandt gyldigt ({why}); de andre kan afslutte spillet uden den",
        "plass {seat} avviste steg {n}, som denne plassen fant gyldig ({why}); de andre kan avslutte spillet uten den",
    ),
    "steps": (
        "trin",
        "steg",
    ),
    "seat {seat} signed two different {what} for step {n} (kept as proof)": (
        "plads {seat} underskrev to forskellige {what} for trin {n} (gemt som bevis)",
        "plass {seat} signerte to ulike {what} for steg {n} (lagret som bevis)",
    ),
    "refused step {n} from seat {value}: {reason}": (
        "afviste trin {n} fra plads {value}: {reason}",
        "avviste steg {n} fra plass {value}: {reason}",
    ),
    "ACKs": (
        "kvitteringer",
        "kvitteringer",
    ),
    "seat {value} ACKed another step {n} than the one this seat holds from seat {value2}": (
        "plads {value} kvitterede for et andet trin {n} end det, denne plads har fra plads {value2}",
        "plass {value} kvitterte for et annet steg {n} enn det denne plassen har fra plass {value2}",
    ),
    "The table stopped: {name} sent what the rules or the protocol refuse ({why}; rommy verify checks the transcript)": (
        "Bordet stoppede: {name} sendte noget, reglerne eller protokollen afviser ({why}; rommy verify kontrollerer spilloggen)",
        "Bordet stoppet: {name} sendte noe reglene eller protokollen avviser ({why}; rommy verify kontrollerer spilloggen)",
    ),
    "The table stopped: the seats disagree on a step ({why}; rommy verify checks the transcript)": (
        "Bordet stoppede: pladserne er uenige om et trin ({why}; rommy verify kontrollerer spilloggen)",
        "Bordet stoppet: plassene er uenige om et steg ({why}; rommy verify kontrollerer spilloggen)",
    ),
    "not bytes": ("ikke en bytestreng", "ikke en bytestreng"),
    "message of {value} bytes is over the {max_bytes} limit": (
        "besked på {value} byte er over grænsen på {max_bytes}",
        "beskjed på {value} byte er over grensen på {max_bytes}",
    ),
    "undecodable message: {error_type}": (
        "ulæselig besked: {error_type}",
        "uleselig beskjed: {error_type}",
    ),
    "message not in canonical form (a longer encoding or a repeated map key)": (
        "besked ikke på kanonisk form (en længere kodning eller en gentaget nøgle)",
        "beskjed ikke på kanonisk form (en lengre koding eller en gjentatt nøkkel)",
    ),
    "floats are not allowed": (
        "kommatal er ikke tilladt",
        "desimaltall er ikke tillatt",
    ),
    "message nested deeper than {MAX_DEPTH}": (
        "besked indlejret dybere end {MAX_DEPTH}",
        "beskjed nøstet dypere enn {MAX_DEPTH}",
    ),
    "{name} must be a whole number from {low} to {high}": (
        "feltet {name} skal være et helt tal fra {low} til {high}",
        "feltet {name} må være et heltall fra {low} til {high}",
    ),
    "{name} must be bytes": (
        "feltet {name} skal være en bytestreng",
        "feltet {name} må være en bytestreng",
    ),
    "{name} must be {size} bytes": (
        "feltet {name} skal være {size} byte",
        "feltet {name} må være {size} byte",
    ),
    "{name} is longer than {max_size} bytes": (
        "feltet {name} er længere end {max_size} byte",
        "feltet {name} er lengre enn {max_size} byte",
    ),
    "{name} must be text of at most {max_len} characters": (
        "feltet {name} skal være tekst på højst {max_len} tegn",
        "feltet {name} må være tekst på høyst {max_len} tegn",
    ),
    "{name} must be a list of {min_len} to {max_len} items": (
        "feltet {name} skal være en liste med {min_len} til {max_len} elementer",
        "feltet {name} må være en liste med {min_len} til {max_len} elementer",
    ),
    "{name} must hold whole numbers from {low} to {high}": (
        "feltet {name} skal indeholde hele tal fra {low} til {high}",
        "feltet {name} må inneholde heltall fra {low} til {high}",
    ),
    "{name} must be a list of {value} items": (
        "feltet {name} skal være en liste med {value} elementer",
        "feltet {name} må være en liste med {value} elementer",
    ),
    "a {kind} message must be a map": (
        "en besked ({kind}) har forkert form (teknisk: ikke en tabel)",
        "en beskjed ({kind}) har feil form (teknisk: ikke en tabell)",
    ),
    "malformed {kind} message: {error}": (
        "misdannet besked ({kind}): {error}",
        "misdannet beskjed ({kind}): {error}",
    ),
    "malformed {kind} message (missing {missing}, unexpected {extra})": (
        "misdannet besked ({kind}): felter mangler eller er i overskud "
        "(teknisk: mangler {missing}, uventet {extra})",
        "misdannet beskjed ({kind}): felt mangler eller er til overs "
        "(teknisk: mangler {missing}, uventet {extra})",
    ),
    "expected a {kind} message, not {value!r}": (
        "ventede en besked ({kind}), ikke {value!r}",
        "ventet en beskjed ({kind}), ikke {value!r}",
    ),
    "a {kind} message's keys are not in SPEC order": (
        "en besked ({kind}) har sine felter i forkert rækkefølge (teknisk: ikke i SPEC-rækkefølge)",
        "en beskjed ({kind}) har feltene i feil rekkefølge (teknisk: ikke i SPEC-rekkefølge)",
    ),
    "a message body must be a map with a kind": (
        "en beskeds indhold skal være en tabel med en beskedtype",
        "en beskjeds innhold må være en tabell med en beskjedtype",
    ),
    "a weak or malformed public key (refused: anyone could sign)": (
        "en svag eller misdannet offentlig nøgle (afvist: alle ville kunne underskrive)",
        "en svak eller misdannet offentlig nøkkel (avvist: hvem som helst kunne signere)",
    ),
    "malformed envelope: {error}": (
        "misdannet kuvert: {error}",
        "misdannet konvolutt: {error}",
    ),
    "unknown envelope version {version!r}": (
        "ukendt kuvertversion {version!r}",
        "ukjent konvoluttversjon {version!r}",
    ),
    "this key is not seated at the table": (
        "denne nøgle har ingen plads ved bordet",
        "denne nøkkelen har ingen plass ved bordet",
    ),
    "bad signature (under the key of seat {seat})": (
        "ugyldig underskrift (under plads {seat}s nøgle)",
        "ugyldig signatur (under plass {seat}s nøkkel)",
    ),
}


# OS errors in words (issue 30): a sentence for the common errnos, not Python's strerror
OS_ERRORS: dict[str, tuple[str, str]] = {
    "not a regular file (a pipe or a device?)": (
        "ikke en almindelig fil (et rør eller en enhed?)",
        "ikke en vanlig fil (et rør eller en enhet?)",
    ),
    "larger than {size} MiB": ("større end {size} MiB", "større enn {size} MiB"),
    "the disk is full": ("disken er fuld", "disken er full"),
    "the disk quota is used up": ("diskkvoten er brugt op", "diskkvoten er brukt opp"),
    "permission denied": ("adgang nægtet", "tilgang nektet"),
    "the operation is not permitted": ("handlingen er ikke tilladt", "handlingen er ikke tillatt"),
    "the disk is read-only": ("disken er skrivebeskyttet", "disken er skrivebeskyttet"),
    "no such file or folder": ("filen eller mappen findes ikke", "filen eller mappen finnes ikke"),
    "it already exists": ("den findes allerede", "den finnes allerede"),
    "it is a folder, not a file": ("det er en mappe, ikke en fil", "det er en mappe, ikke en fil"),
    "a part of the path is not a folder": (
        "en del af stien er ikke en mappe",
        "en del av stien er ikke en mappe",
    ),
    "the address is already in use (another program listens there)": (
        "adressen er allerede i brug (et andet program lytter der)",
        "adressen er allerede i bruk (et annet program lytter der)",
    ),
    "the address is not one of this machine's": (
        "adressen hører ikke til denne maskine",
        "adressen hører ikke til denne maskinen",
    ),
    "the connection was refused (nothing listens there)": (
        "forbindelsen blev afvist (intet lytter der)",
        "forbindelsen ble avvist (ingenting lytter der)",
    ),
    "the connection was reset by the other end": (
        "forbindelsen blev afbrudt af den anden ende",
        "forbindelsen ble brutt av den andre enden",
    ),
    "the connection was aborted": ("forbindelsen blev afbrudt", "forbindelsen ble avbrutt"),
    "the connection timed out": (
        "forbindelsen fik ikke svar i tide",
        "forbindelsen fikk ikke svar i tide",
    ),
    "that machine cannot be reached": ("den maskine kan ikke nås", "den maskinen kan ikke nås"),
    "that network cannot be reached": ("det netværk kan ikke nås", "det nettverket kan ikke nås"),
    "the connection was closed by the other end": (
        "forbindelsen blev lukket af den anden ende",
        "forbindelsen ble lukket av den andre enden",
    ),
    "a read or write error on the disk": (
        "en læse- eller skrivefejl på disken",
        "en lese- eller skrivefeil på disken",
    ),
    "too many open files": ("for mange åbne filer", "for mange åpne filer"),
    "{path}: {why}": ("{path}: {why}", "{path}: {why}"),
}


# the lobby's, the handshake's and the rules' own reasons (issue 30), as CHECKERS
LOBBY_REASONS: dict[str, tuple[str, str]] = {
    "a second coin commitment": ("endnu en forseglet mønt", "enda en forseglet mynt"),
    "a coin value out of turn": ("en møntværdi uden for tur", "en myntverdi utenfor tur"),
    "a coin value does not open its commitment": (
        "en møntværdi passer ikke til dens forsegling",
        "en myntverdi passer ikke til forseglingen",
    ),
    "a config signature out of turn": (
        "en underskrift på opsætningen uden for tur",
        "en signatur på oppsettet utenfor tur",
    ),
    "signed a different game config": (
        "underskrev en anden spilopsætning",
        "signerte et annet spilloppsett",
    ),
    "the creator": ("bordets opretter", "bordets oppretter"),
    "relayed a {kind} among the {stage}": (
        "videresendte en {kind} blandt {stage}",
        "videresendte en {kind} blant {stage}",
    ),
    "relayed the {stage} without {names}": (
        "videresendte {stage} uden {names}",
        "videresendte {stage} uten {names}",
    ),
    "the table is full or has started": (
        "bordet er fuldt eller er gået i gang",
        "bordet er fullt eller har startet",
    ),
    "a new game at this table is for its last game's players": (
        "et nyt spil ved dette bord er for spillerne fra sidste spil",
        "et nytt spill ved dette bordet er for spillerne fra forrige spill",
    ),
    "that key is already at the table": (
        "den nøgle sidder allerede ved bordet",
        "den nøkkelen sitter allerede ved bordet",
    ),
    "a start before any lobby state": (
        "en start før nogen oversigt over bordet",
        "en start før noen oversikt over bordet",
    ),
    "a second start": ("endnu en start", "enda en start"),
    "a relay before the start": ("en videresendelse før starten", "en videresending før starten"),
    "relayed the {stage} out of order": (
        "videresendte {stage} i forkert rækkefølge",
        "videresendte {stage} i feil rekkefølge",
    ),
    "{name} must be true or false": (
        "feltet {name} skal være sand eller falsk",
        "feltet {name} må være sann eller usann",
    ),
    "{name} must be one of {value}": (
        "feltet {name} skal være en af {value}",
        "feltet {name} må være en av {value}",
    ),
    "a lobby message must be a map": (
        "en besked ved bordet skal være en tabel",
        "en beskjed ved bordet må være en tabell",
    ),
    "a member with a weak or malformed key": (
        "en deltager med en svag eller misdannet nøgle",
        "en deltaker med en svak eller misdannet nøkkel",
    ),
    "a join for another table": (
        "en tilmelding til et andet bord",
        "en forespørsel om plass ved et annet bord",
    ),
    "refused a join: {problem}": (
        "afviste en tilmelding: {problem}",
        "avviste en som ville bli med: {problem}",
    ),
    "malformed member: {error}": ("misdannet deltager: {error}", "misdannet deltaker: {error}"),
    "a lobby state for another table": (
        "en oversigt over et andet bord",
        "en oversikt over et annet bord",
    ),
    "its own entry is not first in its lobby": (
        "dens egen indgang er ikke den første på bordets liste",
        "dens egen oppføring er ikke den første på bordets liste",
    ),
    "a member listed twice": ("en deltager nævnt to gange", "en deltaker nevnt to ganger"),
    "a start for another table": ("en start for et andet bord", "en start for et annet bord"),
    "a relay for another table": (
        "en videresendelse til et andet bord",
        "en videresending til et annet bord",
    ),
    "an unknown lobby message {value!r}": (
        "en ukendt besked ved bordet {value!r}",
        "en ukjent beskjed ved bordet {value!r}",
    ),
    "an unexpected lobby message {value!r}": (
        "en uventet besked ved bordet {value!r}",
        "en uventet beskjed ved bordet {value!r}",
    ),
    "a {kind} for another table": (
        "en besked ({kind}) til et andet bord",
        "en beskjed ({kind}) til et annet bord",
    ),
    "frame of {size} bytes is over the {cap} byte cap": (
        "en ramme på {size} byte er over grænsen på {cap} byte",
        "en ramme på {size} byte er over grensen på {cap} byte",
    ),
    "the other side speaks protocol v{value}, this one v{PROTOCOL_VERSION}: both need the same p2p-rommy release": (
        "den anden side taler protokol v{value}, denne v{PROTOCOL_VERSION}: begge skal have den samme udgave af p2p-rommy",
        "den andre siden snakker protokoll v{value}, denne v{PROTOCOL_VERSION}: begge må ha den samme utgaven av p2p-rommy",
    ),
    "the other side is at another table": (
        "den anden side sidder ved et andet bord",
        "den andre siden sitter ved et annet bord",
    ),
    "the other side's key is weak or malformed": (
        "den anden sides nøgle er svag eller misdannet",
        "den andre sidens nøkkel er svak eller misdannet",
    ),
    "the other side uses this peer's own key": (
        "den anden side bruger denne spillers egen nøgle",
        "den andre siden bruker denne spillerens egen nøkkel",
    ),
    "the other side could not prove its key": (
        "den anden side kunne ikke bevise sin nøgle",
        "den andre siden kunne ikke bevise nøkkelen sin",
    ),
    "too many lobby frames": ("for mange rammer ved bordet", "for mange rammer ved bordet"),
    "too many refused messages": ("for mange afviste beskeder", "for mange avviste beskjeder"),
    "unknown frame type": ("ukendt slags ramme", "ukjent type ramme"),
    "house rule {key} is not a whole number": (
        "husreglen {key} er ikke et helt tal",
        "husregelen {key} er ikke et heltall",
    ),
    "house rule empty_stock is shuffle or turn_over, not {value!r}": (
        "husreglen empty_stock tager shuffle eller turn_over, ikke {value!r}",
        "husregelen empty_stock tar shuffle eller turn_over, ikke {value!r}",
    ),
    "house rule buy_priority is first, seat or lot, not {value!r}": (
        "husreglen buy_priority tager first, seat eller lot, ikke {value!r}",
        "husregelen buy_priority tar first, seat eller lot, ikke {value!r}",
    ),
    "no variant {variant!r}; the variants are {value}": (
        "ingen variant {variant!r}; varianterne er {value}",
        "ingen variant {variant!r}; variantene er {value}",
    ),
}

# raw tokens inside reasons: message kinds, lobby stages, exception types (issue 30;
# p2p_rommy/raw_words.py), and the last English raw texts
RAW_WORDS: dict[str, tuple[str, str]] = {
    "greeting": ("hilsen", "hilsen"),
    "proof of identity": ("identitetsbevis", "identitetsbevis"),
    "game settings": ("spillets opsætning", "spillets oppsett"),
    "game step": ("spiltrin", "spillsteg"),
    "confirmation of a step": ("bekræftelse af et trin", "bekreftelse av et steg"),
    "refusal of a step": ("afvisning af et trin", "avvisning av et steg"),
    "request to catch up": (
        "anmodning om at indhente spillet",
        "forespørsel om å hente inn spillet",
    ),
    "Køb! answer": ("svar på Køb!", "svar på Kjøp!"),
    "sealed Køb! answer": ("forseglet svar på Køb!", "forseglet svar på Kjøp!"),
    "chat message": ("chatbesked", "chatbeskjed"),
    "sealed shuffle key": ("forseglet blandenøgle", "forseglet stokkenøkkel"),
    "shuffle": ("blanding", "stokking"),
    "keys to the cards": ("nøgler til kortene", "nøkler til kortene"),
    "shuffle seed": ("blandingens startværdi", "stokkingens startverdi"),
    "request to join": ("anmodning om at komme med", "forespørsel om å bli med"),
    "the table's list of players": ("bordets liste over spillere", "bordets liste over spillere"),
    "start signal": ("startsignal", "startsignal"),
    "relayed start messages": ("videresendte startbeskeder", "videresendte startbeskjeder"),
    "sealed coin": ("forseglet mønt", "forseglet mynt"),
    "coin value": ("møntværdi", "myntverdi"),
    "signature of the game settings": (
        "underskrift af spillets opsætning",
        "signatur av spillets oppsett",
    ),
    "sealed coins": ("forseglede mønter", "forseglede mynter"),
    "coin values": ("møntværdier", "myntverdier"),
    "signatures of the game settings": (
        "underskrifter af spillets opsætning",
        "signaturer av spillets oppsett",
    ),
    "draw from the stock": ("træk fra bunken", "trekk fra bunken"),
    "take the discard": ("tag det kastede kort", "ta det kastede kortet"),
    "discard": ("kast", "kast"),
    "lay down": ("melding", "utlegging"),
    "joker swap": ("jokerbytte", "jokerbytte"),
    "showing cards": ("visning af kort", "visning av kort"),
    "start of the round": ("rundens start", "rundens start"),
    "bytes left over after the message": (
        "overskydende byte efter beskeden",
        "overskytende byte etter beskjeden",
    ),
    "bytes that are not in the message format": (
        "byte, der ikke følger beskedformatet",
        "byte som ikke følger beskjedformatet",
    ),
    "nested too deep": ("indlejret for dybt", "nøstet for dypt"),
    "the message ends too soon": ("beskeden slutter for tidligt", "beskjeden slutter for tidlig"),
    "the message is too large": ("beskeden er for stor", "beskjeden er for stor"),
    "a value that is not allowed here": (
        "en værdi, der ikke er tilladt her",
        "en verdi som ikke er tillatt her",
    ),
    "a value of the wrong type": ("en værdi af forkert type", "en verdi av feil type"),
    "a number too large": ("et for stort tal", "et for stort tall"),
    "text that is not UTF-8": ("tekst, der ikke er UTF-8", "tekst som ikke er UTF-8"),
    "the deck message": ("kortbeskeden", "kortbeskjeden"),
    "the move's reveal": ("trækkets visning af kort", "trekkets visning av kort"),
    "no bots line-up {select!r}": (
        "ingen opstilling af bots {select!r}",
        "ingen oppstilling av boter {select!r}",
    ),
    "no bench section {only!r}; the sections are: {sections}": (
        "ingen målingsdel {only!r}; delene er: {sections}",
        "ingen målingsdel {only!r}; delene er: {sections}",
    ),
    "no answer in time": ("intet svar i tide", "ikke noe svar i tide"),
    "an error in the system (technical: {text})": (
        "en fejl i systemet (teknisk: {text})",
        "en feil i systemet (teknisk: {text})",
    ),
    "no address to dial": ("ingen adresse at ringe op til", "ingen adresse å ringe opp til"),
    "a joker has no suit": ("en joker har ingen kulør", "en joker har ingen farge"),
    "no such card: rank {rank}, suit {suit}": (
        "intet sådant kort: værdi {rank}, kulør {suit}",
        "intet slikt kort: verdi {rank}, farge {suit}",
    ),
    "{text!r} is not a card: write rank then suit, like 7H, 10S, AS, QD, or JK for a joker": (
        "{text!r} er ikke et kort: skriv værdi og så kulør (engelske bogstaver), som 7H, 10S, "
        "AS, QD, eller JK for en joker",
        "{text!r} er ikke et kort: skriv verdi og så farge (engelske bokstaver), som 7H, 10S, "
        "AS, QD, eller JK for en joker",
    ),
}


TRANSLATIONS: dict[str, tuple[str, str]] = (
    FAMILY_FLOW
    | RAW_WORDS
    | CHECKERS
    | OS_ERRORS
    | LOBBY_REASONS
    | {
        "units: yardsticks, each one checked edwards25519 multiplication (libsodium) timed in this run": (
            "enheder: målestokke; hver er én kontrolleret edwards25519-multiplikation (libsodium), målt i denne kørsel",
            "enheter: målestokker; hver er én kontrollert edwards25519-multiplikasjon (libsodium), målt i denne kjøringen",
        ),
        "{name} draws from the stock": ("{name} trækker fra bunken", "{name} trekker fra bunken"),
        "{name} takes the discard": (
            "{name} tager det kastede kort",
            "{name} tar det kastede kortet",
        ),
        "{name} lays down {cards}": ("{name} melder {cards}", "{name} legger ut {cards}"),
        "{name} lays off {card} on meld {number}": (
            "{name} lægger {card} til melding {number}",
            "{name} legger {card} til kombinasjon {number}",
        ),
        "{name} swaps {card} for the joker in meld {number}": (
            "{name} bytter {card} med jokeren i melding {number}",
            "{name} bytter {card} med jokeren i kombinasjon {number}",
        ),
        "{name} discards {card}": ("{name} kaster {card}", "{name} kaster {card}"),
        "{name} shows {cards}": ("{name} viser {cards}", "{name} viser {cards}"),
        "You draw from the stock": ("Du trækker fra bunken", "Du trekker fra bunken"),
        "You take the discard": ("Du tager det kastede kort", "Du tar det kastede kortet"),
        "You lay down {cards}": ("Du melder {cards}", "Du legger ut {cards}"),
        "You lay off {card} on meld {number}": (
            "Du lægger {card} til melding {number}",
            "Du legger {card} til kombinasjon {number}",
        ),
        "You swap {card} for the joker in meld {number}": (
            "Du bytter {card} med jokeren i melding {number}",
            "Du bytter {card} med jokeren i kombinasjon {number}",
        ),
        "You discard {card}": ("Du kaster {card}", "Du kaster {card}"),
        "You show {cards}": ("Du viser {cards}", "Du viser {cards}"),
        "You buy {offer} (Køb!)": ("Du køber {offer} (Køb!)", "Du kjøper {offer} (Kjøp!)"),
        "Round": ("Runde", "Runde"),
        "Total": ("I alt", "Totalt"),
        "forfeited": ("tabt", "tapt"),
        "Abandoned: no standing (one player's word forfeits nobody)": (
            "Opgivet: ingen stilling (én spillers ord kan ikke give nogen et tab)",
            "Oppgitt: ingen stilling (én spillers ord kan ikke gi noen tap)",
        ),
        "refused {count} message(s) from the network (why: rommy.log)": (
            "afviste {count} besked(er) fra netværket (hvorfor: rommy.log)",
            "avviste {count} beskjed(er) fra nettverket (hvorfor: rommy.log)",
        ),
        "its confirmation of the last move (it refused the move)": (
            "sin bekræftelse af det sidste træk (den afviste trækket)",
            "sin bekreftelse av det siste trekket (den avviste trekket)",
        ),
        "its confirmation of the last move": (
            "sin bekræftelse af det sidste træk",
            "sin bekreftelse av det siste trekket",
        ),
        "its answer to Køb!": ("sit svar på Køb!", "sitt svar på Kjøp!"),
        "its answer to a restarted seat's catch-up ask": (
            "sit svar, da en genstartet plads bad om at indhente spillet",
            "sitt svar da en omstartet plass ba om å hente inn spillet",
        ),
        "its sealed secret for round {round}'s shuffle": (
            "sin forseglede hemmelighed til runde {round}s blanding",
            "sin forseglede hemmelighet til runde {round}s stokking",
        ),
        "its shuffle ({number} of {count})": (
            "sin blanding ({number} af {count})",
            "sin stokking ({number} av {count})",
        ),
        "its part of the deal ({count} cards to go)": (
            "sin del af kortgivningen ({count} kort tilbage)",
            "sin del av utdelingen ({count} kort igjen)",
        ),
        "its secret for round {round} (to check the deal)": (
            "sin hemmelighed for runde {round} (til at kontrollere kortgivningen)",
            "sin hemmelighet for runde {round} (for å kontrollere utdelingen)",
        ),
        "the result of the Køb!": ("resultatet af Køb!", "resultatet av Kjøp!"),
        "its hand at the end of the round": (
            "sin hånd ved rundens slutning",
            "sin hånd ved slutten av runden",
        ),
        "its move": ("sit træk", "sitt trekk"),
        "won the lot": ("vandt lodtrækningen", "vant loddtrekningen"),
        "came first in turn": ("var først i rækkefølgen", "var først i rekkefølgen"),
        "{others} called too, {name} {how}": (
            "{others} råbte også, {name} {how}",
            "{others} ropte også, {name} {how}",
        ),
        "you": ("du", "du"),
        "{first} and {second}": ("{first} og {second}", "{first} og {second}"),
        "Køb! from {callers}: you were first on {votes} of {screens} screens": (
            "Køb! fra {callers}: du var først på {votes} af {screens} skærme",
            "Kjøp! fra {callers}: du var først på {votes} av {screens} skjermer",
        ),
        "Køb! from {callers}: {name} was first on {votes} of {screens} screens": (
            "Køb! fra {callers}: {name} var først på {votes} af {screens} skærme",
            "Kjøp! fra {callers}: {name} var først på {votes} av {screens} skjermer",
        ),
        ", about {seconds} s left": (", cirka {seconds} s tilbage", ", omtrent {seconds} s igjen"),
        "Shuffling and dealing: {name}, {what}": (
            "Blander og giver: venter på {name} ({what})",
            "Stokker og deler ut: venter på {name} ({what})",
        ),
        "{doing} is not possible now: {why}": (
            "{doing} er ikke muligt nu: {why}",
            "{doing} er ikke mulig nå: {why}",
        ),
        "card {card} is not in a deck of {size}": (
            "kort {card} findes ikke i et kortspil med {size} kort",
            "kort {card} finnes ikke i en kortstokk med {size} kort",
        ),
        "a seat may claim a discard only once": (
            "en plads kan kun kræve et kastet kort én gang",
            "en plass kan bare kreve et kastet kort én gang",
        ),
        "seat {seat} may not buy this card": (
            "plads {seat} må ikke købe dette kort",
            "plass {seat} kan ikke kjøpe dette kortet",
        ),
        "the discard pile is empty: draw from the stock": (
            "afkastbunken er tom: træk fra bunken",
            "kastebunken er tom: trekk fra bunken",
        ),
        "lay down at least one meld": ("meld mindst én melding", "legg ut minst én kombinasjon"),
        "you opened this turn: further new melds must wait for a later turn": (
            "du åbnede i denne tur: flere nye meldinger må vente til en senere tur",
            "du åpnet i denne turen: flere nye kombinasjoner må vente til en senere tur",
        ),
        "house rule 'new melds after opening' is off: after opening you can only build on the table": (
            "husreglen 'nye meldinger efter åbning' er slået fra: efter åbning kan du kun bygge på bordet",
            "husregelen 'nye kombinasjoner etter åpning' er slått av: etter åpning kan du bare bygge på bordet",
        ),
        "house rule: at most one new combination per turn": (
            "husregel: højst én ny melding per tur",
            "husregel: høyst én ny kombinasjon per tur",
        ),
        "your first lay-down must hold this round's whole contract: {wanted} (this one has {runs} {run_name}, {sets} {set_name})": (
            "din første udlægning skal rumme hele rundens kontrakt: {wanted} (denne har {runs} {run_name}, {sets} {set_name})",
            "din første utlegging må inneholde hele rundens kontrakt: {wanted} (denne har {runs} {run_name}, {sets} {set_name})",
        ),
        "your first lay-down must be worth at least {points} points from natural cards at once; this one is worth {worth}": (
            "din første udlægning skal være mindst {points} point af naturlige kort på én gang; denne er {worth} værd",
            "din første utlegging må være verdt minst {points} poeng av naturlige kort på én gang; denne er verdt {worth}",
        ),
        "your first lay-down must be worth at least {points} points at once; this one is worth {worth}": (
            "din første udlægning skal være mindst {points} point værd på én gang; denne er {worth} værd",
            "din første utlegging må være verdt minst {points} poeng på én gang; denne er verdt {worth}",
        ),
        "you must open ({wanted}) before {doing}": (
            "du skal åbne ({wanted}) før {doing}",
            "du må åpne ({wanted}) før {doing}",
        ),
        "house rule 'build in opening turn' is off: no {doing} in the turn you open": (
            "husreglen 'byg i åbningsturen' er slået fra: ingen {doing} i den tur, du åbner",
            "husregelen 'bygg i åpningsturen' er slått av: ingen {doing} i den turen du åpner",
        ),
        "laying off on the table": ("at lægge til på bordet", "å legge til på bordet"),
        "only a player who has opened may swap a joker": (
            "kun en spiller, der har åbnet, må bytte en joker",
            "bare en spiller som har åpnet, kan bytte en joker",
        ),
        "swapping a joker": ("at bytte en joker", "å bytte en joker"),
        "you cannot discard the card you took from the discard pile this turn": (
            "du kan ikke kaste det kort, du tog fra afkastbunken i denne tur",
            "du kan ikke kaste kortet du tok fra kastebunken i denne turen",
        ),
        "house rule: the joker you swapped must be laid down this turn": (
            "husregel: jokeren, du byttede, skal meldes i denne tur",
            "husregel: jokeren du byttet, må legges ut i denne turen",
        ),
        "seat {seat} has no hand left to show": (
            "plads {seat} har ingen hånd tilbage at vise",
            "plass {seat} har ingen hånd igjen å vise",
        ),
        "show exactly the cards in your hand": (
            "vis præcis kortene på din hånd",
            "vis nøyaktig kortene på hånden din",
        ),
        "it is not your turn (seat {seat} is to play)": (
            "det er ikke din tur (plads {seat} skal spille)",
            "det er ikke din tur (plass {seat} skal spille)",
        ),
        "the same card is used twice": (
            "det samme kort er brugt to gange",
            "det samme kortet er brukt to ganger",
        ),
        "card slot {slot} is not in your hand": (
            "kortplads {slot} er ikke på din hånd",
            "kortplass {slot} er ikke på hånden din",
        ),
        "card {card} is not in this deck": (
            "kort {card} findes ikke i dette kortspil",
            "kort {card} finnes ikke i denne kortstokken",
        ),
        "card slot {slot} is {card}, not the card claimed": (
            "kortplads {slot} er {card}, ikke det angivne kort",
            "kortplass {slot} er {card}, ikke kortet som ble oppgitt",
        ),
        "two slots claim the same physical card": (
            "to kortpladser angiver det samme fysiske kort",
            "to kortplasser oppgir det samme fysiske kortet",
        ),
        "that card is already elsewhere on the table": (
            "det kort ligger allerede et andet sted på bordet",
            "det kortet ligger allerede et annet sted på bordet",
        ),
        "that would leave you holding only the card you took from the discard pile, which you may not discard this turn": (
            "så ville du kun have kortet fra afkastbunken tilbage, og det må du ikke kaste i denne tur",
            "da ville du bare ha kortet fra kastebunken igjen, og det kan du ikke kaste i denne turen",
        ),
        "there is no meld number {number} on the table": (
            "der er ingen melding nummer {number} på bordet",
            "det er ingen kombinasjon nummer {number} på bordet",
        ),
        "the round is being dealt": ("runden bliver givet", "runden blir delt ut"),
        "it is time to draw from the stock or take the discard": (
            "det er tid til at trække fra bunken eller tage det kastede kort",
            "det er tid for å trekke fra bunken eller ta det kastede kortet",
        ),
        "the buy window is open": ("købsvinduet er åbent", "kjøpsvinduet er åpent"),
        "it is time to meld, lay off or discard": (
            "det er tid til at melde, lægge til eller kaste",
            "det er tid for å legge ut, legge til eller kaste",
        ),
        "the round is over and hands are being shown": (
            "runden er slut, og hænderne bliver vist",
            "runden er slutt, og hendene blir vist",
        ),
        "the match is over": ("spillet er slut", "spillet er slutt"),
        "dealing": ("at give kort", "å dele ut kort"),
        "drawing from the stock": ("at trække fra bunken", "å trekke fra bunken"),
        "taking the discard": ("at tage det kastede kort", "å ta det kastede kortet"),
        "laying down": ("at melde", "å legge ut"),
        "laying off": ("at lægge til", "å legge til"),
        "discarding": ("at kaste", "å kaste"),
        "resolving a buy": ("at afgøre et køb", "å avgjøre et kjøp"),
        "showing a hand": ("at vise en hånd", "å vise en hånd"),
        "it is not your turn to play": ("det er ikke din tur", "det er ikke din tur"),
        "a {meld} needs at least one natural card, not only jokers": (
            "en {meld} skal have mindst ét naturligt kort, ikke kun jokere",
            "en {meld} må ha minst ett naturlig kort, ikke bare jokere",
        ),
        "a {meld} may not hold more jokers than natural cards (house rule)": (
            "en {meld} må ikke have flere jokere end naturlige kort (husregel)",
            "en {meld} kan ikke ha flere jokere enn naturlige kort (husregel)",
        ),
        "a {meld} needs at least {count} cards": (
            "en {meld} skal have mindst {count} kort",
            "en {meld} må ha minst {count} kort",
        ),
        "a {meld} has at most {count} cards, one of each suit": (
            "en {meld} har højst {count} kort, ét af hver kulør",
            "en {meld} har høyst {count} kort, ett av hver farge",
        ),
        "a {meld} is cards of one rank": (
            "en {meld} er kort af samme værdi",
            "en {meld} er kort av samme verdi",
        ),
        "a {meld} needs different suits; two cards share a suit": (
            "en {meld} skal have forskellige kulører; to kort har samme kulør",
            "en {meld} må ha forskjellige farger; to kort har samme farge",
        ),
        "joker": ("joker", "joker"),
        "the {card} in a {meld} of {rank}s must stand for that rank": (
            "{card} i en {meld} af {rank}'ere skal gælde som den værdi",
            "{card} i en {meld} av {rank}-ere må gjelde som den verdien",
        ),
        "a {meld} has at most {count} cards": (
            "en {meld} har højst {count} kort",
            "en {meld} har høyst {count} kort",
        ),
        "a {meld} is cards of one suit": (
            "en {meld} er kort i samme kulør",
            "en {meld} er kort i samme farge",
        ),
        "a joker cannot stand for rank {rank} in a {meld}": (
            "en joker kan ikke gælde som {rank} i en {meld}",
            "en joker kan ikke gjelde som {rank} i en {meld}",
        ),
        "two jokers may not stand side by side in a {meld} (house rule)": (
            "to jokere må ikke ligge side om side i en {meld} (husregel)",
            "to jokere kan ikke ligge ved siden av hverandre i en {meld} (husregel)",
        ),
        "the ace is low in this game: a {meld} cannot go Q-K-A": (
            "es er lavt i dette spil: en {meld} kan ikke gå D-K-E",
            "ess er lavt i dette spillet: en {meld} kan ikke gå D-K-E",
        ),
        "{card} cannot stand for {rank}": (
            "{card} kan ikke gælde som {rank}",
            "{card} kan ikke gjelde som {rank}",
        ),
        "a {meld} has no gaps and no wrap-around: {before} is not followed by {after}": (
            "en {meld} har ingen huller og går ikke rundt: {before} følges ikke af {after}",
            "en {meld} har ingen hull og går ikke rundt: {before} følges ikke av {after}",
        ),
        "a card laid off on a {meld} must extend it at one end ({ends})": (
            "et kort, der lægges til en {meld}, skal forlænge den i den ene ende ({ends})",
            "et kort som legges til en {meld}, må forlenge den i den ene enden ({ends})",
        ),
        "there is no joker in that place of the meld": (
            "der er ingen joker på den plads i meldingen",
            "det er ingen joker på den plassen i kombinasjonen",
        ),
        "a joker is swapped for the natural card it stands for, not another joker": (
            "en joker byttes med det naturlige kort, den gælder som, ikke med en anden joker",
            "en joker byttes med det naturlige kortet den gjelder som, ikke med en annen joker",
        ),
        "that joker stands for {rank}, not {card}": (
            "den joker gælder som {rank}, ikke {card}",
            "den jokeren gjelder som {rank}, ikke {card}",
        ),
        "it is complete": ("den er komplet", "den er komplett"),
        "wait for your turn (after drawing) to {doing}": (
            "vent til din tur (efter du har trukket) for at {doing}",
            "vent til din tur (etter at du har trukket) for å {doing}",
        ),
        "Scores so far (v closes)": ("Point indtil nu (v lukker)", "Poeng til nå (v lukker)"),
        "{card} from {name}": ("{card} fra {name}", "{card} fra {name}"),
        "lay off on meld": ("læg til melding", "legg til kombinasjon"),
        "swap with the joker of meld": (
            "byt med jokeren i melding",
            "bytt med jokeren i kombinasjon",
        ),
        "{doing} {digits}_ (type its number, Enter; Esc cancels)": (
            "{doing} {digits}_ (skriv nummeret, Enter; Esc fortryder)",
            "{doing} {digits}_ (skriv nummeret, Enter; Esc avbryter)",
        ),
        "Køb {offer}? k buys, p passes{timer}": (
            "Køb {offer}? k køber, p melder pas{timer}",
            "Kjøp {offer}? k kjøper, p melder pass{timer}",
        ),
        "Køb {offer}: waiting for the others{timer}": (
            "Køb {offer}: venter på de andre{timer}",
            "Kjøp {offer}: venter på de andre{timer}",
        ),
        "You drew {card}; Køb {offer}{timer}": (
            "Du trak {card}; Køb {offer}{timer}",
            "Du trakk {card}; Kjøp {offer}{timer}",
        ),
        "the others may still buy the discard: meld or discard once the Køb! window closes": (
            "de andre kan stadig købe det kastede kort: meld eller kast, når Køb!-vinduet lukker",
            "de andre kan fortsatt kjøpe det kastede kortet: legg ut eller kast når "
            "Kjøp!-vinduet lukkes",
        ),
        "; the Køb! window closes in {seconds} s": (
            "; Køb!-vinduet lukker om {seconds} s",
            "; Kjøp!-vinduet lukker om {seconds} s",
        ),
        "auto-pass Køb! on": ("altid pas til Køb!: til", "alltid pass på Kjøp!: på"),
        "auto-pass Køb! off": ("altid pas til Køb!: fra", "alltid pass på Kjøp!: av"),
        "{name} has kept the table waiting for {seconds} s ({what})": (
            "{name} har ladet bordet vente i {seconds} s ({what})",
            "{name} har latt bordet vente i {seconds} s ({what})",
        ),
        "{name} buys {offer} (Køb!)": (
            "{name} køber {offer} (Køb!)",
            "{name} kjøper {offer} (Kjøp!)",
        ),
        "nobody bought {offer}": ("ingen købte {offer}", "ingen kjøpte {offer}"),
        "(melds {first}-{last} of {count}; PgUp/PgDn)": (
            "(meldinger {first}-{last} af {count}; PgUp/PgDn)",
            "(kombinasjoner {first}-{last} av {count}; PgUp/PgDn)",
        ),
        "1 card": ("1 kort", "1 kort"),
        "auto-pass Køb! is on (a)": (
            "altid pas til Køb! er slået til (a)",
            "alltid pass på Kjøp! er på (a)",
        ),
        "No round has been scored yet.": (
            "Ingen runde er talt op endnu.",
            "Ingen runde er talt opp ennå.",
        ),
        "Help (? closes)": ("Hjælp (? lukker)", "Hjelp (? lukker)"),
        "the table's creator starts the game": (
            "bordets opretter starter spillet",
            "bordets oppretter starter spillet",
        ),
        "{variant} needs at least {count} players": (
            "{variant} kræver mindst {count} spillere",
            "{variant} krever minst {count} spillere",
        ),
        "starting: seats and the first dealer are drawn by a joint coin...": (
            "starter: pladser og første giver trækkes med en fælles mønt...",
            "starter: plasser og første giver trekkes med en felles mynt...",
        ),
        "Leave the table? y / n": ("Forlad bordet? j / n", "Forlate bordet? j / n"),
        "Enter starts the game with {count} players; x sends a player away; q leaves": (
            # "q forlader bordet" ran past 80 columns with the leading space
            "Enter starter spillet med {count} spillere; x sender en spiller væk; q går",
            "Enter starter spillet med {count} spillere; x sender en spiller bort; q går",
        ),
        "{name} was sent away from the table": (
            "{name} blev sendt væk fra bordet",
            "{name} ble sendt bort fra bordet",
        ),
        "Send away which player? 2-{last}, Esc cancels": (
            "Send hvilken spiller væk? 2-{last}, Esc fortryder",
            "Send hvilken spiller bort? 2-{last}, Esc avbryter",
        ),
        "waiting for players ({count}/{needed} needed); q leaves": (
            "venter på spillere ({count}/{needed} kræves); q går",
            "venter på spillere ({count}/{needed} trengs); q går",
        ),
        "waiting for the creator to start the game; q leaves": (
            "venter på, at bordets opretter starter spillet; q går",
            "venter på at bordets oppretter starter spillet; q går",
        ),
        "Table {name!r}: {variant}": ("Bord {name!r}: {variant}", "Bord {name!r}: {variant}"),
        "Table {name!r}": ("Bord {name!r}", "Bord {name!r}"),
        "seats: {taken}/{seats}": ("pladser: {taken}/{seats}", "plasser: {taken}/{seats}"),
        "house rules:": ("husregler:", "husregler:"),
        "the defaults": ("standard", "standard"),
        "Players (compare the fingerprints out loud):": (
            "Spillere (sammenlign fingeraftrykkene højt):",
            "Spillere (sammenlign fingeravtrykkene høyt):",
        ),
        "(you)": ("(dig)", "(deg)"),
        "table code:": ("bordkode:", "bordkode:"),
        "game code": ("spilkode", "spillkode"),
        "the same on every screen at this table": (
            "den samme på alle skærme ved dette bord",
            "den samme på alle skjermer ved dette bordet",
        ),
        "game id": ("spil-id", "spill-id"),
        "after a crash: rommy resume {game}": (
            "efter et nedbrud: rommy resume {game}",
            "etter et krasj: rommy resume {game}",
        ),
        "This game (i closes)": ("Dette spil (i lukker)", "Dette spillet (i lukker)"),
        "(creator)": ("(opretter)", "(oppretter)"),
        "Lobby": ("Ved bordet", "Ved bordet"),
        "The table stopped: {report}": ("Bordet stoppede: {report}", "Bordet stoppet: {report}"),
        "{why}. e ends the game without {name}": (
            "{why}. e afslutter spillet uden {name}",
            "{why}. e avslutter spillet uten {name}",
        ),
        "The match is over. q quits.": (
            "Spillet er slut. q afslutter.",
            "Spillet er slutt. q avslutter.",
        ),
        "Waiting for {name} ({what})": ("Venter på {name} ({what})", "Venter på {name} ({what})"),
        "Shuffling and dealing...": ("Blander og giver...", "Stokker og deler ut..."),
        "Your turn: d draws from the stock, t takes the discard": (
            "Din tur: d trækker fra bunken, t tager det kastede kort",
            "Din tur: d trekker fra bunken, t tar det kastede kortet",
        ),
        "{count} meld(s) staged: Enter lays them down, m stages more": (
            "{count} melding(er) forberedt: Enter melder, m forbereder flere",
            "{count} kombinasjon(er) forberedt: Enter legger ut, m forbereder flere",
        ),
        "there is no card {label}": (
            "der er intet kort {label}",
            "det finnes ikke noe kort {label}",
        ),
        "the last staged meld has only one reading": (
            "den sidste melding kan kun tolkes på én måde",
            "den siste kombinasjonen kan bare tolkes på én måte",
        ),
        "; r: another of {count} readings": (
            "; r: en anden af {count} tolkninger",
            "; r: en annen av {count} tolkninger",
        ),
        "staged {meld} {cards}{more}; Enter lays down": (
            "forberedt {meld} {cards}{more}; Enter melder",
            "forberedt {meld} {cards}{more}; Enter legger ut",
        ),
        "cannot resume: the round secrets file {path} is missing; it held this seat's secret "
        "for round {round}, without which its cards cannot be opened": (
            "kan ikke genoptage: filen med rundens hemmeligheder {path} mangler; den rummede "
            "denne plads' hemmelighed for runde {round}, og uden den kan dens kort ikke åbnes",
            "kan ikke gjenoppta: filen med rundens hemmeligheter {path} mangler; den inneholdt "
            "denne plassens hemmelighet for runde {round}, og uten den kan kortene ikke åpnes",
        ),
        "cannot resume: the round secrets file {path} lacks this seat's secret for round "
        "{round}, without which its cards cannot be opened": (
            "kan ikke genoptage: filen med rundens hemmeligheder {path} mangler denne plads' "
            "hemmelighed for runde {round}, og uden den kan dens kort ikke åbnes",
            "kan ikke gjenoppta: filen med rundens hemmeligheter {path} mangler denne plassens "
            "hemmelighet for runde {round}, og uten den kan kortene ikke åpnes",
        ),
        "nobody has kept the table waiting long enough to end the game": (
            "ingen har ladet bordet vente længe nok til at afslutte spillet",
            "ingen har latt bordet vente lenge nok til å avslutte spillet",
        ),
        "proposed to end the game without {name}": (
            "foreslog at afslutte spillet uden {name}",
            "foreslo å avslutte spillet uten {name}",
        ),
        "select cards and press m to stage a meld first": (
            "vælg kort og tryk m for først at forberede en melding",
            "velg kort og trykk m for først å forberede en kombinasjon",
        ),
        "lay off": ("lægge til", "legge til"),
        "swap for a joker": ("bytte med en joker", "bytte med en joker"),
        "select exactly one card to {doing}": (
            "vælg præcis ét kort for at {doing}",
            "velg nøyaktig ett kort for å {doing}",
        ),
        "there is no meld {number}": (
            "der er ingen melding {number}",
            "det finnes ingen kombinasjon {number}",
        ),
        "that card cannot be laid off on meld {number}": (
            "det kort kan ikke lægges til melding {number}",
            "det kortet kan ikke legges til kombinasjon {number}",
        ),
        "that card cannot take the joker's place in meld {number}": (
            "det kort kan ikke byttes med jokeren i melding {number}",
            "det kortet kan ikke byttes med jokeren i kombinasjon {number}",
        ),
        "{points} points": ("{points} point", "{points} poeng"),
        "select exactly one card to discard": (
            "vælg præcis ét kort at kaste",
            "velg nøyaktig ett kort å kaste",
        ),
        "there is nothing to buy now": ("der er intet at købe nu", "det er ingenting å kjøpe nå"),
        "Køb!": ("Køb!", "Kjøp!"),
        "passed": ("pas", "pass"),
        "round {number} over; totals: {scores}": (
            "runde {number} er slut; i alt: {scores}",
            "runde {number} er slutt; totalt: {scores}",
        ),
        "round {number}": ("runde {number}", "runde {number}"),
        "to open: {contract}": ("for at åbne: {contract}", "for å åpne: {contract}"),
        "dealer {name}": ("giver {name}", "giver {name}"),
        "stock {count}": ("bunke {count}", "bunke {count}"),
        "any": ("ubegrænset", "ubegrenset"),
        "buys {left}": ("køb {left}", "kjøp {left}"),
        "  (disconnected)": ("  (afbrudt)", "  (frakoblet)"),
        "opened": ("åbnet", "åpnet"),
        "not opened": ("ikke åbnet", "ikke åpnet"),
        "{count} cards": ("{count} kort", "{count} kort"),
        "score {score}": ("point {score}", "poeng {score}"),
        "Table": ("Bordet", "Bordet"),
        "no melds yet": ("ingen meldinger endnu", "ingen kombinasjoner ennå"),
        "Discard:": ("Afkast:", "Kastebunken:"),
        "empty": ("tom", "tom"),
        "Your hand ({name}, score {score})": (
            "Din hånd ({name}, point {score})",
            "Din hånd ({name}, poeng {score})",
        ),
        "staged: {melds}": ("forberedt: {melds}", "forberedt: {melds}"),
        "you could meld: {melds}": ("du kan melde: {melds}", "du kan legge ut: {melds}"),
        "nothing yet": ("intet endnu", "ingenting ennå"),
        "Quit the game? y / n": ("Afslut spillet? j / n", "Avslutte spillet? j / n"),
        # rommy play: where its transcript is, printed as the client closes
        "transcript: {path}": ("spillog: {path}", "spillogg: {path}"),
        "check it: rommy verify {path}": (
            "tjek den: rommy verify {path}",
            "sjekk den: rommy verify {path}",
        ),
        # rommy id
        "Your fingerprint: {fingerprint}": (
            "Dit fingeraftryk: {fingerprint}",
            "Ditt fingeravtrykk: {fingerprint}",
        ),
        "Your identity key: {path}": (
            "Din identitetsnøgle: {path}",
            "Din identitetsnøkkel: {path}",
        ),
        "Friends' clients know you by this key. If it is lost, rommy makes a new one, and their clients warn that someone else may be using your name.": (
            "Dine venners klienter kender dig på denne nøgle. Går den tabt, laver rommy en ny, og deres klienter advarer om, at en anden måske bruger dit navn.",
            "Vennenes klienter kjenner deg på denne nøkkelen. Går den tapt, lager rommy en ny, og klientene deres advarer om at noen andre kanskje bruker navnet ditt.",
        ),
        "Back it up, then keep the copy somewhere safe, private like a password:": (
            "Tag en sikkerhedskopi, og gem kopien et sikkert sted, privat som en adgangskode:",
            "Ta en sikkerhetskopi, og oppbevar kopien et trygt sted, privat som et passord:",
        ),
        "No identity yet in {directory}.": (
            "Endnu ingen identitet i {directory}.",
            "Ingen identitet ennå i {directory}.",
        ),
        "One is made the first time you host or join a table.": (
            "Der laves en, første gang du opretter et bord eller sætter dig ved et.",
            "Det lages en første gang du oppretter et bord eller blir med ved et.",
        ),
        "To restore a backup (on a new machine too), before you host or join:": (
            "Sådan genskaber du en sikkerhedskopi (også på en ny maskine), før du opretter et bord eller sætter dig ved et:",
            "Slik gjenoppretter du en sikkerhetskopi (også på en ny maskin), før du oppretter et bord eller blir med ved et:",
        ),
        "say:": ("sig:", "si:"),
        "Log": ("Log", "Logg"),
        # --- addresses, no table found, rommy doctor (laptops issue) ---
        "another program answered": ("et andet program svarede", "et annet program svarte"),
        "this machine is on no network: connect it to the same Wi-Fi as the others (a guest network often keeps its machines apart)": (
            "denne maskine er ikke på noget netværk: forbind den til samme Wi-Fi som de andre (et gæstenetværk holder ofte maskinerne adskilt)",
            "denne maskinen er ikke på noe nettverk: koble den til samme Wi-Fi som de andre (et gjestenettverk holder ofte maskinene adskilt)",
        ),
        "a firewall drops incoming mDNS (UDP port 5353): `sudo ufw allow 5353/udp`, or `sudo firewall-cmd --add-service=mdns`": (
            "en firewall smider indgående mDNS væk (UDP-port 5353): `sudo ufw allow 5353/udp` eller `sudo firewall-cmd --add-service=mdns`",
            "en brannmur kaster innkommende mDNS (UDP-port 5353): `sudo ufw allow 5353/udp` eller `sudo firewall-cmd --add-service=mdns`",
        ),
        "a firewall refuses incoming connections: allow Python (rommy) through it for the home network": (
            "en firewall afviser indgående forbindelser: tillad Python (rommy) på hjemmenetværket",
            "en brannmur avviser innkommende tilkoblinger: tillat Python (rommy) på hjemmenettverket",
        ),
        "when mDNS cannot work on this network, the creator's screen shows an address: `rommy join --connect ADDRESS:PORT`": (
            "når mDNS ikke kan virke på dette netværk, viser bordets opretter en adresse på sin skærm: `rommy join --connect ADRESSE:PORT`",
            "når mDNS ikke kan virke på dette nettverket, viser bordets oppretter en adresse på skjermen sin: `rommy join --connect ADRESSE:PORT`",
        ),
        "ok": ("ok", "ok"),
        "FAILED": ("FEJL", "FEIL"),
        "rommy doctor: p2p-rommy {version}, Python {python} on {platform}": (
            "rommy doctor: p2p-rommy {version}, Python {python} på {platform}",
            "rommy doctor: p2p-rommy {version}, Python {python} på {platform}",
        ),
        "Addresses a table would advertise (the first is the one shown):": (
            "Adresser et bord ville annoncere (den første er den, der vises):",
            "Adresser et bord ville annonsere (den første er den som vises):",
        ),
        "left out: {ip} ({adapter}): {why}": (
            "udeladt: {ip} ({adapter}): {why}",
            "utelatt: {ip} ({adapter}): {why}",
        ),
        "no default route: every adapter's address is used": (
            "ingen standardrute: alle netkorts adresser bruges",
            "ingen standardrute: alle nettverkskorts adresser brukes",
        ),
        "On {ip}:": ("På {ip}:", "På {ip}:"),
        "an mDNS query was sent": (
            "en mDNS-forespørgsel blev sendt",
            "en mDNS-forespørsel ble sendt",
        ),
        "an mDNS query could not be sent: {error}": (
            "en mDNS-forespørgsel kunne ikke sendes: {error}",
            "en mDNS-forespørsel kunne ikke sendes: {error}",
        ),
        "this machine heard its own mDNS advert": (
            "maskinen hørte sin egen mDNS-annonce",
            "maskinen hørte sin egen mDNS-annonse",
        ),
        "this machine did not hear its own mDNS advert": (
            "maskinen hørte ikke sin egen mDNS-annonce",
            "maskinen hørte ikke sin egen mDNS-annonse",
        ),
        "a TCP listener was reached at this address": (
            "en TCP-lytter kunne nås på denne adresse",
            "en TCP-lytter kunne nås på denne adressen",
        ),
        "a TCP listener could not be reached at this address: {error}": (
            "en TCP-lytter kunne ikke nås på denne adresse: {error}",
            "en TCP-lytter kunne ikke nås på denne adressen: {error}",
        ),
        "Data dir: {path}": ("Datamappe: {path}", "Datamappe: {path}"),
        "Identity: none yet (made at the first game)": (
            "Identitet: ingen endnu (laves ved første spil)",
            "Identitet: ingen ennå (lages ved første spill)",
        ),
        "Identity: {fingerprint}": ("Identitet: {fingerprint}", "Identitet: {fingerprint}"),
        "Libraries: {versions}": ("Biblioteker: {versions}", "Biblioteker: {versions}"),
        "All is well: tables can be opened and found from this machine.": (
            "Alt er i orden: borde kan åbnes og findes fra denne maskine.",
            "Alt er i orden: bord kan åpnes og finnes fra denne maskinen.",
        ),
        "Something is wrong; what may help:": (
            "Noget er galt; det her kan hjælpe:",
            "Noe er galt; dette kan hjelpe:",
        ),
        "mDNS cannot be sent from {ip}: {error}. {hint}.": (
            "mDNS kan ikke sendes fra {ip}: {error}. {hint}.",
            "mDNS kan ikke sendes fra {ip}: {error}. {hint}.",
        ),
        "`rommy doctor` checks this machine.": (
            "`rommy doctor` undersøger denne maskine.",
            "`rommy doctor` undersøker denne maskinen.",
        ),
        "Is the table open, on the same Wi-Fi? `rommy doctor` checks this machine; or join with --connect HOST:PORT (the address on the creator's screen)": (
            "Er bordet åbent, på samme Wi-Fi? `rommy doctor` undersøger denne maskine; eller kom med via --connect VÆRT:PORT (adressen på opretterens skærm)",
            "Er bordet åpent, på samme Wi-Fi? `rommy doctor` undersøker denne maskinen; eller bli med via --connect VERT:PORT (adressen på oppretterens skjerm)",
        ),
        "nobody has joined yet. If the others cannot see this table, run `rommy doctor` on each machine, or join with `rommy join --connect {address}`": (
            "ingen er kommet med endnu. Kan de andre ikke se bordet, så kør `rommy doctor` på hver maskine, eller kom med via `rommy join --connect {address}`",
            "ingen har blitt med ennå. Ser ikke de andre bordet, kjør `rommy doctor` på hver maskin, eller bli med via `rommy join --connect {address}`",
        ),
        "this table uses {where}": ("bordet bruger {where}", "bordet bruker {where}"),
        "joining at {address} (--connect)": (
            "kommer med på {address} (--connect)",
            "blir med på {address} (--connect)",
        ),
        "joining at {address}: of the {count} addresses the table advertises, the first at which its creator proved its key": (
            "kommer med på {address}: af de {count} adresser, bordet annoncerer, den første hvor opretteren beviste sin nøgle",
            "blir med på {address}: av de {count} adressene bordet annonserer, den første der oppretteren beviste nøkkelen sin",
        ),
        "no open table{where} found in {seconds:.0f} s.": (
            "intet åbent bord{where} fundet på {seconds:.0f} s.",
            "ingen åpne bord{where} funnet på {seconds:.0f} s.",
        ),
        "looking for the table{where} (up to {seconds:.0f} s)...": (
            "leder efter bordet{where} (op til {seconds:.0f} s)...",
            "ser etter bordet{where} (opptil {seconds:.0f} s)...",
        ),
        "joining at {address}, where the table's creator proved its key": (
            "kommer med på {address}, hvor bordets opretter beviste sin nøgle",
            "blir med på {address}, der bordets oppretter beviste nøkkelen sin",
        ),
        "no tables found.": ("ingen borde fundet.", "ingen bord funnet."),
        "address {ip} ({adapter}: {why})": (
            "adressen {ip} ({adapter}: {why})",
            "adressen {ip} ({adapter}: {why})",
        ),
        "address {ip} ({adapter}: {why}); also {others}": (
            "adressen {ip} ({adapter}: {why}); desuden {others}",
            "adressen {ip} ({adapter}: {why}); dessuten {others}",
        ),
        "the default route": ("standardruten", "standardruten"),
        "another adapter": ("et andet netkort", "et annet nettverkskort"),
        "chosen with --interface": ("valgt med --interface", "valgt med --interface"),
        "no network found: only this machine": (
            "intet netværk fundet: kun denne maskine",
            "ikke noe nettverk funnet: bare denne maskinen",
        ),
        "loopback: only this machine": (
            "loopback: kun denne maskine",
            "loopback: bare denne maskinen",
        ),
        "link-local: no address from the router": (
            "link-local: ingen adresse fra routeren",
            "link-local: ingen adresse fra ruteren",
        ),
        "not an address another machine can reach": (
            "ikke en adresse, andre maskiner kan nå",
            "ikke en adresse andre maskiner kan nå",
        ),
        "macOS Local Network privacy may block this terminal: System Settings > Privacy & Security > Local Network, switch on your terminal (Terminal, iTerm2, VS Code), then quit and reopen it": (
            "macOS' beskyttelse af lokalt netværk blokerer måske denne terminal: Systemindstillinger > Anonymitet og sikkerhed > Lokalt netværk, slå din terminal til (Terminal, iTerm2, VS Code), og luk og åbn den igen",
            "macOS' personvern for lokalt nettverk blokkerer kanskje denne terminalen: Systeminnstillinger > Personvern og sikkerhet > Lokalt nettverk, slå på terminalen din (Terminal, iTerm2, VS Code), og lukk og åpne den igjen",
        ),
        "the Windows firewall blocks it: allow Python when Windows asks, and mark the home Wi-Fi as a Private network (Settings > Network > Wi-Fi > your network)": (
            "Windows' firewall blokerer: tillad Python, når Windows spørger, og marker hjemmets Wi-Fi som et privat netværk (Indstillinger > Netværk > Wi-Fi > dit netværk)",
            "Windows-brannmuren blokkerer: tillat Python når Windows spør, og merk hjemmets Wi-Fi som et privat nettverk (Innstillinger > Nettverk > Wi-Fi > nettverket ditt)",
        ),
        "a firewall blocks mDNS (UDP port 5353): allow it for the home network": (
            "en firewall blokerer mDNS (UDP-port 5353): tillad det på hjemmenetværket",
            "en brannmur blokkerer mDNS (UDP-port 5353): tillat det på hjemmenettverket",
        ),
        "there is no route for multicast through that adapter: is it connected to the Wi-Fi? (Linux without a default route: ip route add 224.0.0.0/4 dev ADAPTER)": (
            "der er ingen rute for multicast gennem det netkort: er det forbundet til Wi-Fi? (Linux uden standardrute: ip route add 224.0.0.0/4 dev NETKORT)",
            "det finnes ingen rute for multicast gjennom det nettverkskortet: er det koblet til Wi-Fi? (Linux uten standardrute: ip route add 224.0.0.0/4 dev NETTVERKSKORT)",
        ),
        "that adapter is down or has lost its address: reconnect to the Wi-Fi": (
            "det netkort er slået fra eller har mistet sin adresse: forbind til Wi-Fi igen",
            "det nettverkskortet er slått av eller har mistet adressen sin: koble til Wi-Fi igjen",
        ),
        "something on this machine stops multicast; run `rommy doctor`": (
            "noget på denne maskine stopper multicast; kør `rommy doctor`",
            "noe på denne maskinen stopper multicast; kjør `rommy doctor`",
        ),
        # the command line's errors (issue #30, item 9: no English in a da/nb game)
        "--bot takes one of {levels}, not {given!r}": (
            "--bot tager en af {levels}, ikke {given!r}",
            "--bot tar en av {levels}, ikke {given!r}",
        ),
        "the full-screen client needs a terminal; seat a bot with --bot": (
            "spillet på fuld skærm kræver en terminal; sæt en bot på pladsen med --bot",
            "spillet i fullskjerm krever en terminal; sett en bot på plassen med --bot",
        ),
        "Player": ("Spiller", "Spiller"),
        "You": ("Du", "Du"),
        "rommy play needs a terminal (for bots only: rommy simulate)": (
            "rommy play kræver en terminal (kun bots: rommy simulate)",
            "rommy play krever en terminal (bare boter: rommy simulate)",
        ),
        "a headless host needs --start-when N (the client starts games by hand)": (
            "et bord uden skærm kræver --start-when N (på skærmen startes spillet i hånden)",
            "et bord uten skjerm krever --start-when N (på skjermen startes spillet for hånd)",
        ),
        "--connect takes HOST:PORT, not {given!r}": (
            "--connect tager VÆRT:PORT, ikke {given!r}",
            "--connect tar VERT:PORT, ikke {given!r}",
        ),
        " named {table!r}": (" ved navn {table!r}", " med navnet {table!r}"),
        " by {creator}": (" oprettet af {creator}", " opprettet av {creator}"),
        "the open table{where} speaks protocol v{theirs}, this p2p-rommy v{ours}: both need the same release": (
            "det åbne bord{where} taler protokol v{theirs}, dette p2p-rommy v{ours}: begge skal have samme udgave",
            "det åpne bordet{where} snakker protokoll v{theirs}, dette p2p-rommy v{ours}: begge må ha samme utgave",
        ),
        "{table!r} by {creator}": (
            "{table!r} oprettet af {creator}",
            "{table!r} opprettet av {creator}",
        ),
        "several open tables{where}: {listed}. Ask the creator for the fingerprint on their screen and join with the table's name and --creator FINGERPRINT": (
            "flere åbne borde{where}: {listed}. Bed opretteren om fingeraftrykket på skærmen, og kom med med bordets navn og --creator FINGERAFTRYK",
            "flere åpne bord{where}: {listed}. Be den som opprettet bordet om fingeravtrykket på skjermen, og bli med ved å oppgi bordets navn og --creator FINGERAVTRYKK",
        ),
        "passed over a table {table!r} at {address}: it claims the creator {creator} but proves the key {proven} (an impostor, or a table that has closed)": (
            "sprang et bord {table!r} på {address} over: det siger, at {creator} har oprettet det, men beviser nøglen {proven} (en bedrager eller et bord, der er lukket)",
            "hoppet over et bord {table!r} på {address}: det sier at {creator} opprettet det, men beviser nøkkelen {proven} (en bedrager eller et bord som er stengt)",
        ),
        "passed over a table {table!r} at {address}: it claims the creator {creator} but proves no key (an impostor, or a table that has closed)": (
            "sprang et bord {table!r} på {address} over: det siger, at {creator} har oprettet det, men beviser ingen nøgle (en bedrager eller et bord, der er lukket)",
            "hoppet over et bord {table!r} på {address}: det sier at {creator} opprettet det, men beviser ingen nøkkel (en bedrager eller et bord som er stengt)",
        ),
        "no table{where} proves the creator's key it advertises; not joining": (
            "intet bord{where} beviser den opretternøgle, det annoncerer; kommer ikke med",
            "ingen bord{where} beviser oppretternøkkelen det annonserer; blir ikke med",
        ),
        "this identity holds no seat in game {game}": (
            "denne identitet har ingen plads i spil {game}",
            "denne identiteten har ingen plass i spill {game}",
        ),
        "{game!r} is not a game id (the hex id rommy printed at the start)": (
            "{game!r} er ikke et spil-id (det hex-id, rommy viste ved starten)",
            "{game!r} er ikke en spill-id (hex-id-en rommy viste ved starten)",
        ),
        "no saved game {game!r} under {games}": (
            "intet gemt spil {game!r} i {games}",
            "ikke noe lagret spill {game!r} i {games}",
        ),
        "{game!r} names several games: give more of the id": (
            "{game!r} passer på flere spil: skriv mere af id'et",
            "{game!r} passer på flere spill: skriv mer av id-en",
        ),
        # house rules in words (rules/house_words.py): the lobby and `rommy rules --lang`
        "no two jokers side by side": (
            "ikke to jokere side om side",
            "ikke to jokere ved siden av hverandre",
        ),
        "no more jokers than natural cards": (
            "ikke flere jokere end naturlige kort",
            "ikke flere jokere enn naturlige kort",
        ),
        "build in the opening turn": ("byg i åbningsturen", "bygg i åpningsturen"),
        "joker swaps": ("jokerbytte", "jokerbytte"),
        "empty stock": ("tom bunke", "tom bunke"),
        "Køb! per round": ("Køb! per runde", "Kjøp! per runde"),
        "new melds after opening": ("nye meldinger efter åbning", "nye kombinasjoner etter åpning"),
        "opened players may buy": (
            "spillere, der har åbnet, må købe",
            "spillere som har åpnet, kan kjøpe",
        ),
        "who wins a Køb!": ("hvem vinder et Køb!", "hvem vinner et Kjøp!"),
        "Køb! window (ms)": ("Køb!-vinduet (ms)", "Kjøp!-vinduet (ms)"),
        "a swapped joker must be laid down": (
            "en byttet joker skal meldes",
            "en byttet joker må legges ut",
        ),
        "target score": ("pointgrænse", "poenggrense"),
        "one new meld per turn": ("én ny melding per tur", "én ny kombinasjon per tur"),
        "going out at once doubles": ("hånd-rommé tæller dobbelt", "gå ut på én gang gir dobbelt"),
        "joker in hand costs": ("joker på hånden koster", "joker på hånden koster"),
        "opening from natural cards only": (
            "åbning kun med naturlige kort",
            "åpning bare med naturlige kort",
        ),
        "bonus for going out": ("bonus for at gå ud", "bonus for å gå ut"),
        "never melded pays double": (
            "aldrig meldt betaler dobbelt",
            "aldri lagt ut betaler dobbelt",
        ),
        "fixed number of deals": ("fast antal givninger", "fast antall runder"),
        "shuffle the discards": ("bland afkastbunken", "stokk kastebunken"),
        "turn the discards over": ("vend afkastbunken", "snu kastebunken"),
        "the first caller": ("den første, der råber", "den første som roper"),
        "nearest seat": ("nærmeste plads", "nærmeste plass"),
        "drawn by lot": ("lodtrækning", "loddtrekning"),
        "unlimited": ("ubegrænset", "ubegrenset"),
        "on": ("til", "på"),
        "off": ("fra", "av"),
        # what the command line says around a game (frontends/)
        "{count} at the table: {players}": (
            "{count} ved bordet: {players}",
            "{count} ved bordet: {players}",
        ),
        "table {table!r} ({variant}) open on port {port}; you are {name} ({fingerprint}); starting at {count} players": (
            "bord {table!r} ({variant}) åbent på port {port}; du er {name} ({fingerprint}); starter ved {count} spillere",
            "bord {table!r} ({variant}) åpent på port {port}; du er {name} ({fingerprint}); starter ved {count} spillere",
        ),
        "joining {address} as {name} ({fingerprint})": (
            "kommer med på {address} som {name} ({fingerprint})",
            "blir med på {address} som {name} ({fingerprint})",
        ),
        "game {game} code {code}: you are seat {seat} of {count}; first dealer {dealer}": (
            "spil {game} kode {code}: du har plads {seat} af {count}; første giver {dealer}",
            "spill {game} kode {code}: du har plass {seat} av {count}; første giver {dealer}",
        ),
        "resuming game {game} as seat {seat} ({name}) at step {step}; catching up": (
            "fortsætter spil {game} på plads {seat} ({name}) ved trin {step}; indhenter",
            "fortsetter spill {game} på plass {seat} ({name}) ved steg {step}; tar igjen",
        ),
        "stopped: {reason}": ("stoppet: {reason}", "stoppet: {reason}"),
        "the table froze: {reason}": ("bordet gik i stå: {reason}", "bordet stoppet opp: {reason}"),
        "nobody else is at the table any more: the others have finished the match or left. "
        "This seat's transcript ends at step {step}; if the match is over, the last steps are "
        "in theirs. When they are back: rommy resume {game}": (
            "der er ingen andre ved bordet længere: de andre har spillet færdigt eller er gået. Denne plads' spillog slutter ved trin {step}; er spillet slut, står de sidste trin i deres. Når de er tilbage: rommy resume {game}",
            "det er ingen andre ved bordet lenger: de andre har spilt ferdig eller har gått. Denne plassens spillogg slutter ved steg {step}; er spillet slutt, står de siste stegene i deres. Når de er tilbake: rommy resume {game}",
        ),
        "the game was ended by agreement: {reason}": (
            "spillet blev afsluttet efter aftale: {reason}",
            "spillet ble avsluttet etter avtale: {reason}",
        ),
        # `rommy rules --lang` (rules/summary.py, rules/house_words.py)
        "Contract rummy in 7 rounds; each round has its own contract to lay down first.\n3-5 players, 108 cards (2 packs + 4 jokers), 11 cards each, upcard turned.\nPasser: 3-4 of a rank, all suits different. Løber: 4+ in a row in one suit,\nace high (J-Q-K-A) or low (A-2-3-4), never both. Jokers stand for any card;\nevery meld needs a natural card.\nTurn: draw (stock or discard), lay down (the first time: the whole contract at\nonce), discard one card unless you just laid your last.\nKøb!: the next player may take a discard as their draw; if they draw from the\nstock instead, the others may buy it and take one penalty card from the stock.\nScoring: the closer 0; others joker 25, ace 15, 10/J/Q/K 10, 2-9 face value.\nLowest total after 7 rounds wins.": (
            "Kontrakt-rommy i 7 runder; hver runde har sin egen kontrakt, der skal lægges\nned først.\n3-5 spillere, 108 kort (2 spil + 4 jokere), 11 kort til hver, øverste kort\nvendes.\nPasser: 3-4 af samme værdi i forskellige kulører. Løber: 4+ i træk i samme\nkulør, es højt (B-D-K-E) eller lavt (E-2-3-4), aldrig begge. Jokere gælder som\nethvert kort; hver melding skal have et naturligt kort.\nTur: træk (bunken eller afkastbunken), læg ned (første gang: hele kontrakten\npå én gang), kast ét kort, medmindre du lige har lagt dit sidste.\nKøb!: næste spiller må tage det kastede kort som sit træk; trækker han fra\nbunken i stedet, må de andre købe det og tage ét strafkort fra bunken.\nPoint: den, der går ud, 0; andre: joker 25, es 15, 10/B/D/K 10, 2-9 pålydende.\nLaveste sum efter 7 runder vinder.",
            "Kontrakt-rummy i 7 runder; hver runde har sin egen kontrakt som må legges ned\nførst.\n3-5 spillere, 108 kort (2 kortstokker + 4 jokere), 11 kort hver, øverste kort\nsnus.\nPasser: 3-4 av samme verdi i forskjellige farger. Løber: 4+ på rad i samme\nfarge, ess høyt (kn-D-K-E) eller lavt (E-2-3-4), aldri begge. Jokere gjelder\nsom et hvilket som helst kort; hver kombinasjon må ha et naturlig kort.\nTur: trekk (bunken eller kastebunken), legg ned (første gang: hele kontrakten\npå én gang), kast ett kort, med mindre du nettopp la ned ditt siste.\nKjøp!: neste spiller kan ta det kastede kortet som sitt trekk; trekker hun fra\nbunken i stedet, kan de andre kjøpe det og ta ett straffekort fra bunken.\nPoeng: den som går ut 0; andre: joker 25, ess 15, 10/kn/D/K 10, 2-9 pålydende.\nLaveste sum etter 7 runder vinner.",
        ),
        "Norwegian basic rummy. 2-6 players, 52 cards without jokers, ace low only.\nHands: 2 players 10 cards, 3-4 players 7, 5-6 players 6; upcard turned.\nGruppe: 3-4 of a rank. Sekvens: 3+ in a row in one suit (A-2-3 yes, Q-K-A no).\nTurn: draw (stock or discard), lay out and add to any melds if you like,\ndiscard one card. A card taken from the discard pile cannot be discarded in\nthe same turn. Your last card may be melded, laid off or discarded.\nScoring: the round winner scores the sum of the others' hands (ace 1, 2-10\nface, J/Q/K 10). First to the target score wins.": (
            "Norsk grundrommy. 2-6 spillere, 52 kort uden jokere, es kun lavt.\nHænder: 2 spillere 10 kort, 3-4 spillere 7, 5-6 spillere 6; øverste kort\nvendes.\nGruppe: 3-4 af samme værdi. Sekvens: 3+ i træk i samme kulør (E-2-3 ja, D-K-E\nnej).\nTur: træk (bunken eller afkastbunken), læg ud og læg til på meldinger, hvis du\nvil, kast ét kort. Et kort taget fra afkastbunken må ikke kastes i samme tur.\nDit sidste kort må meldes, lægges til eller kastes.\nPoint: rundens vinder får summen af de andres hænder (es 1, 2-10 pålydende,\nB/D/K 10). Den første, der når pointgrænsen, vinder.",
            "Norsk grunnrummy. 2-6 spillere, 52 kort uten jokere, ess bare lavt.\nHender: 2 spillere 10 kort, 3-4 spillere 7, 5-6 spillere 6; øverste kort snus.\nGruppe: 3-4 av samme verdi. Sekvens: 3+ på rad i samme farge (E-2-3 ja, D-K-E\nnei).\nTur: trekk (bunken eller kastebunken), legg ut og legg til på kombinasjoner om\ndu vil, kast ett kort. Et kort tatt fra kastebunken kan ikke kastes i samme\ntur. Ditt siste kort kan legges ut, legges til eller kastes.\nPoeng: rundens vinner får summen av de andres hender (ess 1, 2-10 pålydende,\nkn/D/K 10). Den første som når poenggrensen, vinner.",
        ),
        "German home rummy. 2-6 players, 110 cards (2 packs + 6 jokers).\n13 cards each; the dealer takes 14 and starts by discarding, with no draw.\nSæt: 3-4 of a rank, suits different. Række: 3+ in a row in one suit, ace low\n(A-2-3) or high (Q-K-A). Your first melds in a deal must be worth 40 points at\nonce (a joker counts as the card it stands for); after that build freely.\nPenalty in hand: 2-10 face, J/Q/K 10, ace 11, joker 20. Going out in one turn\nwithout having melded before (hand-rommé) doubles every opponent's count.\nThe match ends when a total reaches the target; lowest total wins.": (
            "Tysk familierommé. 2-6 spillere, 110 kort (2 spil + 6 jokere).\n13 kort til hver; kortgiveren tager 14 og starter med at kaste af uden at\ntrække.\nSæt: 3-4 af samme værdi i forskellige kulører. Række: 3+ i træk i samme kulør,\nes lavt (E-2-3) eller højt (D-K-E). Dine første meldinger i en runde skal være\nmindst 40 point værd på én gang (en joker tæller som det kort, den gælder\nfor); derefter bygger du frit.\nStraf på hånden: 2-10 pålydende, B/D/K 10, es 11, joker 20. Går man ud i én\ntur uden at have meldt før (hånd-rommé), fordobles alle modspilleres point.\nSpillet slutter, når en sum når pointgrænsen; laveste sum vinder.",
            "Tysk familierommé. 2-6 spillere, 110 kort (2 kortstokker + 6 jokere).\n13 kort hver; giveren tar 14 og begynner med å kaste uten å trekke.\nSæt: 3-4 av samme verdi i forskjellige farger. Række: 3+ på rad i samme farge,\ness lavt (E-2-3) eller høyt (D-K-E). De første kombinasjonene dine i en runde\nmå være verdt 40 poeng på én gang (en joker teller som kortet den gjelder\nfor); deretter bygger du fritt.\nStraff på hånden: 2-10 pålydende, kn/D/K 10, ess 11, joker 20. Går man ut på\nén tur uten å ha lagt ut før (hånd-rommé), dobles alle motspilleres poeng.\nSpillet slutter når en sum når poenggrensen; laveste sum vinner.",
        ),
        "{first} or {second}": ("{first} eller {second}", "{first} eller {second}"),
        "a whole number from {minimum} to {maximum}": (
            "et helt tal fra {minimum} til {maximum}",
            "et helt tall fra {minimum} til {maximum}",
        ),
        "{name} ({variant}) - rule document: {document}": (
            "{name} ({variant}) - regeltekst: {document}",
            "{name} ({variant}) - regeltekst: {document}",
        ),
        "Contracts:": ("Kontrakter:", "Kontrakter:"),
        "round {number}: {contract}": ("runde {number}: {contract}", "runde {number}: {contract}"),
        "House rules (--house KEY=VALUE):": (
            "Husregler (--house NØGLE=VÆRDI):",
            "Husregler (--house NØKKEL=VERDI):",
        ),
        "a player may lay off on the table in the turn they open": (
            "en spiller må lægge til på bordet i den tur, hvor han åbner",
            "en spiller kan legge til på bordet i den turen hun åpner",
        ),
        "an opened player may swap a table joker for the card it stands for": (
            "en spiller, der har åbnet, må bytte en joker på bordet med det kort, den gælder for",
            "en spiller som har åpnet, kan bytte en joker på bordet med kortet den gjelder for",
        ),
        "empty stock: shuffle the discard pile but its top card into a new stock, or turn it over unshuffled": (
            "tom bunke: bland afkastbunken undtagen det øverste kort til en ny bunke, eller vend den ublandet",
            "tom bunke: stokk kastebunken unntatt det øverste kortet til en ny bunke, eller snu den ustokket",
        ),
        "how many times one player may buy (Køb) in a round": (
            "hvor mange gange en spiller må købe (Køb) i en runde",
            "hvor mange ganger en spiller kan kjøpe (Kjøp) i en runde",
        ),
        "an opened player may lay new passere and løbere in later turns": (
            "en spiller, der har åbnet, må lægge nye passere og løbere i senere ture",
            "en spiller som har åpnet, kan legge nye passere og løbere i senere turer",
        ),
        "players who have opened may also buy": (
            "spillere, der har åbnet, må også købe",
            "spillere som har åpnet, kan også kjøpe",
        ),
        "who wins when several buy: the first caller, as most seats saw it (first), the claimant nearest after the discarder (seat), or a lot drawn from the round's seed commitments (lot)": (
            "hvem vinder, når flere køber: den første, der råber, sådan som de fleste pladser så det (first), den nærmeste efter den, der kastede (seat), eller lodtrækning ud fra rundens forseglede hemmeligheder (lot)",
            "hvem vinner når flere kjøper: den første som roper, slik de fleste plassene så det (first), den nærmeste etter den som kastet (seat), eller loddtrekning ut fra rundens forseglede hemmeligheter (lot)",
        ),
        "how long the buy window stays open (milliseconds)": (
            "hvor længe købsvinduet er åbent (millisekunder)",
            "hvor lenge kjøpsvinduet er åpent (millisekunder)",
        ),
        "a joker taken by a swap must be laid down in the same turn": (
            "en joker, der er taget ved et bytte, skal meldes i samme tur",
            "en joker som er tatt ved et bytte, må legges ut i samme tur",
        ),
        "two jokers may not stand next to each other in a run": (
            "to jokere må ikke ligge ved siden af hinanden i en løber",
            "to jokere kan ikke ligge ved siden av hverandre i en sekvens",
        ),
        "a meld may not hold more jokers than natural cards": (
            "en melding må ikke have flere jokere end naturlige kort",
            "en kombinasjon kan ikke ha flere jokere enn naturlige kort",
        ),
        "the first player whose total reaches this wins the match": (
            "den første spiller, hvis sum når dette, vinder spillet",
            "den første spilleren som når dette, vinner spillet",
        ),
        "empty stock: turn the whole discard pile over unshuffled, or shuffle it": (
            "tom bunke: vend hele afkastbunken ublandet, eller bland den",
            "tom bunke: snu hele kastebunken ustokket, eller stokk den",
        ),
        "at most one new combination per turn": (
            "højst én ny melding per tur",
            "høyst én ny kombinasjon per tur",
        ),
        "a winner who lays out the whole hand in one turn scores double": (
            "en vinder, der lægger hele hånden ud i én tur, får dobbelt",
            "en vinner som legger ut hele hånden på én tur, får dobbelt",
        ),
        "what a joker left in hand costs": (
            "hvad en joker på hånden koster",
            "hva en joker igjen på hånden koster",
        ),
        "the 40 of the first lay-down must come from natural cards alone": (
            "de 40 i den første udlægning skal komme fra naturlige kort alene",
            "de 40 i den første utleggingen må komme fra naturlige kort alene",
        ),
        "the player who goes out scores minus this many points (0: scores 0)": (
            "den, der går ud, får minus så mange point (0: får 0)",
            "den som går ut, får minus så mange poeng (0: får 0)",
        ),
        "a player who never melded in the deal pays double": (
            "en spiller, der aldrig meldte i runden, betaler dobbelt",
            "en spiller som aldri la ut i runden, betaler dobbelt",
        ),
        "the match ends when a running total reaches this (500 or 1000 are usual)": (
            "spillet slutter, når en sum når dette (500 eller 1000 er almindeligt)",
            "spillet slutter når en sum når dette (500 eller 1000 er vanlig)",
        ),
        "play exactly this many deals instead of to the target (0: off)": (
            "spil præcis så mange givninger i stedet for til pointgrænsen (0: fra)",
            "spill nøyaktig så mange runder i stedet for til poenggrensen (0: av)",
        ),
        "empty stock: shuffle the discard pile but its top card, or turn it over": (
            "tom bunke: bland afkastbunken undtagen det øverste kort, eller vend den",
            "tom bunke: stokk kastebunken unntatt det øverste kortet, eller snu den",
        ),
        # --- issue 30, the full-screen client (family-screen): summary, labels, progress,
        # overlays, whose turn, hints and refusals; the help in parts that follow the rules
        "Keys\n"
        "  1-9 0 B F G L N U Y  select or unselect a card of your hand (either case)\n"
        "  Z and a key   a card labelled Z1, ZB, ... (a big hand)\n"
        "  c        clear the selection and staged melds\n"
        "  d        draw from the stock          t   take the discard\n"
        "  m        stage the selected cards as a meld\n"
        "  r        another reading of the last staged meld (set or run, joker)": (
            "Taster\n"
            "  1-9 0 B F G L N U Y  vælg eller fravælg et kort på hånden (store eller små)\n"
            "  Z og en tast  et kort mærket Z1, ZB, ... (en stor hånd)\n"
            "  c        ryd valget og de forberedte meldinger\n"
            "  d        træk fra bunken              t   tag det kastede kort\n"
            "  m        forbered de valgte kort som en melding\n"
            "  r        en anden tolkning af den sidste melding (slags melding, jokerens værdi)",
            "Taster\n"
            "  1-9 0 B F G L N U Y  velg eller fjern et kort på hånden (store eller små)\n"
            "  Z og en tast  et kort merket Z1, ZB, ... (en stor hånd)\n"
            "  c        tøm valget og de forberedte kombinasjonene\n"
            "  d        trekk fra bunken             t   ta det kastede kortet\n"
            "  m        forbered de valgte kortene som en kombinasjon\n"
            "  r        en annen tolkning av den siste kombinasjonen (type, jokerens verdi)",
        ),
        "  Enter    lay down the staged melds (your opening: the whole contract)": (
            "  Enter    meld de forberedte meldinger (åbning: hele kontrakten på én gang)",
            "  Enter    legg ut de forberedte kombinasjonene (åpning: hele kontrakten på én gang)",
        ),
        "  Enter    lay down the staged melds": (
            "  Enter    meld de forberedte meldinger",
            "  Enter    legg ut de forberedte kombinasjonene",
        ),
        "  o N      lay off the selected card on meld N (type N, Enter if needed)": (
            "  o N      læg det valgte kort til melding N (skriv N, evt. Enter)",
            "  o N      legg det valgte kortet til kombinasjon N (skriv N, ev. Enter)",
        ),
        "  w N      swap the selected card for the joker in meld N": (
            "  w N      byt det valgte kort med jokeren i melding N",
            "  w N      bytt det valgte kortet med jokeren i kombinasjon N",
        ),
        "  x        discard the selected card": (
            "  x        kast det valgte kort",
            "  x        kast det valgte kortet",
        ),
        "  k / p    Køb! (buy the discard) / pass, while the buy window is open\n"
        "  a        auto-pass every Køb! window (again: off)": (
            "  k / p    Køb! (køb det kastede kort) / pas, mens købsvinduet er åbent\n"
            "  a        meld altid pas til Køb! (igen: slået fra)",
            "  k / p    Kjøp! (kjøp det kastede kortet) / pass, mens kjøpsvinduet er åpent\n"
            "  a        meld alltid pass på Kjøp! (igjen: slått av)",
        ),
        "  s        sort by suit or by rank      h   melds you could make\n"
        "  v        the score sheet of every round so far\n"
        "  PgUp/Dn  scroll the table (Tab: scroll the log instead)\n"
        "  e        end the game without a player the table has long waited for\n"
        "  i        the game code, the fingerprints, how to resume\n"
        "  /        say something (Enter sends)  ?   this help    q   quit": (
            "  s        sortér efter kulør eller værdi   h   meldinger du kan lave\n"
            "  v        pointtavlen for alle runder indtil nu\n"
            "  PgUp/Dn  rul bordet (Tab: rul loggen i stedet)\n"
            "  e        afslut spillet uden en spiller, bordet længe har ventet på\n"
            "  i        spilkoden, fingeraftrykkene, hvordan man fortsætter\n"
            "  /        sig noget (Enter sender)  ?   denne hjælp   q   afslut",
            "  s        sorter etter farge eller verdi   h   kombinasjoner du kan lage\n"
            "  v        poengtavlen for alle runder til nå\n"
            "  PgUp/Dn  rull bordet (Tab: rull loggen i stedet)\n"
            "  e        avslutt spillet uten en spiller bordet lenge har ventet på\n"
            "  i        spillkoden, fingeravtrykkene, hvordan man fortsetter\n"
            "  /        si noe (Enter sender)  ?   denne hjelpen   q   avslutt",
        ),
        "Your turn: discard a card (the dealer starts with {count} cards and does not draw); "
        "m and Enter meld first": (
            "Din tur: kast et kort (giveren starter med {count} kort og trækker ikke); "
            "m og Enter melder først",
            "Din tur: kast et kort (giveren starter med {count} kort og trekker ikke); "
            "m og Enter legger ut først",
        ),
        "w+N swaps a joker, ": ("w+N bytter en joker, ", "w+N bytter en joker, "),
        "Your turn: card keys select, m meld, Enter lays down, o+N lays off, {swap}x discards, "
        "? help": (
            "Din tur: korttasterne vælger, m forbereder, Enter melder, o+N lægger til, "
            "{swap}x kaster, ? hjælp",
            "Din tur: korttastene velger, m forbereder, Enter legger ut, o+N legger til, "
            "{swap}x kaster, ? hjelp",
        ),
        "to open: {melds}": ("til åbning: {melds}", "til åpning: {melds}"),
        "a meld needs at least one natural card, not only jokers": (
            "en melding skal have mindst ét naturligt kort, ikke kun jokere",
            "en kombinasjon må ha minst ett naturlig kort, ikke bare jokere",
        ),
        "a {set} is cards of one rank, a {run} cards of one suit in sequence": (
            "en {set} er kort af samme værdi, en {run} kort i samme kulør i rækkefølge",
            "en {set} er kort av samme verdi, en {run} kort i samme farge i rekkefølge",
        ),
        "the key {key} does nothing here; ? shows the keys": (
            "tasten {key} gør ingenting her; ? viser tasterne",
            "tasten {key} gjør ingenting her; ? viser tastene",
        ),
        "those cards are not a meld: {why}": (
            "de kort er ikke en melding: {why}",
            "de kortene er ikke en kombinasjon: {why}",
        ),
        "{worth} of {points} points": ("{worth} af {points} point", "{worth} av {points} poeng"),
        "{have} of {wanted} {name}": ("{have} af {wanted} {name}", "{have} av {wanted} {name}"),
        "a new game can start when this one is over": (
            "et nyt spil kan begynde, når dette er slut",
            "et nytt spill kan begynne når dette er slutt",
        ),
        "the house rule '{rule}' is off at this table: a joker on the table stays there": (
            "husreglen '{rule}' er slået fra ved dette bord: en joker på bordet bliver liggende",
            "husregelen '{rule}' er slått av ved dette bordet: en joker på bordet blir liggende",
        ),
        "{game} has no Køb!": ("i {game} er der ingen Køb!", "i {game} er det ingen Kjøp!"),
        "{game} has no joker swaps": (
            "i {game} bytter man ikke jokere",
            "i {game} bytter man ikke jokere",
        ),
        "{name} (you)": ("{name} (dig)", "{name} (deg)"),
        "staged ({progress}): {melds}": (
            "forberedt ({progress}): {melds}",
            "forberedt ({progress}): {melds}",
        ),
        "you went out": ("du gik ud", "du gikk ut"),
        "went out": ("gik ud", "gikk ut"),
        "{name} went out": ("{name} gik ud", "{name} gikk ut"),
        "the stock ran out and nobody went out": (
            "bunken slap op, og ingen gik ud",
            "bunken tok slutt, og ingen gikk ut",
        ),
        "the stock was turned twice without a meld: nobody went out": (
            "bunken blev vendt to gange uden en melding: ingen gik ud",
            "bunken ble snudd to ganger uten en kombinasjon: ingen gikk ut",
        ),
        "{names} share first place with {score} points": (
            "{names} deler førstepladsen med {score} point",
            "{names} deler førsteplassen med {score} poeng",
        ),
        "You win with {score} points!": (
            "Du vinder med {score} point!",
            "Du vinner med {score} poeng!",
        ),
        "{name} wins with {score} points": (
            "{name} vinder med {score} point",
            "{name} vinner med {score} poeng",
        ),
        "The game is over": ("Spillet er slut", "Spillet er slutt"),
        "ended without {name}, who left (forfeited)": (
            "afsluttet uden {name}, der forlod bordet (tabt)",
            "avsluttet uten {name}, som forlot bordet (tapt)",
        ),
        "ended without {name}, caught cheating (forfeited)": (
            "afsluttet uden {name}, der blev taget i snyd (tabt)",
            "avsluttet uten {name}, som ble tatt i juks (tapt)",
        ),
        "abandoned without {name}, caught cheating: no standing": (
            "opgivet uden {name}, der blev taget i snyd: ingen stilling",
            "oppgitt uten {name}, som ble tatt i juks: ingen stilling",
        ),
        "abandoned without {name}, who left: no standing": (
            "opgivet uden {name}, der forlod bordet: ingen stilling",
            "oppgitt uten {name}, som forlot bordet: ingen stilling",
        ),
        "Round {number} is over": ("Runde {number} er slut", "Runde {number} er slutt"),
        "n: new game at this table   q: quit": (
            "n: nyt spil ved dette bord   q: afslut",
            "n: nytt spill ved dette bordet   q: avslutt",
        ),
        "q: quit": ("q: afslut", "q: avslutt"),
        "house rule 'joker swaps' is off: a joker on the table stays there": (
            "husreglen 'jokerbytte' er slået fra: en joker på bordet bliver liggende",
            "husregelen 'jokerbytte' er slått av: en joker på bordet blir liggende",
        ),
        "Z_ (the second key of a card's label; Esc cancels)": (
            "Z_ (den anden tast i kortets mærke; Esc fortryder)",
            "Z_ (den andre tasten i kortets merke; Esc avbryter)",
        ),
        "space: next round": ("mellemrum: næste runde", "mellomrom: neste runde"),
        "PgUp/PgDn: more ({first}-{last} of {count})": (
            "PgUp/PgDn: mere ({first}-{last} af {count})",
            "PgUp/PgDn: mer ({first}-{last} av {count})",
        ),
        # the command line's waits (join --wait)
        "not a number of seconds: {value!r}": (
            "ikke et antal sekunder: {value!r}",
            "ikke et antall sekunder: {value!r}",
        ),
        "a wait from 0.1 to 3600 seconds, not {value}": (
            "en ventetid fra 0,1 til 3600 sekunder, ikke {value}",
            "en ventetid fra 0,1 til 3600 sekunder, ikke {value}",
        ),
        "how long to look for the table (default {seconds:g})": (
            "hvor længe der ledes efter bordet (standard {seconds:g})",
            "hvor lenge det letes etter bordet (standard {seconds:g})",
        ),
        # family (issue 30, the rest: --theme, a new game at a network table, refusals)
        "  Colours for a light or dark terminal: --theme light (or dark), or ROMMY_THEME": (
            "  Farver til en lys eller mørk terminal: --theme light (eller dark), eller ROMMY_THEME",
            "  Farger for en lys eller mørk terminal: --theme light (eller dark), eller ROMMY_THEME",
        ),
        "waiting for {name} to open the table {table!r} again...": (
            "venter på, at {name} åbner bordet {table!r} igen...",
            "venter på at {name} åpner bordet {table!r} igjen...",
        ),
        "A new game at the same table...": (
            "Et nyt spil ved samme bord...",
            "Et nytt spill ved samme bord...",
        ),
        "A new game at this table.": (
            "Et nyt spil ved dette bord.",
            "Et nytt spill ved dette bordet.",
        ),
        "Waiting for {names} (n on the last game's summary).": (
            "Venter på {names} (n på sidste spils slutstilling).",
            "Venter på {names} (n på forrige spills sluttstilling).",
        ),
        "Enter starts without them.": ("Enter starter uden dem.", "Enter starter uten dem."),
        "the game's last step is being signed; the new game follows": (
            "spillets sidste trin bliver underskrevet; det nye spil følger",
            "spillets siste steg blir signert; det nye spillet følger",
        ),
        "--bots names {count} bots for {players} players": (
            "--bots nævner {count} bots til {players} spillere",
            "--bots nevner {count} boter til {players} spillere",
        ),
        "no bot {kind!r}; the bots are {kinds}": (
            "ingen bot {kind!r}; bottene er {kinds}",
            "ingen bot {kind!r}; botene er {kinds}",
        ),
        "house rule {key} is on or off, not {value!r}": (
            "husreglen {key} er til eller fra, ikke {value!r}",
            "husregelen {key} er på eller av, ikke {value!r}",
        ),
        "house rule {key} is one of {choices}, not {value!r}": (
            "husreglen {key} er en af {choices}, ikke {value!r}",
            "husregelen {key} er en av {choices}, ikke {value!r}",
        ),
        "house rule {key} is {values}, not {value!r}": (
            "husreglen {key} er {values}, ikke {value!r}",
            "husregelen {key} er {values}, ikke {value!r}",
        ),
        "on or off": ("til eller fra", "på eller av"),
        " or ": (" eller ", " eller "),
        "a whole number from {low} to {high}": (
            "et helt tal fra {low} til {high}",
            "et heltall fra {low} til {high}",
        ),
        " or unlimited": (" eller ubegrænset", " eller ubegrenset"),
        "{variant} has no house rule {key!r}; its house rules are: {valid}": (
            "{variant} har ingen husregel {key!r}; dens husregler er: {valid}",
            "{variant} har ingen husregel {key!r}; husreglene er: {valid}",
        ),
        "write house rules as KEY=VALUE (like max_buys=2), not {item!r}": (
            "skriv husregler som NØGLE=VÆRDI (som max_buys=2), ikke {item!r}",
            "skriv husregler som NØKKEL=VERDI (som max_buys=2), ikke {item!r}",
        ),
        "{name} is for {low}-{high} players, not {count}": (
            "{name} er for {low}-{high} spillere, ikke {count}",
            "{name} er for {low}-{high} spillere, ikke {count}",
        ),
        "identity key": ("identitetsnøgle", "identitetsnøkkel"),
        "round secrets file": ("fil med rundehemmeligheder", "fil med rundehemmeligheter"),
        "{path} is not a p2p-rommy identity (expected 32 bytes)": (
            "{path} er ikke en p2p-rommy-identitet (der skulle være 32 byte)",
            "{path} er ikke en p2p-rommy-identitet (det skulle være 32 byte)",
        ),
        "cannot listen on port {port}: {why}": (
            "kan ikke lytte på port {port}: {why}",
            "kan ikke lytte på port {port}: {why}",
        ),
        "the saved transcript does not replay: {why}": (
            "den gemte spillog kan ikke afspilles igen: {why}",
            "den lagrede spilloggen kan ikke spilles av igjen: {why}",
        ),
        "permissions {mode} for {path} are too open: your {what} must not be readable by others. Fix it with: chmod 600 {path}": (
            "rettighederne {mode} for {path} er for åbne: din {what} må ikke kunne læses af andre. Ret det med: chmod 600 {path}",
            "rettighetene {mode} for {path} er for åpne: din {what} må ikke kunne leses av andre. Rett det med: chmod 600 {path}",
        ),
        "{path} is not a usable transcript: {why}": (
            "{path} er ikke en brugbar spillog: {why}",
            "{path} er ikke en brukbar spillogg: {why}",
        ),
        "{path} belongs to another game": (
            "{path} hører til et andet spil",
            "{path} hører til et annet spill",
        ),
        "another rommy is playing this seat of the game in {path}": (
            "en anden rommy spiller allerede denne plads i spillet i {path}",
            "en annen rommy spiller allerede denne plassen i spillet i {path}",
        ),
        "no other seat answered this seat's catch-up asks": (
            "ingen anden plads svarede, da denne plads bad om at indhente spillet",
            "ingen annen plass svarte da denne plassen ba om å hente inn spillet",
        ),
        "the others ended the game without this seat at step {n}, which it had committed "
        "alone: their end takes its place": (
            "de andre afsluttede spillet uden denne plads ved trin {n}, som den havde vedtaget "
            "alene: deres afslutning træder i stedet",
            "de andre avsluttet spillet uten denne plassen ved steg {n}, som den hadde vedtatt "
            "alene: deres avslutning trer i stedet",
        ),
        "cannot write {where}: {why}. This seat stops here and sends nothing more; the others wait for it. Nothing is lost: make room, then run rommy resume {game}": (
            "kan ikke skrive {where}: {why}. Denne plads stopper her og sender ikke mere; de andre venter på den. Intet er tabt: gør plads, og kør så rommy resume {game}",
            "kan ikke skrive {where}: {why}. Denne plassen stopper her og sender ikke mer; de andre venter på den. Ingenting er tapt: gjør plass, og kjør så rommy resume {game}",
        ),
        "set a house rule (repeatable); see `rommy rules --variant V`": (
            "sæt en husregel (kan gentages); se `rommy rules --variant V`",
            "sett en husregel (kan gjentas); se `rommy rules --variant V`",
        ),
        "the client's language: da (or dk), nb (or no) or en (default: from the locale)": (
            "klientens sprog: da (eller dk), nb (eller no) eller en (standard: fra systemets sprog)",
            "klientens språk: da (eller dk), nb (eller no) eller en (standard: fra systemets språk)",
        ),
        "a colour for each suit (spades plain, hearts red, diamonds blue, clubs green)": (
            "en farve til hver kulør (spar neutral, hjerter rød, ruder blå, klør grøn)",
            "en farge for hver kortfarge (spar nøytral, hjerter rød, ruter blå, kløver grønn)",
        ),
        "colours for a light or a dark terminal (default: ROMMY_THEME, else what the terminal says in COLORFGBG, else colours readable on both)": (
            "farver til en lys eller mørk terminal (standard: ROMMY_THEME, ellers hvad terminalen siger i COLORFGBG, ellers farver, der kan læses på begge)",
            "farger for en lys eller mørk terminal (standard: ROMMY_THEME, ellers det terminalen sier i COLORFGBG, ellers farger som kan leses på begge)",
        ),
        "Peer-to-peer rummy for the home network, with fair dealing.": (
            "Rommy fra maskine til maskine på hjemmenetværket, med ærlig kortgivning.",
            "Rummy fra maskin til maskin på hjemmenettverket, med ærlig utdeling.",
        ),
        "play against bots on this machine (full-screen)": (
            "spil mod bots på denne maskine (fuld skærm)",
            "spill mot boter på denne maskinen (fullskjerm)",
        ),
        "how many bots (default 3)": (
            "hvor mange bots (standard 3)",
            "hvor mange boter (standard 3)",
        ),
        "random, easy, normal or hard (default normal)": (
            "random, easy, normal eller hard (standard normal)",
            "random, easy, normal eller hard (standard normal)",
        ),
        "your name (default: your login name)": (
            "dit navn (standard: dit brugernavn)",
            "navnet ditt (standard: brukernavnet ditt)",
        ),
        "repeatable deals and bots": (
            "kortgivning og bots, der kan gentages",
            "utdelinger og boter som kan gjentas",
        ),
        "suits as letters, no symbols": (
            "kulører som bogstaver, ingen symboler",
            "farger som bokstaver, ingen symboler",
        ),
        "where the game's transcript is kept (default: the user's data dir)": (
            "hvor spilloggen gemmes (standard: brugerens datamappe)",
            "hvor spilloggen lagres (standard: brukerens datamappe)",
        ),
        "play this seat with a bot, without the client (random, easy, normal, hard)": (
            "lad en bot spille denne plads, uden klienten (random, easy, normal, hard)",
            "la en bot spille denne plassen, uten klienten (random, easy, normal, hard)",
        ),
        "your name (default: login or machine name)": (
            "dit navn (standard: brugernavn eller maskinens navn)",
            "navnet ditt (standard: brukernavn eller maskinens navn)",
        ),
        "only for the odd case (two networks, and the default route's is the wrong one): the network to use, as this machine's IP address on it": (
            "kun i sjældne tilfælde (to netværk, og standardrutens er det forkerte): netværket, der skal bruges, angivet som denne maskines IP-adresse på det",
            "bare i sjeldne tilfeller (to nettverk, og standardrutens er feil): nettverket som skal brukes, oppgitt som denne maskinens IP-adresse på det",
        ),
        "identity and transcripts (default: the user data dir)": (
            "identitet og spillogge (standard: brugerens datamappe)",
            "identitet og spillogger (standard: brukerens datamappe)",
        ),
        "open a table on the network": (
            "åbn et bord på netværket",
            "åpne et bord på nettverket",
        ),
        "the table's name": (
            "bordets navn",
            "bordets navn",
        ),
        "start the game when N players are seated": (
            "start spillet, når N spillere sidder ved bordet",
            "start spillet når N spillere sitter ved bordet",
        ),
        "join a table on the network": (
            "sæt dig ved et bord på netværket",
            "bli med ved et bord på nettverket",
        ),
        "its name (default: the only one)": (
            "dets navn (standard: det eneste)",
            "navnet (standard: det eneste)",
        ),
        "join without mDNS": ("sæt dig uden mDNS", "bli med uten mDNS"),
        "join only the table whose creator proves this key (as shown on their screen)": (
            "sæt dig kun ved det bord, hvis opretter beviser denne nøgle (som vist på opretterens skærm)",
            "bli med bare ved bordet der oppretteren beviser denne nøkkelen (som vist på oppretterens skjerm)",
        ),
        "restart this seat of a game after a crash": (
            "genstart denne plads i et spil efter et nedbrud",
            "start denne plassen i et spill på nytt etter et krasj",
        ),
        "the game id rommy printed (a prefix will do; default: the one unfinished game)": (
            "spil-id'et, som rommy skrev (begyndelsen er nok; standard: det ene uafsluttede spil)",
            "spill-id-en som rommy skrev (begynnelsen holder; standard: det ene uavsluttede spillet)",
        ),
        "your key's fingerprint, where it is kept, how to back it up": (
            "din nøgles fingeraftryk, hvor den gemmes, hvordan den sikkerhedskopieres",
            "nøkkelens fingeravtrykk, hvor den lagres, hvordan den sikkerhetskopieres",
        ),
        "where the identity is kept (default: the user data dir)": (
            "hvor identiteten gemmes (standard: brugerens datamappe)",
            "hvor identiteten lagres (standard: brukerens datamappe)",
        ),
        "list the tables seen on the network": (
            "vis bordene, der ses på netværket",
            "vis bordene som ses på nettverket",
        ),
        "check why tables are not found or cannot be joined (network, firewall)": (
            "undersøg, hvorfor borde ikke findes eller ikke kan tilgås (netværk, firewall)",
            "undersøk hvorfor bord ikke finnes eller ikke kan nås (nettverk, brannmur)",
        ),
        "check only this address": (
            "undersøg kun denne adresse",
            "undersøk bare denne adressen",
        ),
        "identity and transcripts": (
            "identitet og spillogge",
            "identitet og spillogger",
        ),
        "check offline that a game was fair": (
            "tjek uden net, at et spil var ærligt",
            "sjekk uten nett at et spill var ærlig",
        ),
        "print the report as JSON": (
            "skriv rapporten som JSON",
            "skriv rapporten som JSON",
        ),
        "show a verified game step by step": (
            "vis et kontrolleret spil træk for træk",
            "vis et kontrollert spill trekk for trekk",
        ),
        "only round R (from 1)": (
            "kun runde R (fra 1)",
            "bare runde R (fra 1)",
        ),
        "with --round: up to move N of the round (from 1), then every hand": (
            "med --round: til og med rundens træk N (fra 1), derefter alle hænder",
            "med --round: til og med rundens trekk N (fra 1), deretter alle hender",
        ),
        "on a terminal too, print it all without waiting": (
            "også på en terminal: skriv det hele uden at vente",
            "også på en terminal: skriv alt uten å vente",
        ),
        "card suits as letters": (
            "kulører som bogstaver",
            "farger som bokstaver",
        ),
        "print the rules summary and the house rules": (
            "skriv reglernes resumé og husreglerne",
            "skriv sammendraget av reglene og husreglene",
        ),
        "one variant (default: all three)": (
            "én variant (standard: alle tre)",
            "én variant (standard: alle tre)",
        ),
        "positional arguments": (
            "argumenter efter placering",
            "posisjonsargumenter",
        ),
        "options": (
            "tilvalg",
            "valg",
        ),
        "show this help message and exit": (
            "vis denne hjælp og afslut",
            "vis denne hjelpen og avslutt",
        ),
        "show program's version number and exit": (
            "vis programmets versionsnummer og afslut",
            "vis programmets versjonsnummer og avslutt",
        ),
        "play a whole match between bots and print the score sheet": (
            "spil et helt spil mellem bots og skriv pointtavlen",
            "spill et helt spill mellom boter og skriv poengtavlen",
        ),
        "measure performance figures": (
            "mål ydelsestal",
            "mål ytelsestall",
        ),
        "its connection closed": ("forbindelsen blev lukket", "forbindelsen ble lukket"),
        "the start stopped: {who} left ({why})": (
            "starten stoppede: {who} gik ({why})",
            "starten stoppet: {who} gikk ({why})",
        ),
        "a game needs at least two players": (
            "et spil kræver mindst to spillere",
            "et spill krever minst to spillere",
        ),
        "refused: {why}": ("afvist: {why}", "avvist: {why}"),
        "the start stopped: {who} sent no coin commitment": (
            "starten stoppede: {who} sendte ikke sin forseglede mønt",
            "starten stoppet: {who} sendte ikke sin forseglede mynt",
        ),
        "the start stopped: {who} sent no coin value": (
            "starten stoppede: {who} sendte ikke sin møntværdi",
            "starten stoppet: {who} sendte ikke sin myntverdi",
        ),
        "the start stopped: {who} sent no config signature": (
            "starten stoppede: {who} underskrev ikke spillets opsætning",
            "starten stoppet: {who} signerte ikke spillets oppsett",
        ),
        "the game started without this player": (
            "spillet startede uden dig",
            "spillet startet uten deg",
        ),
        "the table's creator ({who}) did not answer": (
            "bordets opretter ({who}) svarede ikke",
            "bordets oppretter ({who}) svarte ikke",
        ),
        "the start stopped after you revealed your coin value: {name} ({who}), the table's creator, sees every value before anyone else. A creator who stops here can draw the seats again until they suit it: if it happens again at this table, play at another": (
            "starten stoppede, efter at du viste din møntværdi: {name} ({who}), bordets opretter, ser alle værdier før nogen anden. En opretter, der stopper her, kan trække pladserne igen, til de passer ham: sker det igen ved dette bord, så spil ved et andet",
            "starten stoppet etter at du viste myntverdien din: {name} ({who}), bordets oppretter, ser alle verdier før noen andre. En oppretter som stopper her, kan trekke plassene på nytt til de passer ham: skjer det igjen ved dette bordet, spill ved et annet",
        ),
        "the start stopped: {name} ({who}), the table's creator, went quiet": (
            "starten stoppede: {name} ({who}), bordets opretter, blev tavs",
            "starten stoppet: {name} ({who}), bordets oppretter, ble taus",
        ),
        "the table's creator closed the connection ({why})": (
            "bordets opretter lukkede forbindelsen ({why})",
            "bordets oppretter lukket forbindelsen ({why})",
        ),
        "refused: this table's advert names the creator {creator}, but its host proved the key {proven}. It is not the table it claims to be": (
            "afvist: bordets annonce nævner opretteren {creator}, men værten beviste nøglen {proven}. Det er ikke det bord, det udgiver sig for",
            "avvist: bordets annonse nevner oppretteren {creator}, men verten beviste nøkkelen {proven}. Det er ikke bordet det utgir seg for å være",
        ),
        "{path} is damaged (it lists where the others listen); move it away and resume again to dial the addresses in the transcript": (
            "{path} er beskadiget (den viser, hvor de andre lytter); flyt den væk og genoptag igen for at ringe op til adresserne i spilloggen",
            "{path} er skadet (den viser hvor de andre lytter); flytt den bort og gjenoppta igjen for å ringe opp adressene i spilloggen",
        ),
    }
)


def source_strings() -> list[str]:
    found = []
    for _, _, message, _, _ in extract_from_dir(
        str(ROOT / "p2p_rommy"), keywords={"_": None, "N_": None}
    ):
        if message not in found:
            found.append(message)
    return found


def main() -> None:
    strings = source_strings()
    missing = [s for s in strings if s not in TRANSLATIONS]
    if missing:
        raise SystemExit(f"untranslated strings: {missing}")
    for index, language in enumerate(("da", "nb")):
        catalog = Catalog(locale=language, project="p2p-rommy", domain="rommy")
        for message in strings:
            catalog.add(message, TRANSLATIONS[message][index])
        _write(catalog, language)
    english = Catalog(locale="en", project="p2p-rommy", domain="rommy")
    for message in strings:
        english.add(message, "")  # the source strings are English
    _write(english, "en")
    for path in compile_catalogs():
        print(path.relative_to(ROOT))


def _write(catalog: Catalog, language: str) -> None:
    path = LOCALE_DIR / language / "LC_MESSAGES" / "rommy.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, omit_header=False, sort_output=True, width=100)
    path.write_bytes(buffer.getvalue())


if __name__ == "__main__":
    main()
