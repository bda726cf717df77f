"""Every API input is bounded: huge numbers, deep or large bodies get the API's 400, never a 500."""

import json

import pytest

TABLES = "/api/v1/tables/"


@pytest.fixture
def three_viewer_keys(client, db):
    """Three tables' viewer keys, as a phone holding them sends them."""
    made = [
        client.post(
            TABLES,
            {"variant": "gin", "players": ["Anna", "Bruno"]},
            content_type="application/json",
        ).json()
        for _ in range(3)
    ]
    return ",".join(table["viewer_key"] for table in made)


class TestListBounds:
    @pytest.mark.parametrize(
        "query",
        [
            "limit=9223372036854775808",
            "offset=9223372036854775808",
            "limit=99999999999999999999999",
        ],
    )
    def test_numbers_beyond_a_bigint_give_a_page_not_a_500(self, client, three_viewer_keys, query):
        response = client.get(f"{TABLES}?{query}", HTTP_X_TABLE_KEY=three_viewer_keys)
        assert response.status_code == 200

    def test_a_limit_above_the_cap_is_cut_to_it(self, client, three_viewer_keys):
        response = client.get(f"{TABLES}?limit=100000", HTTP_X_TABLE_KEY=three_viewer_keys)
        assert response.status_code == 200
        assert response.json()["count"] == 3
        assert "limit=500" in (response.json()["next"] or "limit=500")

    def test_an_offset_beyond_every_row_is_an_empty_page(self, client, three_viewer_keys):
        response = client.get(
            f"{TABLES}?offset=9223372036854775808", HTTP_X_TABLE_KEY=three_viewer_keys
        )
        assert response.json()["results"] == []


class TestKeyHeaderBound:
    def test_the_first_eight_keys_are_read_and_no_more(self, client, three_viewer_keys):
        real = three_viewer_keys.split(",")
        made_up = [f"no-such-key-{n}" for n in range(5)]
        within = ",".join([*made_up, *real])  # 8 keys: the three real ones are read
        assert client.get(TABLES, HTTP_X_TABLE_KEY=within).json()["count"] == 3
        beyond = ",".join([*made_up, "another", "and-another", "a-third", *real])
        assert client.get(TABLES, HTTP_X_TABLE_KEY=beyond).json()["count"] == 0
        thousands = ",".join(["x"] * 100_000 + real)  # long, and still one quick answer
        assert client.get(TABLES, HTTP_X_TABLE_KEY=thousands).json()["count"] == 0


class TestBodyBounds:
    def test_a_thousand_deep_array_is_a_400_in_the_api_shape(self, client, db):
        body = "[" * 1000 + "]" * 1000
        response = client.post(TABLES, body, content_type="application/json")
        assert response.status_code == 400
        assert response.json()["error"] == "parse_error"
        assert "deeper than 20 levels" in response.json()["detail"]

    def test_a_thirty_thousand_deep_array_is_a_400_too(self, client, db):
        body = "[" * 30_000 + "]" * 30_000  # 60 kB: within the size limit
        response = client.post("/api/v1/referee/meld/", body, content_type="application/json")
        assert response.status_code == 400
        assert response.json()["error"] == "parse_error"

    @pytest.mark.parametrize("size", [100_000, 10_000_000])
    def test_a_large_body_is_a_413_in_the_api_shape(self, client, db, size):
        body = json.dumps({"variant": "gin", "players": ["Anna", "Bruno"], "pad": "x" * size})
        response = client.post(TABLES, body, content_type="application/json")
        assert response.status_code == 413
        assert response.json() == {
            "error": "too_large",
            "detail": "The body is larger than 65536 bytes.",
        }

    def test_a_body_that_is_not_json_names_the_problem(self, client, db):
        response = client.post(TABLES, "{'variant': gin", content_type="application/json")
        assert response.status_code == 400
        assert response.json()["detail"].startswith("The body is not valid JSON")

    def test_a_real_request_still_parses(self, client, db):
        response = client.post(
            TABLES,
            {"variant": "gin", "players": ["Anna", "Bruno"]},
            content_type="application/json",
        )
        assert response.status_code == 201


class TestOptionBounds:
    @pytest.mark.parametrize("target", [1_000_001, 99999999999999999999])
    def test_a_knock_rummy_target_past_the_bound_is_refused_and_nothing_stored(
        self, client, db, target
    ):
        response = client.post(
            TABLES,
            {"variant": "knock_rummy", "players": ["A", "B", "C"], "options": {"target": target}},
            content_type="application/json",
        )
        assert response.status_code in (400, 422)
        violation = response.json()["violations"][0]
        assert (violation["rule"], violation["code"]) == ("KR-MATCH", "target_too_high")
        assert violation["message"] == f"A Knock Rummy game ends at 1000000 at most, not {target}."
        assert client.get(TABLES).json()["count"] == 0


class TestUnknownAddresses:
    def test_a_malformed_table_id_under_the_api_is_a_json_404(self, client, db):
        response = client.get("/api/v1/tables/not-a-uuid/events/")
        assert response.status_code == 404
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"] == "not_found"

    def test_a_page_address_that_matches_nothing_is_the_404_page(self, client, db):
        response = client.get("/no-such-page/")
        assert response.status_code == 404
        assert response["Content-Type"].startswith("text/html")


class TestWholeNumbersInQueries:
    @pytest.mark.parametrize("written", ["1.0", " 1", "+1", "1_0", "\u0661", "1e2", "0x1"])
    def test_only_digits_are_a_whole_number(self, client, three_viewer_keys, written):
        for query in ("limit", "offset"):
            response = client.get(TABLES, {query: written}, HTTP_X_TABLE_KEY=three_viewer_keys)
            assert response.status_code == 400, (query, written)
            assert query in response.json()["fields"]
