"""When the victory cities of the Barbarossa games changed hands in 1941-42, for the self-play summary page's
comparison with history (`pbem selfplay --summary`, pbem/selfplay_report.py). No rule uses these dates.

Each date is the day the Axis took the city (for Warsaw and Ploesti, held by the Axis in 1941, the day the Red Army
took it); None: it never fell. Sources: the standard histories of the campaign (D. Glantz, *Barbarossa: Hitler's
Invasion of Russia 1941*, 2001; D. Stahel, *Operation Barbarossa and Germany's Defeat in the East*, 2009) and the
encyclopaedia article on each city's occupation. Where accounts differ by a day or two (Vitebsk: 9-11 July;
Stalino: 20-21 October) the middle or the most cited day is given: a game-turn of these games is ten days to a month.
Cities taken, lost and taken again count from the first fall (Rostov: 21 November 1941, lost 29 November).
"""
from __future__ import annotations

FELL: dict[str, str | None] = {
    "Brest": "1941-06-22",  # the town on the first day (the fortress held out into July)
    "Kaunas": "1941-06-24",
    "Vilnius": "1941-06-24",
    "Minsk": "1941-06-28",
    "Lvov": "1941-06-30",
    "Riga": "1941-07-01",
    "Pskov": "1941-07-09",
    "Zhitomir": "1941-07-09",
    "Vitebsk": "1941-07-10",
    "Smolensk": "1941-07-16",
    "Vinnitsa": "1941-07-19",
    "Mogilev": "1941-07-26",
    "Nikolayev": "1941-08-16",
    "Gomel": "1941-08-19",
    "Kherson": "1941-08-19",
    "Novgorod": "1941-08-19",
    "Dnepropetrovsk": "1941-08-25",
    "Tallinn": "1941-08-28",
    "Poltava": "1941-09-18",
    "Kiev": "1941-09-19",
    "Orel": "1941-10-03",
    "Zaporozhye": "1941-10-04",
    "Bryansk": "1941-10-06",
    "Mariupol": "1941-10-08",
    "Kalinin": "1941-10-14",
    "Odessa": "1941-10-16",
    "Taganrog": "1941-10-17",
    "Stalino": "1941-10-20",
    "Kharkov": "1941-10-24",
    "Kursk": "1941-11-02",
    "Kerch": "1941-11-16",
    "Rostov": "1941-11-21",
    "Sevastopol": "1942-07-04",
    "Voronezh": "1942-07-06",  # the city west of the river; the Soviets held the east bank
    "Voroshilovgrad": "1942-07-17",
    "Maikop": "1942-08-09",
    "Krasnodar": "1942-08-12",
    "Ploesti": "1944-08-30",
    "Warsaw": "1945-01-17",
    "Leningrad": None,
    "Moscow": None,
    "Tula": None,
    "Gorky": None,
    "Yaroslavl": None,
    "Stalingrad": None,  # fought for from August 1942, never wholly taken
}

ALIASES = {"Moskva": "Moscow", "Gorki": "Gorky"}  # the Barbarossa File's spellings


def fell(name: str) -> tuple[bool, str | None]:
    """(known, date): whether the history knows the city, and the day it fell (None: it never fell)."""
    key = ALIASES.get(name, name)
    return key in FELL, FELL.get(key)
