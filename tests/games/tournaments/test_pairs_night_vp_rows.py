"""A pairs night's own VP table typed as rows of bands (from / to → the winner's and the
loser's VP), filled from the federation's tables, refused beside the row at fault."""

import re

import pytest

from games.tournaments.models import Tournament
from scoring.tournaments.victory_points import FIBUR_3_HANDS
from tests.games.tournaments.pairs_helpers import (
    PAIRS_NIGHT_FORM,
    burraco_league,
    pairs_night,
    play_match,
    tables_of,
)

# Pairs nights are Burraco nights: Burraco in the registry for every test here.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("burraco_game")]


def _rows(bands=FIBUR_3_HANDS.bands, blank=2, **changes) -> dict:
    """Return the rows as the form sends them: the bands (by default the federation's 3-hand
    table), ``changes`` {"band_n": {field: value}} made to band n (1 is the first), then
    ``blank`` empty rows."""
    rows = [
        {"low": b.low, "high": "" if b.high is None else b.high, "winner": b.winner}
        | {"loser": b.loser}
        for b in bands
    ]
    for key, fields in changes.items():
        rows[int(key.removeprefix("band_")) - 1].update(fields)
    rows += [dict.fromkeys(("low", "high", "winner", "loser"), "")] * blank
    data = {"band-TOTAL_FORMS": len(rows), "band-INITIAL_FORMS": 0}
    for index, row in enumerate(rows):
        data.update({f"band-{index}-{name}": value for name, value in row.items()})
    return data


def _create(world, director, language="en", **form):
    data = {**PAIRS_NIGHT_FORM, "league": burraco_league(world).pk, "vp_table": "own"}
    data.update(own_name="Our club's 3 hands", **form)
    url = f"/clubs/{world.club.slug}/n/new/pairs/"
    return director.post(url, data, HTTP_ACCEPT_LANGUAGE=language)


def _row_errors(page: str) -> dict[str, str]:
    """Return each refused row's error, by the number of the row just above it."""
    found = re.findall(
        r'<tr data-testid="vp-row"[^>]*>\s*<th scope="row">(\d+)</th>(?:(?!<tr).)*</tr>\s*'
        r'<tr class="row-error" data-testid="vp-row-error"><td colspan="5">(.*?)</td></tr>',
        page,
        re.S,
    )
    return {row: re.sub(r"<[^>]+>", "", cell).replace("&#x27;", "'").strip() for row, cell in found}


class TestTheRowsOffered:
    def test_the_form_shows_the_3_hand_table_as_rows_and_room_for_two_more(self, world, director):
        burraco_league(world)
        page = director.get(f"/clubs/{world.club.slug}/n/new/pairs/").content.decode()
        # 11 bands and 2 blank rows; the last band open: "To" empty.
        assert page.count('data-testid="vp-row"') == 13
        assert 'name="band-0-low" value="0"' in page and 'name="band-0-winner" value="10"' in page
        assert 'name="band-10-low" value="1505"' in page
        assert re.search(r'<input type="number" name="band-10-high"(?![^>]*value=)', page)
        assert re.search(r'<input type="number" name="band-11-low"(?![^>]*value=)', page)
        # Every input has a name a screen reader reads out.
        assert 'aria-label="Band 2: VP to the winner"' in page

    def test_the_director_fills_the_rows_with_the_4_hand_table(self, world, director):
        burraco_league(world)
        url = f"/clubs/{world.club.slug}/n/new/pairs/?start=fibur-4-hands"
        page = director.get(url).content.decode()
        # FIBur 4 hands: 10–10 to 100, 11–9 from 105 to 300 … 20–0 above 2000.
        assert 'name="band-1-low" value="105"' in page and 'name="band-1-high" value="300"' in page
        assert 'name="band-10-low" value="2005"' in page
        assert re.search(r'<option value="own" selected>', page)
        assert re.search(r'<option value="4" selected>', page)
        assert not Tournament.objects.exists()

    def test_an_unknown_table_to_fill_from_shows_the_3_hand_one(self, world, director):
        burraco_league(world)
        url = f"/clubs/{world.club.slug}/n/new/pairs/?start=" + "x" * 500
        page = director.get(url)
        assert page.status_code == 200
        assert 'name="band-1-high" value="150"' in page.content.decode()


