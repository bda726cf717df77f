"""The table's read model (games/tables/board.py): the pages of a table read it and nothing
else, and a save's answer is drawn from the service's own result."""

import uuid

import pytest
from django.template.loader import get_template
from django.test import RequestFactory

from games.pages.forms.play import MoveForm
from games.pages.forms.tables import RANKS, SUITS
from games.tables import selectors, services
from games.tables.board import board_from_state
from games.tables.models import Table
from scoring import samples
from tests.payloads import GIN_TABLE_FORM

# Every partial of the table's page and of its room screen, as the views render them (the
# history's hand entries, the hand in play and the chart are drawn inside them).
PARTIALS = (
    "tables/table.html#board",
    "tables/table.html#chart",
    "tables/table.html#chart_news",
    "tables/table.html#history",
    "tables/table.html#history_news",
    "tables/table.html#poll",
    "tables/table.html#hand_form_slot",
    "tables/table.html#main",
    "tables/table.html#saved",
    "tables/tv.html#board",
    "tables/_play.html",
)

GIN, RUMMY40, RAMINO, KNOCK_RUMMY = (
    samples.played_of(key) for key in ("gin", "rummy40", "ramino", "knock_rummy")
)
SAMPLES = samples.played()


class UndefinedVariable(str):
    """A template's ``string_if_invalid`` that names every variable it could not find."""

    def __init__(self, value):
        super().__init__()
        self.missing: list[str] = []

    def __mod__(self, name):
        self.missing.append(str(name))
        return ""


@pytest.fixture
def strict_templates(settings):
    undefined = UndefinedVariable("%s")
    templates = [dict(engine) for engine in settings.TEMPLATES]
    templates[0] = {**templates[0], "OPTIONS": {**templates[0]["OPTIONS"]}}
    templates[0]["OPTIONS"]["string_if_invalid"] = undefined
    settings.TEMPLATES = templates
    return undefined


def _read_model_context(table: Table, role: str) -> dict:
    """Return the context a table's page gives its templates, forms left out: the read
    model, and what every page of the table shares (the request, its poll's timing)."""
    page = selectors.table_page(table=table)
    request = RequestFactory().get(f"/t/{table.id}/")
    return {
        "request": request,
        "table": table,
        "role": role,
        "board": page.board,
        "history": page.history,
        "moves": page.moves,
        "poll_ms": 2000,
        "watch": "token",
        "picker_suits": SUITS,
        "picker_ranks": RANKS,
        "table_rules": [],
    }


def _moves_so_far(sample, count: int) -> Table:
    table = services.table_create(
        variant=sample.variant, options=dict(sample.options), players=list(sample.players)
    )
    for event_type, payload in sample.events[:count]:
        table.refresh_from_db()
        services.event_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=table.head_seq,
            event_type=event_type,
            payload=payload,
        )
    table.refresh_from_db()
    return table


