"""Every word a user sees is in the chosen language: every key in every language, and the
screens rendered in Italian hold no English."""

from __future__ import annotations

import re
import string

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QLabel,
    QLineEdit,
    QListWidget,
    QTabWidget,
    QTextEdit,
    QWidget,
)

from croupier.calls import coup_calls
from croupier.decisions import Action, Chance, Result
from croupier.rulebook import load_rulebook
from ui import i18n
from ui.i18n import ACTION_KEYS, Lang, keys, tr, words
from ui.journal_words import JOURNAL_WORDS
from ui.refusal_words import REFUSAL_WORDS
from ui.render import _build
from ui.scenario import demo_scenario

# Words the same in English and Italian: the game's French terms, names, signs.
SAME_IN_ENGLISH: frozenset[str] = frozenset({
    "nothing_happened", "marque", "refait", "test", "p", "pin", "kind_auth", "ev_device",
    "inverse", "dev_says", "de_card", "gloss_refait",
})


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("key", sorted(keys()))
def test_every_key_has_words_in_every_language(key: str) -> None:
    french, english, italian = words(key)
    assert french
    assert english
    assert italian
    # the same places to fill in each language, and filling them works
    assert _fields(french) == _fields(english) == _fields(italian), key
    values = dict.fromkeys(_fields(french), "X")
    for lang in Lang:
        assert "{" not in tr(key, lang, **values)
    if key not in SAME_IN_ENGLISH and key.startswith(("rf_", "de_", "ev_", "dev_", "al_",
                                                      "refusal_", "vr_", "what_")):
        assert italian != english, f"{key} is English in Italian"


def test_no_key_is_defined_twice() -> None:
    """The journal's and the refusals' words live in dicts of their own: a key in two
    would hide one."""
    assert len(i18n._TEXT) + len(JOURNAL_WORDS) + len(REFUSAL_WORDS) == len(keys())


def test_every_action_has_words_in_every_language() -> None:
    assert set(ACTION_KEYS) == set(Action)
    for names in ACTION_KEYS.values():
        assert all(names)
        assert names[1] != names[2]


def _english_fragments() -> set[str]:
    """The English of each key whose Italian differs, cut at its places to fill: what must
    never show in Italian. Short fragments ("Seat") are too common to be evidence."""
    found: set[str] = set()
    for key in keys():
        _, english, italian = words(key)
        if english == italian or key in SAME_IN_ENGLISH:
            continue
        for literal, *_ in string.Formatter().parse(english):
            piece = literal.strip(" :—,.()«»\"")
            if len(piece) >= 8:
                found.add(piece)
    # and the engine's English beneath the calls: "red and colour", "black and inverse"…
    for result in (Result.ROUGE, Result.NOIR):
        for couleur in (Chance.COULEUR, Chance.INVERSE):
            found.add(coup_calls(33, 35, result, couleur)[1][-1])
    return found


def _shown_texts(root: QWidget) -> list[str]:
    texts: list[str] = []
    for widget in [root, *root.findChildren(QWidget)]:
        if not widget.isVisibleTo(root) and widget is not root:
            continue
        if isinstance(widget, QLabel | QAbstractButton):
            texts.append(widget.text())
        if isinstance(widget, QLineEdit):
            texts += [widget.text(), widget.placeholderText()]
        if isinstance(widget, QTextEdit):
            texts += [widget.toPlainText(), widget.placeholderText()]
        if isinstance(widget, QTabWidget):
            texts += [widget.tabText(i) for i in range(widget.count())]
        if isinstance(widget, QListWidget):
            texts += [widget.item(i).text() for i in range(widget.count())]
        elif isinstance(widget, QAbstractItemView) and (model := widget.model()) is not None:
            for column in range(model.columnCount()):
                texts.append(str(model.headerData(column, Qt.Orientation.Horizontal)))
                texts += [str(model.index(row, column).data())
                          for row in range(model.rowCount())]
    return [text for text in texts if text]


@pytest.mark.parametrize("view", ["dealer", "audit", "replay"])
def test_the_screens_in_italian_show_no_english(qtbot, view: str) -> None:  # type: ignore[no-untyped-def]
    widget = _build(view, demo_scenario(), load_rulebook("venezia"), 3, Lang.IT)
    qtbot.addWidget(widget)
    widget.resize(1280, 800)
    widget.show()
    shown = "\n".join(_shown_texts(widget))
    assert shown
    english = sorted(piece for piece in _english_fragments() if piece in shown)
    assert english == []
    assert not re.search(r"/dev/|socket://|COM\d", shown)
