"""The devices' and the engine's alarms in the screen's language, a device named by what it
is (the shoe, the camera), never by its path: the raw row keeps the path."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import tzinfo
from typing import Final

from croupier.decisions import Alarm
from ui.i18n import Lang, tr
from ui.notation import card_text, card_word, local_time

CAMERA_SOURCE: Final = "camera"  # drivers.camera's source name
TABLE_SOURCE: Final = "table"  # journal.live's, for a table that was down
WITNESS_SOURCE: Final = "camera witness"  # app.witnessing's, a camera beside the shoe


def device_name(source: str, lang: Lang) -> str:
    """What a source is, never its path: a serial port, a socket or a pty is the shoe."""
    if source.startswith(f"{CAMERA_SOURCE} ") and source != WITNESS_SOURCE:
        source = CAMERA_SOURCE  # a camera beside the shoe, named with its path
    key = {CAMERA_SOURCE: "dev_camera", TABLE_SOURCE: "dev_table",
           WITNESS_SOURCE: "dev_witness"}.get(source, "dev_shoe")
    return tr(key, lang)


_PATH = re.compile(r"(socket://\S+|rfc2217://\S+|/dev/\S+|/\S+/\S+|\bCOM\d+\b)")

_DeviceWords = Callable[[re.Match[str], Lang, tzinfo | None], str]
# `croupier.witness.Difference.text`: where the baize and the shoe's record part.
_WHERE = r"coup (?P<n>\d+), the (?P<row>noir|rouge) row's (?P<place>\d+)(?:st|nd|rd|th) card: "


def _witnessed(key: str) -> _DeviceWords:
    def words(m: re.Match[str], lang: Lang, _zone: tzinfo | None) -> str:
        where = tr("wit_where", lang, n=m["n"], row=tr(m["row"], lang).lower(),
                   place=m["place"])
        found = m.groupdict()
        seen = found.get("seen")
        return tr(key, lang, where=where, dealt=card_word(found.get("dealt") or ""),
                  seen=(card_word(seen) if seen and not seen.startswith("a card ")
                        else tr("wit_unnamed", lang)))
    return words


_DEVICE_TEXTS: Final[tuple[tuple[re.Pattern[str], _DeviceWords], ...]] = (
    (re.compile(r"cannot open it: "), lambda m, lang, zone: tr("dev_cannot_open", lang)),
    (re.compile(r"the (?:reader|camera) stopped: "), lambda m, lang, zone: tr("dev_stopped", lang)),
    (re.compile(r"lost (?P<count>\d+) message\(s\)"),
     lambda m, lang, zone: tr("dev_lost", lang, count=m["count"])),
    (re.compile(r"(?P<count>\d+) unreadable byte\(s\)"),
     lambda m, lang, zone: tr("dev_garbled", lang, count=m["count"])),
    (re.compile(r"the table was down from (?P<since>\S+) to (?P<until>\S+) \(UTC\)"),
     lambda m, lang, zone: tr("dev_down", lang, since=local_time(m["since"], zone),
                              until=local_time(m["until"], zone))),
    (re.compile(r"card (?P<was>\w+) on the layout changed into (?P<now>\w+)"),
     lambda m, lang, zone: tr("dev_layout_changed", lang, was=card_word(m["was"]),
                              now=card_word(m["now"]))),
    (re.compile(r"card (?P<card>\w+) was taken off the layout"),
     lambda m, lang, zone: tr("dev_layout_taken", lang, card=card_word(m["card"]))),
    (re.compile(_WHERE + r"the shoe read (?P<dealt>\w+), the baize shows none$"),
     _witnessed("wit_not_laid")),
    (re.compile(_WHERE + r"the shoe read (?P<dealt>\w+), the baize shows (?P<seen>\w+)$"),
     _witnessed("wit_switched")),
    (re.compile(_WHERE + r"(?P<seen>\w+) lies there, the shoe dealt it to another place: "),
     _witnessed("wit_misplaced")),
    (re.compile(_WHERE + r"(?P<seen>\w+) lies there, the shoe dealt it to another place "
                r"and put (?P<dealt>\w+) there: "), _witnessed("wit_misplaced_for")),
    (re.compile(_WHERE + r"(?P<seen>.+) lies on the baize, the shoe never read it$"),
     _witnessed("wit_never_read")),
    (re.compile(r"the camera has shown nothing for (?P<seconds>[\d.]+) s: "),
     lambda m, lang, zone: tr("wit_blind", lang, seconds=m["seconds"])),
    (re.compile(r"(?:the shoe's count|the shoe restarted its count|seq \d+ .*came behind"
                r"|the shoe's heartbeats)"),
     lambda m, lang, zone: tr("dev_count", lang)),
)


def device_text(source: str, text: str, lang: Lang, zone: tzinfo | None = None) -> str:
    """A device's alarm: the device named, what it said in the screen's language when it is
    one of the known alarms, else its own words quoted, paths left out (the raw row has
    them)."""
    for pattern, words in _DEVICE_TEXTS:
        if (found := pattern.match(text)) is not None:
            return tr("ev_device", lang, device=device_name(source, lang),
                      text=words(found, lang, zone))
    said = _PATH.sub("…", text)
    return tr("ev_device", lang, device=device_name(source, lang),
              text=tr("dev_says", lang, text=said))


def alarm_text(alarm: Alarm, lang: Lang, zone: tzinfo | None = None) -> str:
    """An engine's alarm in the screen's language."""
    source, _, said = alarm.message.partition(": ")
    match alarm.code:
        case "card_unread":
            what = (tr("al_unread_guess", lang, card=card_text(alarm.card)) if alarm.card
                    else tr("al_unread", lang))
            return tr("ev_device", lang, device=device_name(source, lang), text=what)
        case "device" | "baize_check":
            return device_text(source, said, lang, zone)
        case "seventh_copy":
            seen = re.search(r"seen (\d+) times", alarm.message)
            return tr("al_seventh", lang, card=card_text(alarm.card) if alarm.card else "?",
                      seen=seen[1] if seen else "?")
        case "talon_count":
            counts = re.search(r"holds (\d+) cards, not (\d+)", alarm.message)
            return tr("al_talon", lang, cards=counts[1] if counts else "?",
                      expected=counts[2] if counts else "?")
        case "second_cut_card":
            return tr("al_second_cut", lang)
    return tr("de_alarm", lang, text=tr("rf_other", lang))

