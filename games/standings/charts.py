"""Line charts drawn on the server: the table page's score chart (each seat's running total
after every counted hand), the player page's rating chart (their conservative rating after
each of their matches in a league), the stats page's wins chart (each player's matches
won so far in a game, after each of the circle's matches) and a hand review's chart (each
player's count of the cards in hand after each of their turns).

Pure functions over projections (``TableState.to_dict``, a rating history): the series, then
the geometry of an inline SVG that the template only prints. Drawn on the server, a chart
needs no JavaScript and the board's poll redraws it with the totals.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from scoring.variants import game_get

# The drawing's own units (its viewBox); CSS scales it to the card's width.
WIDTH, HEIGHT = 320, 160
LEFT, RIGHT, TOP, BOTTOM = 36, 8, 10, 22
# How far apart two figures on the y axis must be not to overprint (11-unit text).
LABEL_GAP = 12

# Marker shapes as path data centred on 0,0.
CIRCLE = "M-3.5,0a3.5,3.5 0 1,0 7,0a3.5,3.5 0 1,0 -7,0Z"
SQUARE = "M-3,-3H3V3H-3Z"
TRIANGLE = "M0,-4L4,3H-4Z"
DIAMOND = "M0,-4.5L4.5,0L0,4.5L-4.5,0Z"
TRIANGLE_DOWN = "M0,4L4,-3H-4Z"
CROSS = "M-4,-2.5L-2.5,-4L0,-1.5L2.5,-4L4,-2.5L1.5,0L4,2.5L2.5,4L0,1.5L-2.5,4L-4,2.5L-1.5,0Z"

# One style per seat, up to the six seats of a Ramino table, and two more for the players of
# a circle's stats. The colours (after Okabe and Ito, darkened to keep 3:1 against white)
# tell the lines apart; the dash and the marker still do in greyscale and for readers who do
# not see the colours. A chart of more lines than styles starts them again.
STYLES = (
    ("#0072b2", "", CIRCLE),
    ("#c45100", "6 3", SQUARE),
    ("#007a5a", "2 3", TRIANGLE),
    ("#a83c8c", "8 3 2 3", DIAMOND),
    ("#1b1b1b", "4 2", TRIANGLE_DOWN),
    ("#8a6a00", "1 2", CROSS),
    ("#5a54a4", "10 2", SQUARE),
    ("#00758f", "3 1 1 1", DIAMOND),
)
# The most steps a wins chart draws: a circle's 500 matches would be 500 points a line.
WINS_STEPS = 60


@dataclass(frozen=True, slots=True)
class Step:
    """Every line's value after one step: each seat's running total after a counted hand,
    or a player's rating after a match."""

    hand: int  # the hand's number in the history, the player's match number, or a turn's
    totals: tuple[float | None, ...]  # None: not known (a review's turn no one can weigh)


@dataclass(frozen=True, slots=True)
class Line:
    """One seat's line: its style, its polyline's points and where it ends."""

    seat: int
    name: str
    colour: str
    dash: str
    marker: str
    points: str
    total: float


@dataclass(frozen=True, slots=True)
class Label:
    """A figure written on an axis, at a point of the drawing."""

    x: str
    y: str
    text: str
    anchor: str = "middle"


@dataclass(frozen=True, slots=True)
class Chart:
    """What the template draws: lines, axis labels, the zero line and the series as rows."""

    lines: tuple[Line, ...]
    steps: tuple[Step, ...]
    y_labels: tuple[Label, ...]
    x_labels: tuple[Label, ...]
    zero_y: str
    bonuses_left_out: bool
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def totals_text(self) -> str:
        """Return each line's name and last value, as a screen reader says the chart."""
        return ", ".join(f"{line.name} {_num(line.total)}" for line in self.lines)

    @property
    def last_hand(self) -> int:
        """Return the number of the last counted hand, the one the lines end on."""
        return self.steps[-1].hand


def score_progression(state: dict[str, Any]) -> list[Step]:
    """Return every seat's running total after each counted hand, in the order played."""
    totals = (0,) * len(state["seats"])
    steps = []
    for hand in state["hands"]:
        # The result in force: None for a voided hand, the last amendment's for an amended one.
        result = hand["result"]
        if result is None:
            continue
        totals = tuple(t + p for t, p in zip(totals, result["points"], strict=True))
        steps.append(Step(hand=hand["number"], totals=totals))
    return steps


def _num(value: float) -> str:
    # Formatted here, not in the template: the Italian locale would write 90,5.
    return f"{round(value, 1):g}"


