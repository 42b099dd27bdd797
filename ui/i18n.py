"""The screens' words in French, English and Italian, and the switch between them.

The calls themselves are not translated here: they are the engine's (French, with its English
beneath), because the French words are what the regulations make the tailleur say.
"""

from __future__ import annotations

import enum
from typing import Final

from croupier.decisions import Action, Chance
from ui.journal_words import JOURNAL_WORDS
from ui.refusal_words import REFUSAL_WORDS


class Lang(enum.Enum):
    FR = "fr"
    EN = "en"
    IT = "it"


# key: (French, English, Italian)
_TEXT: Final[dict[str, tuple[str, str, str]]] = {
    "noir": ("Noir", "Black", "Nero"),
    "rouge": ("Rouge", "Red", "Rosso"),
    "couleur": ("Couleur", "Colour", "Colore"),
    "inverse": ("Inverse", "Inverse", "Inverso"),
    "dealer": ("Tailleur", "Dealer", "Tailleur"),
    "audit": ("Chef de table", "Table chief", "Capo tavolo"),
    "replay": ("Relecture", "Replay", "Rilettura"),
    "coup": ("Coup", "Coup", "Colpo"),
    "shoe": ("Sabot", "Shoe", "Sabot"),
    "burn": ("Brûlées", "Burned", "Bruciate"),
    "dealt": ("Distribuées", "Dealt", "Distribuite"),
    "left": ("Restantes", "Left", "Rimaste"),
    "face_up": ("Coups à carte retournée", "Face-up coups", "Colpi con carta scoperta"),
    "cut_passed": ("Carte rouge sortie", "Red card out", "Carta rossa uscita"),
    "cut_waiting": ("Carte rouge à venir", "Red card to come", "Carta rossa da venire"),
    "shoe_closed": ("Sabot fermé", "Shoe closed", "Sabot chiuso"),
    "bets_open": ("Faites vos jeux", "Place your bets", "Fate il vostro gioco"),
    "burning": ("Messieurs, les cinq cartes", "Burning the first five cards",
                "Messieurs, les cinq cartes"),
    "bets_closed": ("Rien ne va plus", "No more bets", "Rien ne va plus"),
    "rien_ne_va_plus": ("Rien ne va plus", "No more bets", "Rien ne va plus"),
    "baize_checked": ("✔ Rangées vérifiées sur le tapis", "✔ Rows checked on the baize",
                      "✔ File verificate sul tappeto"),
    "void_card": ("Annuler la carte", "Void the card", "Annulla la carta"),
    "talon_counted": ("Talon compté", "Talon counted", "Tallone contato"),
    "new_shoe": ("Nouveau sabot", "New shoe", "Nuovo sabot"),
    "confirm": ("Confirmer", "Confirm", "Conferma"),
    "enter_card": ("Saisir la carte", "Enter the card", "Inserisci la carta"),
    "unread": ("Carte non lue", "Card not read", "Carta non letta"),
    "guess": ("lecture probable", "best guess", "lettura probabile"),
    "seat": ("Place", "Seat", "Posto"),
    "amount": ("Mise", "Stake", "Puntata"),
    "insured": ("Assurée", "Insured", "Assicurata"),
    "place_stake": ("Miser", "Place", "Punta"),
    "withdraw": ("Retirer", "Withdraw", "Ritira"),
    "clear": ("Effacer", "Clear", "Cancella"),
    "stakes": ("Mises", "Stakes", "Puntate"),
    "no_stakes": ("Aucune mise", "No stakes", "Nessuna puntata"),
    "payout": ("Paiements", "Payout", "Pagamenti"),
    "collect_first": ("Ramasser", "Collect", "Incassare"),
    "then_pay": ("puis payer", "then pay", "poi pagare"),
    "nothing_to_pay": ("Rien à payer", "Nothing to pay", "Niente da pagare"),
    "prison": ("Prison", "Prison", "Prigione"),
    "prison_choices": ("Choix après le refait", "Choices after the refait",
                       "Scelte dopo il refait"),
    "share": ("Partager", "Share", "Dividere"),
    "keep": ("Laisser en prison", "Leave in prison", "Lasciare in prigione"),
    "move_to": ("Déplacer vers", "Move to", "Sposta su"),
    "alarms": ("Alarmes", "Alarms", "Allarmi"),
    "no_alarm": ("Aucune alarme", "No alarm", "Nessun allarme"),
    "refused": ("Refusé", "Refused", "Rifiutato"),
    "journal": ("Journal", "Journal", "Giornale"),
    "search": ("Rechercher", "Search", "Cerca"),
    "marque": ("Marque", "Marque", "Marque"),
    "statistics": ("Statistiques", "Statistics", "Statistiche"),
    "corrections": ("Corrections", "Corrections", "Correzioni"),
    "pin": ("Code", "PIN", "PIN"),
    "set_pin": ("Définir le code", "Set the PIN", "Imposta il PIN"),
    "pin_at_setup": ("Le code du chef se définit à l'installation de la table",
                     "The chef's PIN is set at the table's set-up",
                     "Il PIN del capotavola si imposta all'installazione del tavolo"),
    "who": ("Qui", "Who", "Chi"),
    "why": ("Pourquoi", "Why", "Perché"),
    "correct_card": ("Corriger la dernière carte", "Correct the last card",
                     "Correggi l'ultima carta"),
    "void_coup": ("Annuler le coup", "Void the coup", "Annulla il colpo"),
    "end_shoe": ("Terminer le sabot", "End the shoe", "Chiudi il sabot"),
    "reopen_bets": ("Rouvrir les jeux", "Reopen bets", "Riapri le puntate"),
    "verify": ("Vérifier", "Verify", "Verifica"),
    "refresh": ("Actualiser", "Refresh", "Aggiorna"),
    "intact": ("Journal intact", "Journal intact", "Giornale integro"),
    "broken": ("Journal altéré", "Journal tampered", "Giornale alterato"),
    "rows": ("lignes", "rows", "righe"),
    "open_file": ("Ouvrir…", "Open…", "Apri…"),
    "previous": ("◀ Précédent", "◀ Previous", "◀ Precedente"),
    "next": ("Suivant ▶", "Next ▶", "Successivo ▶"),
    "apres": ("Après", "Tie", "Après"),
    "refait": ("Refait", "Refait", "Refait"),
    "void": ("Coup annulé", "Coup annulled", "Colpo annullato"),
    "waiting": ("En attente du sabot", "Waiting for the shoe", "In attesa del sabot"),
    "session_ended": ("Séance terminée", "Session ended", "Seduta terminata"),
    "level": ("niveau", "level", "livello"),
    "done": ("Fait", "Done", "Fatto"),
    "#": ("N°", "No.", "N."),
    "time": ("Heure", "Time", "Ora"),
    "kind": ("Genre", "Kind", "Tipo"),
    "record": ("Enregistrement", "Record", "Registrazione"),
    "scope": ("Portée", "Scope", "Ambito"),
    "test": ("Test", "Test", "Test"),
    "observed": ("Observé", "Observed", "Osservato"),
    "expected": ("Attendu", "Expected", "Atteso"),
    "p": ("p", "p", "p"),
    "need_seat_chance": ("Choisir la place et la chance", "Choose the seat and the chance",
                         "Scegliere il posto e la chance"),
    "need_amount": ("Saisir le montant", "Enter the amount", "Inserire l'importo"),
    "collected": ("Ramassé", "Collected", "Incassato"),
    "paid_out": ("Payé", "Paid", "Pagato"),
    "returned": ("Rendu", "Given back", "Restituito"),
    "lines_left": ("Lignes à faire", "Lines left", "Righe da fare"),
    "limits": ("Limites", "Limits", "Limiti"),
    "free": ("Libres", "Free", "Libere"),
    "premiums": ("Primes", "Premiums", "Premi"),
    "repeat_stakes": ("Répéter les mises", "Repeat last stakes", "Ripetere le puntate"),
    "answered": ("répondu", "answered", "risposto"),
    "cancel": ("Annuler", "Cancel", "Annullare"),
    "card_voided": ("Carte annulée", "Card voided", "Carta annullata"),
    "move": ("Déplacer", "Move", "Spostare"),
}

