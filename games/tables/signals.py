"""What the tables part tells the parts above it without importing them: they connect their
receivers in GamesConfig.ready() (games/standings/receivers.py)."""

from django.dispatch import Signal

# Sent inside an append's transaction when a counted league table's match ends, or a match
# that was over is corrected (a hand voided or amended): its season's standings move.
# Arguments: ``table``. Moves within a match still in play send nothing.
league_match_changed = Signal()

# Sent inside an append's transaction whenever a settled table moves: its match ends or is
# decided, a player confirms its result, or a settled table is corrected. Arguments:
# ``table``. A tournament night's standings follow it.
table_settled_changed = Signal()

# Sent inside an append's transaction whenever a table's head moves (every append).
# Arguments: ``table``. A tournament night's screens follow it (their version of the night
# counts its tables' heads).
table_head_moved = Signal()

# Sent by the nightly audit task once every table is checked. Arguments: ``report`` (the
# audit's counts and failures). A receiver returns a dict of what it did, which the task adds
# to its report (standings queue again the seasons left behind their tables' logs); under
# ``findings``, sentences of what it found wrong (and repaired), which the task mails.
tables_audited = Signal()