class TestTheRowsScoreTheNight:
    def test_the_club_s_rows_make_the_night_s_table(self, world, director):
        # The club's copy: 11–9 from 55 to 100, 12–8 from 105 to 250, and a 12th band split
        # off the top: 19–1 from 1255 to 1500 stays, 20–0 from 1505 (as before).
        rows = _rows(band_2={"high": 100}, band_3={"low": 105})
        tournament, url = pairs_night(
            world, director, 2, plan="1 Mitchell", vp_table="own", own_name="Club 3", **rows
        )
        assert tournament.vp_table["name"] == "Club 3"
        assert tournament.vp_table["bands"][1] == {"from": 55, "to": 100, "winner": 11, "loser": 9}
        assert tournament.vp_table["bands"][-1] == {"from": 1505, "to": None} | {
            "winner": 20,
            "loser": 0,
        }
        assert director.post(url + "rounds/").status_code == 302
        # Pair 1 wins by 150: 12–8 by the club's rows (11–9 by the federation's).
        play_match(tables_of(tournament, 1)[1], 150)
        page = director.get(url).content.decode()
        assert re.findall(r'data-testid="vp">(\d+)<', page) == ["12", "8"]

    def test_blank_rows_between_bands_are_skipped(self, world, director):
        rows = _rows(blank=0)
        # Move the last band down two rows, leaving two blank rows above it.
        last = {name: rows.pop(f"band-10-{name}") for name in ("low", "high", "winner", "loser")}
        for index in (10, 11):
            rows.update({f"band-{index}-{name}": "" for name in last})
        rows.update({f"band-12-{name}": value for name, value in last.items()})
        rows["band-TOTAL_FORMS"] = 13
        assert _create(world, director, **rows).status_code == 302
        assert len(Tournament.objects.get().vp_table["bands"]) == 11


class TestTheRowsRefused:
    def _refused(self, world, director, language="en", **changes):
        response = _create(world, director, language=language, **_rows(**changes))
        assert response.status_code == 422
        assert not Tournament.objects.exists()
        return response.content.decode()

    def test_vp_that_do_not_go_up_are_refused_under_their_row(self, world, director):
        page = self._refused(world, director, band_3={"winner": 11, "loser": 9})
        assert _row_errors(page) == {
            "3": "Band 3 (155–250): the winner's VP must go up band by band, "
            "and 11 does not go up from 11."
        }
        assert "Your table has a row to correct: see the rows below." in page

    def test_a_gap_is_refused_under_the_row_after_it(self, world, director):
        # Band 4 from 260: 255–259 would be in no band.
        page = self._refused(world, director, band_4={"low": 260})
        assert _row_errors(page) == {
            "4": "Band 4 (260–350): a gap after 250; the band should start at 255."
        }

    def test_a_closed_last_band_leaves_larger_differences_uncovered(self, world, director):
        page = self._refused(world, director, band_11={"high": 3000})
        assert _row_errors(page) == {
            "11": "Band 11 (1505–3000): the last band has no upper end, so that it covers "
            "every larger difference (leave “To” empty; in JSON, null)."
        }

    def test_vp_beyond_20_and_vp_not_adding_up_to_20(self, world, director):
        page = self._refused(world, director, band_2={"winner": 25}, band_5={"loser": 5})
        errors = _row_errors(page)
        assert errors["2"] == "Ensure this value is less than or equal to 20."
        # Band 5 would be checked only once every row reads as numbers.
        assert set(errors) == {"2"}
        page = self._refused(world, director, band_5={"loser": 5})
        assert _row_errors(page) == {"5": "Band 5 (355–500): 14–5 VP do not add up to 20."}

    def test_a_row_half_filled_is_refused(self, world, director):
        page = self._refused(world, director, band_6={"winner": ""})
        assert _row_errors(page) == {"6": "Fill this in, or empty the whole row."}

    def test_the_refusal_is_said_in_italian(self, world, director):
        page = self._refused(world, director, language="it", band_2={"winner": 12})
        assert _row_errors(page) == {"2": "Fascia 2 (55–150): 12–9 PV non fanno 20."}

    def test_no_rows_and_too_many_rows_are_refused(self, world, director):
        self._refused(world, director, bands=(), blank=3)
        for total in (5000, "abc", -1):
            data = _rows()
            data["band-TOTAL_FORMS"] = total
            response = _create(world, director, **data)
            assert response.status_code == 422
        # Numbers out of every bound, and text for a number, each refused in its field.
        data = _rows(band_2={"high": 10**12}, band_3={"low": "abc"}, band_4={"loser": -1})
        page = _create(world, director, **data).content.decode()
        errors = _row_errors(page)
        assert errors["2"] == "Ensure this value is less than or equal to 100000."
        assert errors["3"] == "Enter a whole number."
        assert errors["4"] == "Ensure this value is greater than or equal to 0."
        assert not Tournament.objects.exists()
