"""The table's read model (games/tables/board.py): the pages of a table read it and nothing
else, and a save's answer is drawn from the service's own result."""

import uuid

import pytest
from django.template.loader import get_template
from django.test import RequestFactory

from games.pages.forms.tables import RANKS, SUITS
from games.tables import selectors, services
from games.tables.board import board_from_state
from games.tables.models import Table
from scoring.samples import SAMPLES

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
    view = selectors.table_view(table=table)
    request = RequestFactory().get(f"/t/{table.id}/")
    return {
        "request": request,
        "table": table,
        "role": role,
        "board": view.board,
        "history": view.history,
        "moves": view.moves,
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

    def test_a_half_played_hand_shows_its_turn_and_melds_from_the_read_model(self):
        rummy40 = next(s for s in SAMPLES if s.variant == "rummy40")
        table = _moves_so_far(rummy40, 3)  # the deal, Bruno's draw and his opening melds
        board = selectors.table_view(table=table).board
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
            {
                "variant": "gin",
                "players": "2",
                "player_1": "Anna",
                "player_2": "Bruno",
                "preset": "big_gin",
                "target": "100",
            },
        )
        table = Table.objects.get(pk=response.url.split("/")[2])
        page = client.get(f"/t/{table.id}/").content.decode()
        event_id = page.split('name="event_id" value="')[1].split('"')[0]
        reads = []
        original = selectors.table_state
        monkeypatch.setattr(
            selectors, "table_state", lambda **kw: reads.append(1) or original(**kw)
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
        # One read: the form's seats and options, before the append; none after it.
        assert len(reads) == 1
