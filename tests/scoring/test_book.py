"""The players' book over a circle's finished matches (scoring/book.py).

The histories are match summaries written by hand (what scoring/standings.py reads from the
logs: tests/scoring/test_standings*.py check that part); every expected number is worked by
hand in the comments beside it.
"""

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.book import all_games, book, game_book, meetings_over
from scoring.standings import LOST, WON, MatchSummary, SeatSummary, counts_of, figures_of, places_of
from tests.hypothesis_profiles import examples


def match(variant, match_id, players, totals, *, hands=2, hands_won=None, figures=None):
    """Return a finished match: seats in order, places and winners from the totals (the
    lowest total wins at Rummy40), points for and against each seat's total and the best
    other one, counts at zero, figures as given (None: all zero; (): an old record)."""
    lower = variant == "rummy40"
    places = places_of(totals, lower_is_better=lower)
    seats = []
    for seat, (player, total) in enumerate(zip(players, totals, strict=True)):
        others = [t for i, t in enumerate(totals) if i != seat]
        given_figures = None if figures is None else figures[seat]
        seats.append(
            SeatSummary(
                seat=seat,
                player=player,
                place=places[seat],
                outcome=WON if places[seat] == 1 else LOST,
                hands_won=hands_won[seat] if hands_won else 0,
                points_for=F(total),
                points_against=F(sum(others), len(others)),
                counts=tuple((name, 0) for name in counts_of(variant)),
                figures=(
                    tuple((name, 0) for name in figures_of(variant))
                    if given_figures is None
                    else tuple(given_figures)
                ),
            )
        )
    return MatchSummary(
        variant=variant, seats=tuple(seats), hands=hands, totals=tuple(totals), match_id=match_id
    )


def gin_figures(undercuts_taken, caught, deadwood):
    return (("undercuts_taken", undercuts_taken), ("caught", caught), ("deadwood_caught", deadwood))


# Six Gin matches among Ada, Bea and Cal, in the order they finished. The higher total wins.
#   M1 Ada 100 - Bea 40   Ada wins by 60; 4 hands, Ada won 3, Bea 1
#   M2 Bea 110 - Cal 20   Bea wins by 90
#   M3 Ada 30  - Bea 105  Bea wins by 75
#   M4 Ada 120 - Cal 0    Ada wins by 120
#   M5 Cal 100 - Ada 95   Cal wins by 5
#   M6 Bea 101 - Ada 60   Bea wins by 41; stored before figures existed (none)
# Every other match: 2 hands, each won by one seat.
GIN_HISTORY = (
    match(
        "gin",
        "M1",
        ["ada", "bea"],
        [100, 40],
        hands=4,
        hands_won=[3, 1],
        figures=[gin_figures(1, 1, 6), gin_figures(0, 3, 45)],
    ),
    match("gin", "M2", ["bea", "cal"], [110, 20], hands_won=[2, 0]),
    match(
        "gin",
        "M3",
        ["ada", "bea"],
        [30, 105],
        hands_won=[1, 1],
        figures=[gin_figures(0, 1, 20), gin_figures(1, 1, 3)],
    ),
    match("gin", "M4", ["ada", "cal"], [120, 0], hands_won=[2, 0]),
    match("gin", "M5", ["cal", "ada"], [100, 95], hands_won=[1, 1]),
    match("gin", "M6", ["bea", "ada"], [101, 60], hands_won=[2, 0], figures=[(), ()]),
)