@pytest.mark.django_db
class TestEveryPartialReadsOnlyTheReadModel:
    @pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.variant)
    @pytest.mark.parametrize("moves", ["none", "half", "all"])
    @pytest.mark.parametrize("role", ["scorekeeper", "viewer"])
    def test_each_partial_finds_every_variable_it_reads(
        self, strict_templates, sample, moves, role
    ):
        count = {"none": 0, "half": len(sample.events) // 2, "all": len(sample.events)}[moves]
        table = _moves_so_far(sample, count)
        context = _read_model_context(table, role)
        for name in PARTIALS:
            strict_templates.missing.clear()
            html = get_template(name).render(context)
            assert strict_templates.missing == [], (name, strict_templates.missing)
            if name == "tables/table.html#board":
                assert f'data-head-seq="{table.head_seq}"' in html

    @pytest.mark.parametrize("sample", SAMPLES, ids=lambda s: s.variant)
    def test_the_hand_in_play_and_its_move_form_find_every_variable_at_every_move(
        self, strict_templates, sample
    ):
        # Every phase of every game: the deal, first turns, draws, melds, the hands shown.
        for count in range(len(sample.events) + 1):
            table = _moves_so_far(sample, count)
            context = _read_model_context(table, "scorekeeper")
            board = context["board"]
            context["move_form"] = MoveForm(
                head_seq=board.head_seq, seats=len(board.seats), play=board.play
            )
            for name in ("tables/_play.html", "tables/table.html#main"):
                strict_templates.missing.clear()
                get_template(name).render(context)
                assert strict_templates.missing == [], (count, name, strict_templates.missing)

    def test_the_hand_in_play_never_asks_which_game_it_is(self):
        # What a game allows is on the board (PlayBoard), from the game's rules object.
        source = get_template("tables/_play.html").template.source
        assert "variant" not in source
        assert "variant" not in get_template("tables/_turn.html").template.source

    def test_a_half_played_hand_shows_its_turn_and_melds_from_the_read_model(self):
        rummy40 = next(s for s in SAMPLES if s.variant == "rummy40")
        table = _moves_so_far(rummy40, 3)  # the deal, Bruno's draw and his opening melds
        board = selectors.table_page(table=table).board
        assert board.playing and board.play.turn == 1 and board.play.turn_name == "Bruno"
        # Rummy40's melds are their owner's (R40-ADD): grouped under Bruno's name.
        assert [group.owner for group in board.play.meld_groups] == ["Bruno"]
        assert [seat.dealt for seat in board.play.seats] == [True, False]


@pytest.mark.django_db
class TestTheBoardFromTheState:
    def test_a_finished_gin_match_names_its_winner_and_marks_the_seat(self):
        table = services.table_create(
            variant="gin", options={"preset": "big_gin", "target": 100}, players=["Anna", "Bruno"]
        )
        # GIN-SCORE-GIN, Big Gin preset: gin scores the defender's 80 deadwood + 25 = 105,
        # past the target of 100 in one hand.
        services.hand_append(
            table_id=table.id,
            event_id=uuid.uuid4(),
            expected_seq=table.head_seq,
            payload={
                "mode": "quick",
                "knocker": 1,
                "ending": "gin",
                "knocker_count": 0,
                "defender_count": 80,
            },
        )
        table.refresh_from_db()
        board = selectors.table_board(table=table)
        assert board.finished and board.winner_names == ("Bruno",)
        assert [seat.won for seat in board.seats] == [False, True]
        assert not any(seat.deals for seat in board.seats)  # no next hand to deal
        assert board.to_confirm == board.seats  # nobody has confirmed yet

    def test_a_decided_table_asks_no_one_to_confirm(self):
        table = services.table_create(
            variant="gin", options={"preset": "big_gin", "target": 100}, players=["Anna", "Bruno"]
        )
        state = selectors.table_state(table=table)
        decided = {
            **state,
            "finished": True,
            "decision": {"kind": "lock", "reason": "time", "points": []},
        }
        board = board_from_state(decided)
        assert board.decision["kind"] == "lock" and board.to_confirm == ()

    def test_rummy40_is_read_lower_is_better(self):
        table = services.table_create(
            variant="rummy40", options={"target": 100}, players=["Anna", "Bruno"]
        )
        assert selectors.table_board(table=table).lower_is_better
        gin = services.table_create(variant="gin", options={}, players=["Anna", "Bruno"])
        assert not selectors.table_board(table=gin).lower_is_better


@pytest.mark.django_db
class TestASaveIsDrawnFromTheServiceResult:
    def test_the_htmx_answer_reads_no_state_after_the_append(self, client, monkeypatch):
        response = client.post(
            "/",
            GIN_TABLE_FORM,
        )
        table = Table.objects.get(pk=response.url.split("/")[2])
        page = client.get(f"/t/{table.id}/").content.decode()
        event_id = page.split('name="event_id" value="')[1].split('"')[0]
        reads = []
        for name in ("table_state", "table_entry"):
            original = getattr(selectors, name)
            monkeypatch.setattr(
                selectors,
                name,
                lambda original=original, name=name, **kw: reads.append(name) or original(**kw),
            )
        answer = client.post(
            f"/t/{table.id}/hands/",
            {
                "event_id": event_id,
                "expected_seq": str(table.head_seq),
                "shown_seq": str(table.head_seq),
                "mode": "quick",
                "knocker": "0",
                "ending": "knock",
                "knocker_count": "7",
                "defender_count": "20",
            },
            HTTP_HX_REQUEST="true",
        )
        assert answer.status_code == 200
        # GIN-SCORE-KNOCK: Anna knocks with 7 against 20 and scores 13.
        assert 'data-testid="total-0">13<' in answer.content.decode()
        # One read: the form's seats and options, from the engine's state, before the
        # append; none after it.
        assert reads == ["table_entry"]


def _play_after(sample, count: int):
    """Return the hand in play of ``sample``'s table after its first ``count`` events."""
    return selectors.table_board(table=_moves_so_far(sample, count)).play


@pytest.mark.django_db
class TestWhatTheHandInPlayAllowsComesFromTheGamesRules:
    def test_gin_offers_the_face_up_card_then_a_discard_or_a_knock(self):
        first = _play_after(GIN, 1)  # dealt: GIN-FIRST
        assert first.moves_offered == ("draw_discard", "pass")
        assert not first.drawing and not first.picking
        assert (first.discard_pile, first.jokers, first.owned_melds) == (True, False, False)
        assert first.knock_shows_cards and not first.show_by_points
        assert first.opening_rule is None and first.hand_size == 10
        drawn = _play_after(GIN, 4)  # both passed, Bruno drew from the stock
        assert drawn.moves_offered == ("discard", "knock") and drawn.picking
        # Anna took Bruno's KD from the pile: the one card of hers the log names.
        took = _play_after(GIN, 6)
        assert took.turn == 0 and took.known_to_move == ("KD",)
        assert _play_after(GIN, len(GIN.events) - 1).moves_offered == ("show",)

    def test_rummy40_adds_to_its_owners_melds_and_cites_its_opening(self):
        play = _play_after(RUMMY40, 3)  # Bruno drew and opened: QH KH AH, 5C 5D 5S
        assert play.moves_offered == ("discard", "meld", "add")  # no joker on the table
        assert play.owned_melds and play.jokers and play.opening_rule == "R40-OPEN"
        assert play.knock_shows_cards is False and play.show_by_points

    def test_ramino_offers_the_swap_of_a_table_joker_and_the_knock_claim(self):
        play = _play_after(RAMINO, 3)  # Anna opened with Q K and a joker
        assert play.moves_offered == ("discard", "meld", "add", "swap")
        assert play.opening_rule == "RAM-OPEN" and not play.owned_melds
        # Anna discarded: Bruno draws, or Carla knocks for the discard (RAM-OPT-KNOCKCLAIM).
        after = _play_after(RAMINO, 4)
        assert after.moves_offered == ("draw_stock", "draw_discard", "claim")
        assert after.drawing and not after.picking

    def test_knock_rummy_draws_until_it_melds_then_rearranges_ends_or_knocks(self):
        play = _play_after(KNOCK_RUMMY, 2)  # Bruno drew once (KR-TURN: up to three)
        assert play.moves_offered == ("draw_stock", "meld", "pass", "knock")
        assert not play.discard_pile and play.drawing and play.picking
        melded = _play_after(KNOCK_RUMMY, 4)  # and melded 5H 6H 7H: no more draws
        assert melded.moves_offered == ("meld", "rearrange", "pass", "knock")

    def test_canasta_offers_only_the_stock_while_a_red_three_is_owed_its_card_can_red3_1(self):
        canasta = samples.played_of("canasta")
        laid = _play_after(canasta, 6)  # East drew and laid the 3H face up
        assert laid.moves_offered == ("draw_stock",) and laid.drawing and not laid.picking
        replaced = _play_after(canasta, 7)  # and drew its replacement from the stock
        assert replaced.moves_offered == ("discard", "meld", "add")

    def test_a_deal_turns_a_card_up_only_where_there_is_a_discard_pile(self):
        for sample in SAMPLES:
            board = selectors.table_board(table=_moves_so_far(sample, 0))
            assert board.upcard_at_deal == (sample.variant != "knock_rummy")
