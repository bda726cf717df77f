"""Pure-Python rules engine for rummy-family games; never imports Django."""
