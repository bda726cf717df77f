"""A club's tournament night: entrants, rounds paired by the engine, one table each."""
