"""The words a map picture writes itself (legend, `encounter N` in a title) in the languages
questc knows them in; every other language, and every word missing here, stays English.

A pack's own texts (quest names, token labels) come from its translations; these are
questc's, so they are a table here (docs/translations.md, "Map images"). Terrain ids
without an entry are shown as the catalogs spell them.
"""

from __future__ import annotations

WORDS: dict[str, dict[str, str]] = {
    "fr": {
        "encounter": "rencontre", "plain": "sol", "water": "eau", "lava": "lave", "pit": "fosse",
        "rubble": "gravats", "sludge": "boue", "elevation": "surélévation", "hazard": "danger",
        "obstacle": "obstacle", "wall": "mur", "door": "porte", "open": "ouverte", "closed": "fermée",
        "opening": "ouverture", "hidden tile": "tuile cachée", "hero start": "départ des héros",
        "entrance": "entrée", "exit": "sortie", "master": "maître", "minion": "sbire", "lieutenant": "lieutenant",
        "no minions": "pas de sbires", "seen": "vu", "reachable": "atteignable",
        "blocking figure": "figurine qui bloque", "viewpoint": "point de vue", "glyph": "glyphe",
        "glyph (active)": "glyphe (actif)", "portal": "portail", "chest": "coffre",
        "token": "jeton", "search": "fouille", "objective": "objectif", "villager": "villageois",
        "heroes": "héros", "only with that many heroes": "seulement avec autant de héros",
        "red": "rouge", "blue": "bleu", "green": "vert", "yellow": "jaune", "white": "blanc",
        "copper": "cuivre", "silver": "argent", "gold": "or",
    },
    "pl": {
        "encounter": "spotkanie", "plain": "podłoże", "water": "woda", "lava": "lawa", "pit": "dół",
        "rubble": "gruz", "sludge": "błoto", "elevation": "wzniesienie", "hazard": "zagrożenie",
        "obstacle": "przeszkoda", "wall": "ściana", "door": "drzwi", "open": "otwarte",
        "closed": "zamknięte", "opening": "przejście", "hidden tile": "ukryty kafel",
        "hero start": "start bohaterów", "entrance": "wejście", "exit": "wyjście",
        "master": "przywódca", "minion": "sługa", "lieutenant": "porucznik", "no minions": "bez sług", "seen": "widoczne",
        "reachable": "osiągalne", "blocking figure": "figurka blokująca", "viewpoint": "punkt widzenia",
        "glyph": "glif", "glyph (active)": "glif (aktywny)", "portal": "portal", "chest": "skrzynia",
        "token": "żeton", "search": "przeszukanie", "objective": "cel", "villager": "wieśniak",
        "heroes": "bohaterów", "only with that many heroes": "tylko przy tylu bohaterach",
        "red": "czerwone", "blue": "niebieskie", "green": "zielone", "yellow": "żółte", "white": "białe",
        "copper": "miedziana", "silver": "srebrna", "gold": "złota",
    },
    "de": {
        "encounter": "Begegnung", "plain": "Boden", "water": "Wasser", "lava": "Lava", "pit": "Grube",
        "rubble": "Geröll", "sludge": "Schlamm", "elevation": "Erhöhung", "hazard": "Gefahr",
        "obstacle": "Hindernis", "wall": "Wand", "door": "Tür", "open": "offen", "closed": "geschlossen",
        "opening": "Öffnung", "hidden tile": "verdecktes Teil", "hero start": "Heldenstart",
        "entrance": "Eingang", "exit": "Ausgang", "master": "Anführer", "minion": "Scherge", "lieutenant": "Leutnant",
        "no minions": "keine Schergen", "seen": "sichtbar", "reachable": "erreichbar",
        "blocking figure": "blockierende Figur", "viewpoint": "Blickpunkt", "glyph": "Glyphe",
        "glyph (active)": "Glyphe (aktiv)", "portal": "Portal", "chest": "Truhe", "token": "Marker",
        "search": "Suche", "objective": "Ziel", "villager": "Dorfbewohner", "heroes": "Helden",
        "only with that many heroes": "nur mit so vielen Helden",
        "red": "rot", "blue": "blau", "green": "grün", "yellow": "gelb", "white": "weiß",
        "copper": "Kupfer", "silver": "Silber", "gold": "Gold",
    },
    "es": {
        "encounter": "encuentro", "plain": "suelo", "water": "agua", "lava": "lava", "pit": "foso",
        "rubble": "escombros", "sludge": "lodo", "elevation": "elevación", "hazard": "peligro",
        "obstacle": "obstáculo", "wall": "muro", "door": "puerta", "open": "abierta", "closed": "cerrada",
        "opening": "abertura", "hidden tile": "loseta oculta", "hero start": "inicio de los héroes",
        "entrance": "entrada", "exit": "salida", "master": "líder", "minion": "esbirro", "lieutenant": "lugarteniente",
        "no minions": "sin esbirros", "seen": "visto", "reachable": "alcanzable",
        "blocking figure": "figura que bloquea", "viewpoint": "punto de vista", "glyph": "glifo",
        "glyph (active)": "glifo (activo)", "portal": "portal", "chest": "cofre", "token": "ficha",
        "search": "búsqueda", "objective": "objetivo", "villager": "aldeano", "heroes": "héroes",
        "only with that many heroes": "solo con tantos héroes",
        "red": "roja", "blue": "azul", "green": "verde", "yellow": "amarilla", "white": "blanca",
        "copper": "cobre", "silver": "plata", "gold": "oro",
    },
}


def word(text: str, lang: str | None) -> str:
    """`text` (an English word or phrase of the table) in `lang`, or `text` itself."""
    if not lang:
        return text
    table = WORDS.get(lang) or WORDS.get(lang.split("_")[0].split("-")[0].lower(), {})
    return table.get(text, text)


def door_label(colour: str, is_open: bool, lang: str | None) -> str:
    """`red door (closed)` in `lang`: the colour, the door, its state."""
    state = word("open" if is_open else "closed", lang)
    door = word("door", lang)
    if not colour:
        return f"{door} ({state})"
    if lang and word("door", lang) != "door" and lang.split("_")[0] in ("fr", "es"):  # the colour after the noun
        return f"{door} {word(colour, lang)} ({state})"
    return f"{word(colour, lang)} {door} ({state})"
