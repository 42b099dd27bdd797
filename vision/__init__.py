"""Reading the cards on the layout from a camera: find them on the baize, straighten them,
and name them against a card design, or decline.

`python -m vision classify|read` is the command line (docs/FORMATS.md (vision)); `drivers.camera`
turns a camera's frames into shoe events with it. Only `croupier.cards` is used from the
engine: this package names cards, it does not decide coups.
"""