class TestAGinHistory:
    def test_lines_are_ordered_by_record(self):
        # Won-lost: Bea 3-1 (M2 M3 M6; M1), Ada 2-3 (M1 M4; M3 M5 M6), Cal 1-2 (M5; M2 M4).
        gin = game_book("gin", GIN_HISTORY)
        assert gin.matches == 6
        assert [(line.player, line.played, line.won, line.lost) for line in gin.lines] == [
            ("bea", 4, 3, 1),
            ("ada", 5, 2, 3),
            ("cal", 3, 1, 2),
        ]
        assert gin.line("bea").win_rate == F(3, 4)

    def test_hands_and_points_are_summed(self):
        ada = game_book("gin", GIN_HISTORY).line("ada")
        # Hands: 4 (M1) + 2 + 2 + 2 + 2 = 12; won 3 + 1 + 2 + 1 + 0 = 7.
        assert (ada.hands_played, ada.hands_won) == (12, 7)
        # For: 100 + 30 + 120 + 95 + 60 = 405; against: 40 + 105 + 0 + 100 + 101 = 346.
        assert (ada.points_for, ada.points_against) == (405, 346)

    def test_figures_are_summed_over_the_matches_that_carry_them(self):
        gin = game_book("gin", GIN_HISTORY)
        ada, bea, cal = gin.line("ada"), gin.line("bea"), gin.line("cal")
        # Ada: M1 (1, 1, 6) + M3 (0, 1, 20); M4 and M5 carry zeros; M6 nothing: 4 of 5.
        assert dict(ada.figures) == {"undercuts_taken": 1, "caught": 2, "deadwood_caught": 26}
        assert ada.figured == 4
        # Bea: M1 (0, 3, 45) + M3 (1, 1, 3), M2 zeros, M6 nothing: 3 of 4.
        assert dict(bea.figures) == {"undercuts_taken": 1, "caught": 4, "deadwood_caught": 48}
        assert bea.figured == 3
        assert cal.figured == cal.played == 3

    def test_streaks_follow_each_players_own_matches(self):
        gin = game_book("gin", GIN_HISTORY)
        # Ada W L W L L: longest 1, none now. Bea L W W W: 3, and 3 now. Cal L L W: 1, 1.
        assert [(line.player, line.longest_streak, line.streak) for line in gin.lines] == [
            ("bea", 3, 3),
            ("ada", 1, 0),
            ("cal", 1, 1),
        ]

    def test_the_best_match_is_the_widest_win(self):
        gin = game_book("gin", GIN_HISTORY)
        # Ada: M4 by 120 (M1 by 60). Bea: M2 by 90 (M3 75, M6 41). Cal: M5 by 5.
        best = {line.player: line.best for line in gin.lines}
        assert (best["ada"].match_id, best["ada"].number, best["ada"].margin) == ("M4", 4, 120)
        assert best["ada"].opponents == ("cal",)
        assert (best["bea"].match_id, best["bea"].margin) == ("M2", 90)
        assert (best["cal"].match_id, best["cal"].margin) == ("M5", 5)

    def test_head_to_head_from_both_sides(self):
        gin = game_book("gin", GIN_HISTORY)
        ada_bea = gin.meetings_of("ada")["bea"]
        # Ada v Bea: M1 Ada +60, M3 Bea (Ada -75), M6 Bea (Ada -41): 1-2, margin -56 over 3.
        assert (ada_bea.matches, ada_bea.won, ada_bea.lost, ada_bea.drawn) == (3, 1, 2, 0)
        assert (ada_bea.margin, ada_bea.average_margin) == (-56, F(-56, 3))
        assert (ada_bea.last_met, ada_bea.last_lost) == (6, 6)
        bea_ada = gin.meetings_of("bea")["ada"]
        assert (bea_ada.won, bea_ada.lost, bea_ada.margin, bea_ada.last_lost) == (2, 1, 56, 1)
        # Ada v Cal: M4 Ada +120, M5 Cal (Ada -5): 1-1, +115. Bea v Cal: M2 Bea +90.
        ada_cal = gin.meetings_of("ada")["cal"]
        assert (ada_cal.matches, ada_cal.won, ada_cal.lost, ada_cal.margin) == (2, 1, 1, 115)
        bea_cal = gin.meetings_of("bea")["cal"]
        assert (bea_cal.matches, bea_cal.won, bea_cal.margin) == (1, 1, 90)
        assert len(gin.meetings) == 6

    def test_rival_and_nemesis(self):
        gin = game_book("gin", GIN_HISTORY)
        found = {line.player: (line.rival, line.nemesis) for line in gin.lines}
        # Ada met Bea 3 times, Cal twice; lost to Bea twice, Cal once: Bea both.
        # Bea met Ada 3 times, Cal once; lost only to Ada (M1).
        # Cal met Ada twice, Bea once. Cal lost once to each (M4, M2): tied; Cal beat Ada once
        # (M5) and Bea never, so Bea beat Cal with the better record: Bea.
        assert found == {"ada": ("bea", "bea"), "bea": ("ada", "ada"), "cal": ("ada", "bea")}

    def test_the_series_counts_wins_after_each_match(self):
        gin = game_book("gin", GIN_HISTORY)
        # In the lines' order, Bea, Ada, Cal: M1 Ada, M2 Bea, M3 Bea, M4 Ada, M5 Cal, M6 Bea.
        assert gin.players == ("bea", "ada", "cal")
        assert gin.series == ((0, 1, 0), (1, 1, 0), (2, 1, 0), (2, 2, 0), (2, 2, 1), (3, 2, 1))


