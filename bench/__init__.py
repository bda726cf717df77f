"""Speed figures of the rules engine beside their references (`make bench`, not run by tests).

Each hand is timed as the best of 3 runs of the call, with the garbage collector off during
the call; gc.collect() runs before every set of hands. Hands are drawn from seeded random
generators, so a run is repeatable; times vary with the machine.
"""