ACTION_KEYS: Final = {
    Action.COLLECT: ("Ramasser", "Collect", "Incassare"),
    Action.PAY: ("Payer", "Pay", "Pagare"),
    Action.PRISON: ("En prison", "To prison", "In prigione"),
    Action.FREE: ("Libérer", "Free", "Liberare"),
    Action.SHARE: ("Partager", "Share", "Dividere"),
    Action.MOVE: ("Déplacer", "Move", "Spostare"),
    Action.RETURN: ("Rendre", "Give back", "Restituire"),
    Action.STAND: ("Reste", "Stands", "Resta"),
    Action.PREMIUM: ("Prime d'assurance", "Insurance premium", "Premio assicurativo"),
}

_ALL: Final = {**_TEXT, **JOURNAL_WORDS, **REFUSAL_WORDS}

LANGS: Final = tuple(Lang)  # the order of the words of `words` and of `ACTION_KEYS`
_INDEX: Final = {lang: i for i, lang in enumerate(LANGS)}


def tr(key: str, lang: Lang, **values: object) -> str:
    """The label `key` in `lang`, its `{named}` places filled from `values`; an unknown key
    shows as itself, never as an error."""
    words = _ALL.get(key)
    text = words[_INDEX[lang]] if words else key
    return text.format(**values) if values else text


def words(key: str) -> tuple[str, str, str]:
    """The label `key` in every language (French, English, Italian)."""
    return _ALL[key]


def chance_name(chance: Chance, lang: Lang) -> str:
    return tr(chance.value, lang)


def action_name(action: Action, lang: Lang) -> str:
    return ACTION_KEYS[action][_INDEX[lang]]


def keys() -> frozenset[str]:
    return frozenset(_ALL)
