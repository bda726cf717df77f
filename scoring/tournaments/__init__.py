"""A club's tournament night: pairings, table seating, brackets, victory points, standings.

Pure Python like the rest of the engine: the caller passes the players (in seeding order),
the results of the rounds played so far and a seed; the same input always gives the same
round. Players are the caller's stable keys (ints or strings, not mixed, so that they sort).

- ``swiss``: "Danese" pairing by standing for two-player games, no rematch while one can
  be avoided, the bye to the lowest player who has not had one.
- ``round_robin``: every player meets every other once (the circle method); a withdrawn
  player's scheduled opponent scores a bye (a walkover).
- ``seating``: tables of 3 to 6 for Ramino, Knock Rummy and Rummy40, table-mates not met
  before wherever possible, and then each table of about the same strength by VP.
- ``bracket``: single elimination with seeding; the top seeds get the byes.
- ``results``: a table's result turned into victory points by the director's scale.
- ``ranking``: the night's standings with tie-breaks (victory points, Buchholz, head to
  head, points difference).
- Burraco pairs nights: ``victory_points`` (the federation's VP tables, as data a director
  may edit), ``mitchell`` and ``danese`` (the two movements) and ``pairs_night`` (a plan of
  rounds, the next round from the results so far, the standings); no seed: entry order
  breaks the last ties.

The rules they follow are written for players in docs/rules.md, "Club nights" (NIGHT-*).
"""