class TestTablesOfFour:
    def test_places_make_duels_and_penalties_count_the_other_way(self):
        # Rummy40, four players, lower is better: Ada 30, Bea 110, Cal 60, Dan 60.
        # Places: Ada 1, Cal 2, Dan 2, Bea 4. Ada wins by 30 over the best other (60).
        history = [match("rummy40", "M1", ["ada", "bea", "cal", "dan"], [30, 110, 60, 60])]
        r40 = game_book("rummy40", history)
        assert r40.line("ada").best.margin == 30
        assert r40.line("ada").best.opponents == ("bea", "cal", "dan")
        meetings = r40.meetings_of("cal")
        # Cal and Dan level: a draw, margin 0. Cal above Bea: won, margin 110 - 60 = +50.
        assert (meetings["dan"].won, meetings["dan"].lost, meetings["dan"].drawn) == (0, 0, 1)
        assert meetings["dan"].margin == 0
        assert (meetings["bea"].won, meetings["bea"].margin) == (1, 50)
        assert (meetings["ada"].lost, meetings["ada"].margin) == (1, -30)
        # Six duels, each seen from both sides.
        assert len(r40.meetings) == 12

    def test_a_shared_win_is_a_win_for_each_by_nothing(self):
        # Ramino: Ada and Bea level on 12, Cal -24: both win, the best margin 0.
        r = game_book("ramino", [match("ramino", "M1", ["ada", "bea", "cal"], [12, 12, -24])])
        assert [(line.player, line.won) for line in r.lines] == [
            ("ada", 1),
            ("bea", 1),
            ("cal", 0),
        ]
        assert r.line("ada").best.margin == r.line("bea").best.margin == 0


class TestTies:
    def test_a_rival_tie_goes_to_the_opponent_met_last_then_the_smaller_key(self):
        # Dan met Eve (M1) and Fay (M2) once each: Fay, met last. In M3 Gil meets Hal and
        # Ida at one table of three, once each: Hal, the smaller key.
        history = [
            match("knock_rummy", "M1", ["dan", "eve"], [150, 20]),
            match("knock_rummy", "M2", ["fay", "dan"], [160, 30]),
            match("knock_rummy", "M3", ["ida", "gil", "hal"], [150, 10, 20]),
        ]
        kr = game_book("knock_rummy", history)
        assert kr.line("dan").rival == "fay"
        assert kr.line("gil").rival == "hal"

    def test_a_nemesis_tie_goes_to_the_one_beaten_least_then_the_latest_to_win(self):
        # Dan loses to Eve (M1) and to Fay (M2), beats neither: tied on 1-0 each; Fay beat
        # him last. Eve never lost: no nemesis.
        history = [
            match("knock_rummy", "M1", ["dan", "eve"], [20, 150]),
            match("knock_rummy", "M2", ["fay", "dan"], [160, 30]),
        ]
        kr = game_book("knock_rummy", history)
        assert kr.line("dan").nemesis == "fay"
        assert kr.line("eve").nemesis is None
        assert kr.line("dan").best is None


class TestBookOfEveryGame:
    def test_each_game_gets_its_own_book_and_practice_is_left_out(self):
        practice = match("ramino", "P1", ["ada", "bea"], [10, -10])
        practice = MatchSummary(
            variant=practice.variant,
            seats=practice.seats,
            hands=practice.hands,
            totals=practice.totals,
            match_id="P1",
            practice=True,
        )
        books = book([*GIN_HISTORY[:2], practice, match("ramino", "R1", ["ada", "bea"], [5, -5])])
        assert [(b.variant, b.matches) for b in books] == [("gin", 2), ("ramino", 1)]

    def test_nothing_finished_is_an_empty_book(self):
        assert book([]) == ()


# Random histories: any number of players, tables of 2 to 4, any totals.
PLAYERS = st.integers(min_value=1, max_value=6)


@st.composite
def histories(draw):
    variant = draw(st.sampled_from(["gin", "rummy40", "ramino", "knock_rummy"]))
    matches = []
    for number in range(draw(st.integers(min_value=0, max_value=12))):
        players = draw(st.lists(PLAYERS, min_size=2, max_size=4, unique=True))
        totals = draw(
            st.lists(
                st.integers(min_value=-50, max_value=200),
                min_size=len(players),
                max_size=len(players),
            )
        )
        matches.append(match(variant, f"M{number}", players, totals))
    return variant, matches