def _chart(
    names: Sequence[str],
    steps: Sequence[Step],
    *,
    figure: Callable[[Any], str],
    bonuses_left_out: bool = False,
    from_zero: bool = True,
) -> Chart:
    """Lay out one line per name through its values at ``steps``, each line starting from 0
    before the first step (or, ``from_zero`` False, at its first step); ``figure`` writes
    the values on the y axis. A value None is left out: the line goes from the one before
    it to the one after."""
    values = [total for step in steps for total in step.totals if total is not None]
    low, high = min(0, *values), max(0, *values)
    # All values 0 (walls only): draw them along the bottom as if the top were 1.
    top_value = high if high > low else 1
    width, height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    # Step n at x(n); from 0, x(0) is the start before the first step.
    first = 0 if from_zero else 1
    span = max(len(steps) - first, 1)

    def x(index: int) -> float:
        return LEFT + (index - first) * width / span

    def y(value: float) -> float:
        return TOP + (top_value - value) * height / (top_value - low)

    lines = []
    for seat, name in enumerate(names):
        colour, dash, marker = STYLES[seat % len(STYLES)]
        series = [*([0] if from_zero else []), *(step.totals[seat] for step in steps)]
        known = [(i, v) for i, v in enumerate(series, start=first) if v is not None]
        points = " ".join(f"{_num(x(i))},{_num(y(v))}" for i, v in known)
        lines.append(Line(seat, name, colour, dash, marker, points, known[-1][1] if known else 0))

    figures = [high, low] if high > low else [0]
    # 0 between them gets a label too, unless it would overprint one (Ramino at 1 and -61).
    if low < 0 < high and min(y(0) - y(high), y(low) - y(0)) >= LABEL_GAP:
        figures.append(0)
    y_labels = [Label(_num(LEFT - 4), _num(y(v)), figure(v), "end") for v in figures]
    # Only the first and the last steps are numbered: 20 numbers would not fit.
    x_labels = [Label(_num(x(1)), _num(HEIGHT - 6), f"#{steps[0].hand}")] if len(steps) > 1 else []
    # The last one ends at the right edge, so it does not run off the drawing (a lone step
    # drawn at the left edge starts there).
    last_anchor = "start" if x(len(steps)) == LEFT else "end"
    x_labels.append(Label(_num(x(len(steps))), _num(HEIGHT - 6), f"#{steps[-1].hand}", last_anchor))
    return Chart(
        lines=tuple(lines),
        steps=tuple(steps),
        y_labels=tuple(y_labels),
        x_labels=tuple(x_labels),
        zero_y=_num(y(0)),
        bonuses_left_out=bonuses_left_out,
    )


def score_chart(state: dict[str, Any]) -> Chart | None:
    """Lay out the score chart of a table's state; None before the first counted hand."""
    steps = score_progression(state)
    if not steps:
        return None
    match = state.get("match")
    names = list(state["seats"])
    teams = game_get(state["variant"]).teams(len(names))
    if any(len(team) > 1 for team in teams):
        # Partners share one total: one line a side, named as the scoreboard names it.
        names = [" & ".join(names[seat] for seat in team) for team in teams]
        steps = [
            replace(step, totals=tuple(step.totals[team[0]] for team in teams)) for step in steps
        ]
    # Every line starts from 0 before the first hand; totals are whole, written as they are.
    return _chart(names, steps, figure=str, bonuses_left_out=bool(match and match["items"]))


def rating_chart(points: Sequence[Mapping[str, Any]], name: str) -> Chart | None:
    """Lay out one player's rating chart in a league from the points of their rating history
    (``RatingPoint.to_dict``, in the order rated); None before their first match.

    The line starts from 0 before the first match: every player starts from the model's
    prior, whose conservative rating is mu 25 minus 3 sigma of 25/3, 0
    (``scoring.standings.ratings_over``). A step is the player's n-th match in the league.
    """
    if not points:
        return None
    steps = [
        Step(hand=number, totals=(point["conservative"],))
        for number, point in enumerate(points, start=1)
    ]
    return _chart([name], steps, figure=_rating_figure)


def wins_chart(names: Sequence[str], series: Sequence[Sequence[int]]) -> Chart | None:
    """Lay out the stats page's chart of one game: each player's matches won so far after
    each match (``scoring.book.GameBook.series``, its players named in order by ``names``);
    None before the first match.

    A long history is drawn at ``WINS_STEPS`` matches evenly spread, the last one always
    among them: the lines climb as they do, with fewer corners. A step is the match's number
    in the game's history.
    """
    if not series:
        return None
    count = len(series)
    picked = (
        range(1, count + 1)
        if count <= WINS_STEPS
        else sorted({count * i // WINS_STEPS for i in range(1, WINS_STEPS + 1)})
    )
    steps = [Step(hand=number, totals=tuple(series[number - 1])) for number in picked]
    return _chart(names, steps, figure=str)


def review_chart(names: Sequence[str], series: Sequence[Sequence[int | None]]) -> Chart | None:
    """Lay out a hand review's chart: each player's count of the cards in hand (the game's
    measure: Gin's deadwood, the points no meld would take) after each of their turns, as
    ``series`` lists them player by player (``PlayerSummary.chart``'s ``left``). Step n is
    every player's n-th turn; a turn not weighed (None: cards no one can know, or a Gin
    pass) is left out of its line. None while no turn of anyone's was weighed."""
    if not any(value is not None for line in series for value in line):
        return None
    rounds = max(len(line) for line in series)
    steps = [
        Step(hand=n, totals=tuple(line[n - 1] if n <= len(line) else None for line in series))
        for n in range(1, rounds + 1)
    ]
    return _chart(names, steps, figure=str, from_zero=False)


def _rating_figure(value: float) -> str:
    # One decimal, as the standings show ratings; a rating of -0.04 is written 0, not -0.
    return _num(value) if round(value, 1) else "0"
