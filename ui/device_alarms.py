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


def device_name(source: str, lang: Lang) -> str:
    """What a source is, never its path: a serial port, a socket or a pty is the shoe."""
    key = {CAMERA_SOURCE: "dev_camera", TABLE_SOURCE: "dev_table"}.get(source, "dev_shoe")
    return tr(key, lang)


_PATH = re.compile(r"(socket://\S+|rfc2217://\S+|/dev/\S+|/\S+/\S+|\bCOM\d+\b)")

_DeviceWords = Callable[[re.Match[str], Lang, tzinfo | None], str]
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