class TestProperties:
    @settings(max_examples=examples(150), deadline=None)
    @given(histories())
    def test_the_book_agrees_with_itself(self, history):
        variant, matches = history
        found = game_book(variant, matches)
        assert found.matches == len(matches) == len(found.series)
        # Every win is someone's: one a winner named by each match.
        assert sum(line.won for line in found.lines) == sum(len(m.winners) for m in matches)
        assert sum(line.played for line in found.lines) == sum(len(m.seats) for m in matches)
        if found.series:
            assert found.series[-1] == tuple(line.won for line in found.lines)
            for before, after in zip(found.series, found.series[1:], strict=False):
                assert all(a >= b for a, b in zip(after, before, strict=True))
        for line in found.lines:
            assert line.streak <= line.longest_streak <= line.won <= line.played
            assert (line.best is None) == (line.won == 0)
            assert line.best is None or line.best.margin >= 0
            mine = found.meetings_of(line.player)
            assert (line.rival is None) == (not mine)
            assert line.nemesis is None or mine[line.nemesis].lost >= 1
            assert line.nemesis is not None or all(m.lost == 0 for m in mine.values())
        for meeting in found.meetings:
            back = found.meetings_of(meeting.opponent)[meeting.player]
            assert (back.matches, back.won, back.lost) == (
                meeting.matches,
                meeting.lost,
                meeting.won,
            )
            assert back.margin == -meeting.margin

    @settings(max_examples=examples(100), deadline=None)
    @given(histories(), st.randoms(use_true_random=False))
    def test_totals_do_not_depend_on_the_order_of_the_matches(self, history, rng):
        variant, matches = history
        shuffled = list(matches)
        rng.shuffle(shuffled)

        def totals(found):
            return (
                {
                    line.player: (line.played, line.won, line.points_for, line.hands_won)
                    for line in found.lines
                },
                {
                    (m.player, m.opponent): (m.matches, m.won, m.lost, m.margin)
                    for m in found.meetings
                },
            )

        assert totals(game_book(variant, shuffled)) == totals(game_book(variant, matches))

    @settings(max_examples=examples(100), deadline=None)
    @given(histories(), st.integers(min_value=0, max_value=12))
    def test_a_longer_history_only_adds_to_the_series(self, history, cut):
        variant, matches = history
        whole, first = game_book(variant, matches), game_book(variant, matches[:cut])
        order = {player: i for i, player in enumerate(whole.players)}
        for step, earlier in zip(whole.series, first.series, strict=False):
            assert tuple(step[order[player]] for player in first.players) == earlier


