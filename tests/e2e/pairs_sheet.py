"""What the browser tests of the games played in pairs (Burraco, Canasta) share: a table of
four started from the home form to a short target, and a hand entered one sheet a side."""

import re

from playwright.sync_api import expect

NAMES = ["Anna", "Bruno", "Carla", "Dario"]


def start_table(page, variant: str, target: int) -> None:
    """Start a table of ``variant`` for the four NAMES, played to ``target``."""
    page.goto("/")
    form = page.locator("form:has(input[name=variant])")
    form.locator(f"input[name=variant][value={variant}]").check()
    for n, name in enumerate(NAMES, start=1):
        form.locator(f"input[name=player_{n}]").fill(name)
    form.locator(f"input[name={variant}__target]").fill(str(target))
    form.locator("button[type=submit]").last.click()
    expect(page).to_have_url(re.compile(r"/t/[0-9a-f-]+/$"))


def enter_sheet(page, sides: list[dict], out_key: str, out: int | None) -> None:
    """Fill each side's boxes (a bool ticks or clears a box), say which side ended the hand
    under ``out_key`` (None: nobody) and save."""
    form = page.locator("#hand-form")
    for side, figures in enumerate(sides):
        for name, value in figures.items():
            field = form.locator(f"[name=s{side}_{name}]")
            if isinstance(value, bool):
                field.set_checked(value)
            else:
                field.fill(str(value))
    choice = "" if out is None else out
    form.locator(f"input[name={out_key}][value='{choice}']").check()
    form.locator("button[type=submit].primary").click()
