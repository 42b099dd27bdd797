"""The refusals (the chef's desk's and the table's) and the devices' and the engine's alarms
in French, English and Italian; ui.i18n merges them with the other words."""

from typing import Final

# key: (French, English, Italian)
REFUSAL_WORDS: Final[dict[str, tuple[str, str, str]]] = {
    # -- the chef's refusals ---------------------------------------------------------
    "refusal_role": ("le tailleur ne peut pas corriger", "the dealer cannot make corrections",
                     "il tailleur non può correggere"),
    "refusal_no_pin": ("aucun code de chef n'est défini pour cette table",
                       "no chef's PIN is set for this table",
                       "nessun PIN del capo tavolo è impostato per questo tavolo"),
    "refusal_setup_only": ("le premier code se définit à l'installation de la table",
                           "the first PIN is set only at the table's set-up",
                           "il primo PIN si imposta solo all'installazione del tavolo"),
    "refusal_wrong_pin": ("code erroné", "wrong PIN", "PIN errato"),
    "refusal_locked": ("corrections bloquées après des codes erronés",
                       "corrections locked after wrong PINs",
                       "correzioni bloccate dopo PIN errati"),
    "refusal_no_reason": ("une correction exige une raison : remplir « Pourquoi »",
                          "a correction needs a reason: fill in \"Why\"",
                          "una correzione richiede un motivo: compilare «Perché»"),
    "locked_for": ("bloqué encore {seconds} s", "locked for {seconds} s more",
                   "bloccato ancora {seconds} s"),
    "pick_a_card": ("Choisir la carte juste", "Pick the right card", "Scegliere la carta giusta"),
    "pin_changed": ("code changé", "PIN changed", "PIN cambiato"),
    "open_alarms": ("Alarmes en cours", "Open alarms", "Allarmi in corso"),
    "resolved": ("résolue", "resolved", "risolto"),
    "resolved_at": ("résolue ligne {seq}", "resolved at row {seq}", "risolto alla riga {seq}"),
    # -- the table's refusals, from the engine's reasons (ui.refusals.refusal_text) -------
    "rf_bets_closed": ("les jeux sont fermés : ils ouvrent à « faites vos jeux », après la "
                       "brûlée, et ferment à « rien ne va plus »",
                       "bets are closed: they open with \"place your bets\", after the burn, "
                       "and close with \"no more bets\"",
                       "le puntate sono chiuse: si aprono con «fate il vostro gioco», dopo le "
                       "carte bruciate, e si chiudono con «rien ne va plus»"),
    "rf_bets_closed_now": ("les jeux sont fermés (rien ne va plus)",
                           "bets are closed (no more bets)",
                           "le puntate sono chiuse (rien ne va plus)"),
    "rf_no_seat": ("la place {seat} n'existe pas : les places comptent depuis 1",
                   "seat {seat} does not exist: seats count from 1",
                   "il posto {seat} non esiste: i posti si contano da 1"),
    "rf_zero": ("une mise de {amount} doit être plus que 0",
                "a stake of {amount} must be more than 0",
                "una puntata di {amount} deve essere più di 0"),
    "rf_no_insurance": ("ces règles ne vendent pas d'assurance", "these rules sell no insurance",
                        "queste regole non vendono assicurazione"),
    "rf_insured_mismatch": ("la mise de la place {seat} sur {chance} est assurée : "
                            "y ajouter de même", "seat {seat}'s stake on {chance} is insured: "
                            "add to it the same way", "la puntata del posto {seat} su {chance} "
                            "è assicurata: aggiungere allo stesso modo"),
    "rf_uninsured_mismatch": ("la mise de la place {seat} sur {chance} n'est pas assurée : "
                              "y ajouter de même", "seat {seat}'s stake on {chance} is not "
                              "insured: add to it the same way", "la puntata del posto {seat} "
                              "su {chance} non è assicurata: aggiungere allo stesso modo"),
    "rf_below_min": ("mise de {amount} sous le minimum {limit}",
                     "a stake of {amount} is below the minimum {limit}",
                     "puntata di {amount} sotto il minimo {limit}"),
    "rf_above_max": ("mise de {amount} au-dessus du maximum {limit}",
                     "a stake of {amount} is above the maximum {limit}",
                     "puntata di {amount} sopra il massimo {limit}"),
    "rf_at_max": ("la place {seat} a déjà le maximum {limit} sur {chance}",
                  "seat {seat} already has the maximum {limit} on {chance}",
                  "il posto {seat} ha già il massimo {limit} su {chance}"),
    "rf_excess": ("la mise de la place {seat} sur {chance} dépasse le maximum {limit} : "
                  "{plays} joue, l'excédent de {excess} est rendu",
                  "seat {seat}'s stake on {chance} is above the maximum {limit}: {plays} "
                  "plays, the excess of {excess} goes back",
                  "la puntata del posto {seat} su {chance} supera il massimo {limit}: gioca "
                  "{plays}, l'eccedenza di {excess} viene restituita"),
    "rf_insure_min": ("l'assurance demande une mise d'au moins {amount}",
                      "insurance needs a stake of at least {amount}",
                      "l'assicurazione richiede una puntata di almeno {amount}"),
    "rf_insure_units": ("l'assurance couvre des unités entières de {unit}, pas {amount}",
                        "insurance covers whole units of {unit}, not {amount}",
                        "l'assicurazione copre unità intere di {unit}, non {amount}"),
    "rf_withdraw_prison": ("la mise de la place {seat} sur {chance} est en prison : elle ne "
                           "se retire pas", "seat {seat}'s stake on {chance} is in prison: it "
                           "cannot be withdrawn", "la puntata del posto {seat} su {chance} è in "
                           "prigione: non si può ritirare"),
    "rf_no_stake": ("la place {seat} n'a pas de mise sur {chance}",
                    "seat {seat} has no stake on {chance}",
                    "il posto {seat} non ha puntate su {chance}"),
    "rf_no_choice": ("aucun choix de prison n'est ouvert : ils suivent un refait, jusqu'à la "
                     "première carte du coup suivant", "no prison choice is open: choices "
                     "follow a refait, until the next coup's first card", "nessuna scelta di "
                     "prigione è aperta: seguono un refait, fino alla prima carta del colpo "
                     "seguente"),
    "rf_choice_late": ("rien ne va plus : les choix de prison se font avant",
                       "no more bets: prison choices are made before it",
                       "rien ne va plus: le scelte di prigione si fanno prima"),
    "rf_no_prisoner": ("la place {seat} n'a pas de prisonnier sur {chance} en attente d'un choix",
                       "seat {seat} has no prisoner on {chance} awaiting a choice",
                       "il posto {seat} non ha prigionieri su {chance} in attesa di scelta"),
    "rf_no_move": ("ces règles ne permettent pas de déplacer un prisonnier",
                   "these rules do not allow moving a prisoner",
                   "queste regole non permettono di spostare un prigioniero"),
    "rf_move_where": ("un prisonnier se déplace vers une autre chance : laquelle ?",
                      "a prisoner moves to another chance: which one?",
                      "un prigioniero si sposta su un'altra chance: quale?"),
    "rf_session_ended": ("la séance est terminée", "the session has ended",
                         "la seduta è terminata"),
    "rf_setup": ("l'installation de la table est refusée : rien n'est accepté avant une "
                 "installation valable", "the table's set-up is refused: nothing is accepted "
                 "until a valid set-up", "l'installazione del tavolo è rifiutata: non si "
                 "accetta nulla prima di un'installazione valida"),
    "rf_settings_late": ("les réglages de la table changent seulement jeux ouverts ou entre "
                         "deux sabots", "the table's settings change only while bets are open "
                         "or between shoes", "le impostazioni del tavolo cambiano solo a "
                         "puntate aperte o tra due sabot"),
    "rf_already_closed": ("les jeux sont déjà fermés", "bets are already closed",
                          "le puntate sono già chiuse"),
    "rf_check_baize": ("vérifier d'abord les rangées sur le tapis",
                       "check the rows on the baize first",
                       "verificare prima le file sul tappeto"),
    "rf_reopen": ("les jeux se rouvrent seulement après « rien ne va plus » et avant la "
                  "première carte du coup", "bets can be reopened only after \"no more bets\" "
                  "and before the coup's first card", "le puntate si riaprono solo dopo «rien "
                  "ne va plus» e prima della prima carta del colpo"),
    "rf_no_check": ("aucune alarme ne demande de vérifier le tapis",
                    "no alarm asks for the baize to be checked",
                    "nessun allarme chiede di verificare il tappeto"),
    "rf_same_card": ("la dernière carte est déjà {card}", "the last card already is {card}",
                     "l'ultima carta è già {card}"),
    "rf_no_card": ("aucune carte à corriger", "no card to correct", "nessuna carta da correggere"),
    "rf_only_last": ("seule la dernière carte se corrige, avant qu'on en tienne compte",
                     "only the last card can be changed, before anyone acts on it",
                     "solo l'ultima carta si può correggere, prima che se ne tenga conto"),
    "rf_card_closed": ("carte {card} après la fermeture du sabot : commencer un nouveau sabot",
                       "card {card} after the shoe was closed: start a new shoe first",
                       "carta {card} dopo la chiusura del sabot: iniziare un nuovo sabot"),
    "rf_cut_closed": ("carte rouge après la fermeture du sabot : commencer un nouveau sabot",
                      "cut card after the shoe was closed: start a new shoe first",
                      "carta rossa dopo la chiusura del sabot: iniziare un nuovo sabot"),
    "rf_burn_over": ("la brûlée est terminée", "the burn is over", "le carte bruciate sono finite"),
    "rf_no_void_card": ("aucune carte à annuler : la dernière est déjà réglée",
                        "no card to void: the last card is already settled",
                        "nessuna carta da annullare: l'ultima è già regolata"),
    "rf_no_coup": ("aucun coup en cours : seul le coup sur la table s'annule",
                   "no coup is being dealt: only the coup on the table can be voided",
                   "nessun colpo in corso: solo il colpo sul tavolo si annulla"),
    "rf_shoe_closed": ("le sabot est déjà fermé", "the shoe is already closed",
                       "il sabot è già chiuso"),
    "rf_other": ("refusé par la table (détail dans la ligne brute)",
                 "refused by the table (details in the raw row)",
                 "rifiutato dal tavolo (dettagli nella riga grezza)"),
    # -- devices, named by what they are, never by their path ---------------------------
    "dev_shoe": ("Le sabot", "The shoe", "Lo sabot"),
    "dev_camera": ("La caméra", "The camera", "La telecamera"),
    "dev_table": ("La table", "The table", "Il tavolo"),
    "dev_cannot_open": ("impossible de l'ouvrir", "cannot be opened", "impossibile aprirlo"),
    "dev_stopped": ("la lecture s'est arrêtée", "reading stopped", "la lettura si è fermata"),
    "dev_lost": ("{count} message(s) perdu(s)", "{count} message(s) lost",
                 "{count} messaggio/i perso/i"),
    "dev_garbled": ("{count} octet(s) illisible(s) : un message a pu se perdre",
                    "{count} unreadable byte(s): a message may be lost",
                    "{count} byte illeggibile/i: un messaggio può essere perso"),
    "dev_count": ("sa numérotation a sauté : des messages ont pu se perdre",
                  "its count jumped: messages may be lost",
                  "la sua numerazione è saltata: dei messaggi possono essere persi"),
    "dev_down": ("la table était arrêtée de {since} à {until} : des cartes ont pu être "
                 "distribuées ; vérifier les rangées sur le tapis",
                 "the table was down from {since} to {until}: cards may have been dealt; "
                 "check the rows on the baize",
                 "il tavolo era fermo dalle {since} alle {until}: delle carte possono essere "
                 "state distribuite; verificare le file sul tappeto"),
    "dev_layout_changed": ("la carte {was} posée est devenue {now}",
                           "card {was} on the layout turned into {now}",
                           "la carta {was} sul tappeto è diventata {now}"),
    "dev_layout_taken": ("la carte {card} a été retirée du tapis",
                         "card {card} was taken off the layout",
                         "la carta {card} è stata tolta dal tappeto"),
    "dev_witness": ("La caméra témoin", "The witness camera", "La telecamera testimone"),
    "wit_where": ("coup {n}, rangée {row}, carte n° {place}", "coup {n}, {row} row, card {place}",
                  "colpo {n}, fila {row}, carta n. {place}"),
    "wit_switched": ("{where} : le sabot a lu {dealt}, le tapis montre {seen}",
                     "{where}: the shoe read {dealt}, the baize shows {seen}",
                     "{where}: il sabot ha letto {dealt}, il tappeto mostra {seen}"),
    "wit_misplaced": ("{where} : {seen} est posée là, le sabot l'a donnée à une autre place "
                      "— carte mal posée",
                      "{where}: {seen} lies there, the shoe dealt it to another place: a card "
                      "laid in the wrong place",
                      "{where}: lì c'è {seen}, il sabot l'ha data a un altro posto: carta "
                      "posata nel posto sbagliato"),
    "wit_misplaced_for": ("{where} : {seen} est posée là, le sabot l'a donnée à une autre "
                          "place et y a mis {dealt} — carte mal posée",
                          "{where}: {seen} lies there, the shoe dealt it to another place and "
                          "put {dealt} there: a card laid in the wrong place",
                          "{where}: lì c'è {seen}, il sabot l'ha data a un altro posto e ci ha "
                          "messo {dealt}: carta posata nel posto sbagliato"),
    "wit_never_read": ("{where} : {seen} est sur le tapis, le sabot ne l'a jamais lue",
                       "{where}: {seen} lies on the baize, the shoe never read it",
                       "{where}: {seen} è sul tappeto, il sabot non l'ha mai letta"),
    "wit_unnamed": ("une carte que la caméra ne sait pas nommer",
                    "a card the camera cannot name", "una carta che la telecamera non sa "
                    "riconoscere"),
    "wit_not_laid": ("{where} : le sabot a lu {dealt}, le tapis n'en montre aucune",
                     "{where}: the shoe read {dealt}, the baize shows none",
                     "{where}: il sabot ha letto {dealt}, il tappeto non ne mostra nessuna"),
    "wit_blind": ("rien vu depuis {seconds} s : les cartes sont jouées sans témoin",
                  "nothing seen for {seconds} s: the cards are played unwitnessed",
                  "niente visto da {seconds} s: le carte sono giocate senza testimone"),
    "dev_says": ("signale « {text} »", "reports \"{text}\"", "segnala «{text}»"),
    "al_seventh": ("{card} vue {seen} fois : carte étrangère ou en double",
                   "{card} seen {seen} times: a foreign or duplicated card",
                   "{card} vista {seen} volte: carta estranea o doppia"),
    "al_talon": ("le talon compte {cards} cartes, pas {expected}",
                 "the talon holds {cards} cards, not {expected}",
                 "il tallone ha {cards} carte, non {expected}"),
    "al_second_cut": ("une seconde carte rouge dans le même sabot",
                      "a second cut card in the same shoe",
                      "una seconda carta rossa nello stesso sabot"),
    "al_unread": ("carte non lue : à confirmer", "card not read: confirm it",
                  "carta non letta: da confermare"),
    "al_unread_guess": ("carte non lue (lecture probable {card}) : à confirmer",
                        "card not read (best guess {card}): confirm it",
                        "carta non letta (lettura probabile {card}): da confermare"),
}