class TestTheRecord:
    # Knock Rummy, the higher total wins:
    #   K1 Ada 150 - Bea 150 - Cal 20   Ada and Bea share the win: a draw for each, Cal lost
    #   K2 Bea 160 - Cal 40             Bea wins alone
    #   K3 Cal 130 - Ada 30             Cal wins alone
    HISTORY = [
        match("knock_rummy", "K1", ["ada", "bea", "cal"], [150, 150, 20]),
        match("knock_rummy", "K2", ["bea", "cal"], [160, 40]),
        match("knock_rummy", "K3", ["cal", "ada"], [130, 30]),
    ]

    def test_a_shared_win_is_a_draw_and_the_record_adds_up(self):
        kr = game_book("knock_rummy", self.HISTORY)
        record = {
            line.player: (line.played, line.won_alone, line.drawn, line.lost) for line in kr.lines
        }
        # Ada: K1 drawn, K3 lost. Bea: K1 drawn, K2 won. Cal: K1 and K2 lost, K3 won.
        assert record == {"ada": (2, 0, 1, 1), "bea": (2, 1, 1, 0), "cal": (3, 1, 0, 2)}

    def test_the_average_a_match_and_the_last_match_played(self):
        kr = game_book("knock_rummy", self.HISTORY)
        # Points for are the final totals here: Ada (150 + 30) / 2 = 90; Bea (150 + 160) / 2
        # = 155; Cal (20 + 40 + 130) / 3 = 190 / 3.
        assert kr.line("ada").average_for == 90
        assert kr.line("bea").average_for == 155
        assert kr.line("cal").average_for == F(190, 3)
        # Bea last sat in K2 (match 2), the others in K3.
        assert [kr.line(p).last_played for p in ("ada", "bea", "cal")] == [3, 2, 3]

    def test_every_game_adds_up_the_records_and_meetings(self):
        # Gin beside the Knock Rummy: G1 Ada 100 - Cal 40 (Ada), G2 Dan 120 - Ada 10 (Dan).
        gin = [
            match("gin", "G1", ["ada", "cal"], [100, 40]),
            match("gin", "G2", ["dan", "ada"], [120, 10]),
        ]
        books = book([*self.HISTORY, *gin])
        records = {
            r.player: (r.games, r.played, r.won_alone, r.drawn, r.lost) for r in all_games(books)
        }
        # Ada: Gin 2 (won G1, lost G2), Knock Rummy 2 (drew K1, lost K3): 4, 1-1-2.
        assert records["ada"] == (("gin", "knock_rummy"), 4, 1, 1, 2)
        # Bea 1-1-0 (K2, K1); Cal: Gin lost, Knock Rummy 1 won of 3: 4, 1-0-3; Dan 1-0-0.
        assert records["bea"] == (("knock_rummy",), 2, 1, 1, 0)
        assert records["cal"] == (("gin", "knock_rummy"), 4, 1, 0, 3)
        assert records["dan"] == (("gin",), 1, 1, 0, 0)
        # Order: wins (a shared one too) first: Bea 2, Ada 2 (more lost), Cal 1 (3 lost) and
        # Dan 1 (none lost): Bea, Ada, Dan, Cal.
        assert [r.player for r in all_games(books)] == ["bea", "ada", "dan", "cal"]
        # Ada met Cal three times (K1 above her, K3 below; G1 above her), Bea once (K1,
        # level), Dan once (G2, below).
        met = {m.opponent: (m.matches, m.won, m.lost, m.drawn) for m in meetings_over(books, "ada")}
        assert met == {"cal": (3, 2, 1, 0), "bea": (1, 0, 0, 1), "dan": (1, 0, 1, 0)}
        assert [m.opponent for m in meetings_over(books, "ada")] == ["cal", "bea", "dan"]

    def test_a_nemesis_tie_left_after_every_step_goes_to_the_smaller_key(self):
        # Gil loses to Hal and Ida at one table (M1): one defeat each, beat neither, both
        # last beat him in match 1: Hal, the smaller key.
        kr = game_book(
            "knock_rummy", [match("knock_rummy", "M1", ["ida", "gil", "hal"], [90, 5, 80])]
        )
        assert kr.line("gil").nemesis == "hal"


class TestPartners:
    """A game played by sides (Burraco's pairs, partners across): partners are no opponents,
    their side's win is one win, and each player's record beside each partner is kept."""

    # M1: Ada & Cal (seats 0, 2) 2100 against Bea & Dan (1, 3) 1500: Ada & Cal win by 600.
    # M2: Ada & Bea (0, 2) 1800 against Cal & Dan (1, 3) 2010: Cal & Dan win by 210.
    def matches(self):
        return [
            match("burraco", "M1", ["Ada", "Bea", "Cal", "Dan"], [2100, 1500, 2100, 1500]),
            match("burraco", "M2", ["Ada", "Cal", "Bea", "Dan"], [1800, 2010, 1800, 2010]),
        ]

    def test_a_sides_win_is_a_win_not_a_draw(self):
        ada = game_book("burraco", self.matches()).line("Ada")
        # Ada won M1 with Cal (their side alone) and lost M2: 2 played, 1 won, none drawn.
        assert (ada.played, ada.won, ada.drawn, ada.lost) == (2, 1, 0, 1)
        # Her best match is M1, by 2100 - 1500 = 600 over the other side.
        assert (ada.best.match_id, ada.best.margin, ada.best.opponents) == (
            "M1",
            600,
            ("Bea", "Dan"),
        )

    def test_partners_meet_only_as_opponents(self):
        meetings = game_book("burraco", self.matches()).meetings_of("Ada")
        # Bea: an opponent in M1 (Ada won), her partner in M2. Cal: her partner in M1, an
        # opponent in M2 (Cal won). Dan: an opponent in both, one won each.
        assert {name: (m.matches, m.won, m.lost) for name, m in meetings.items()} == {
            "Bea": (1, 1, 0),
            "Cal": (1, 0, 1),
            "Dan": (2, 1, 1),
        }

    def test_each_players_record_beside_each_partner(self):
        partners = game_book("burraco", self.matches()).partners_of("Ada")
        # With Cal in M1 (won), with Bea in M2 (lost).
        assert {name: (p.matches, p.won, p.lost) for name, p in partners.items()} == {
            "Cal": (1, 1, 0),
            "Bea": (1, 0, 1),
        }

    def test_a_game_of_single_seats_has_no_partnerships(self):
        gin = match("gin", "G1", ["Ada", "Bea"], [100, 40])
        assert game_book("gin", [gin]).partnerships == ()
