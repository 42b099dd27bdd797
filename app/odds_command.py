"""`croupier odds [--decks N] [--json]`: the exact odds of `croupier.odds`, as JSON or a
table."""

from __future__ import annotations

import argparse
import json

from app.argparsing import CommandParser
from croupier.cards import ALL_CARDS
from croupier.errors import RulebookError
from croupier.odds import COMPARED, MAX_DECKS, MIN_DECKS, TableOdds, rulebook_decks, table_odds
from croupier.rulebook import DEFAULT, load_rulebook


def _decks(text: str) -> int:
    try:
        decks = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of decks: {text!r}") from None
    if not MIN_DECKS <= decks <= MAX_DECKS:
        raise argparse.ArgumentTypeError(
            f"{decks} decks: a shoe holds {MIN_DECKS} to {MAX_DECKS} decks")
    return decks


def main(command: str, args: list[str]) -> int:
    """`croupier odds [--decks N] [--rules NAME] [--json]`: the exact odds, as JSON or as a
    table."""
    parser = CommandParser(prog=f"croupier {command}",
                     description="Exact odds of Trente et Quarante from a full shoe.")
    parser.add_argument("--decks", type=_decks, default=None,
                        help=f"decks in the shoe, {MIN_DECKS} to {MAX_DECKS} "
                             "(default: the rulebook's copies of each card)")
    parser.add_argument("--rules", default=DEFAULT,
                        help=f"rulebook name or .toml path (default {DEFAULT}): its prison "
                             "and insurance")
    parser.add_argument("--json", action="store_true", help="one JSON object on one line")
    options = parser.parse_args(args)
    try:
        rulebook = load_rulebook(options.rules)
    except RulebookError as err:
        parser.error(str(err))
    decks = rulebook_decks(rulebook) if options.decks is None else options.decks
    odds = table_odds(decks, rulebook)
    if options.json:
        print(json.dumps(odds.as_json()))
    else:
        print("\n".join(_describe(odds)))
    return 0


def _describe(odds: TableOdds) -> list[str]:
    cards = odds.decks * len(ALL_CARDS)
    lines = [f"Trente et Quarante, {odds.decks} decks ({cards} cards), exact odds from a full shoe",
             "", "One row      point  probability"]
    lines += [f"{point:>18}  {float(p):>10.4%}" for point, p in odds.row.items()]
    lines += [
        "",
        f"Coup         refait (31-31)  {float(odds.refait):>8.4%}",
        f"             après           {float(odds.apres):>8.4%}",
        f"             noir wins       {float(odds.noir_wins):>8.4%}",
        f"             rouge wins      {float(odds.rouge_wins):>8.4%}",
        "",
        f"House edge   {odds.rules + ' prison':<15} {float(odds.house_edge):>8.4%}",
    ]
    if odds.rules != COMPARED.stem:
        lines.append(f"             {COMPARED.stem + ' prison':<15} "
                     f"{float(odds.house_edge_france):>8.4%}")
    lines.append(f"             shared at once  {float(odds.house_edge_shared):>8.4%}")
    insured = odds.house_edge_insured
    label = "insured" if insured is None else f"insured ({float(insured * 100):g} %)"
    lines.append(f"             {label:<15} "
                 + ("none sold" if insured is None else f"{float(insured):>8.4%}"))
    return lines
