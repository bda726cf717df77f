"""Staff watch a "recompute everything" job in the admin: the progress bar follows it."""

import re

import pytest
from playwright.sync_api import expect

from games.models import RecomputeJob
from tests.factories import RecomputeJobFactory, SuperUserFactory

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_progress_bar_follows_the_job_until_it_is_done(new_phone):
    SuperUserFactory(username="boss")
    job = RecomputeJobFactory(status="running", total=40, done=10)
    page = new_phone()
    page.goto(f"/admin/games/recomputejob/{job.pk}/progress/")
    page.get_by_label("Username").fill("boss")
    page.get_by_label("Password").fill("pw-12345-xyz")
    page.get_by_role("button", name="Log in").click()
    progress = page.get_by_test_id("recompute-progress")
    expect(progress.get_by_role("progressbar")).to_have_attribute("value", "25")
    expect(progress).to_contain_text("10 of 40 tables read")
    # The worker moves on; the page, polling, shows it without a reload.
    RecomputeJob.objects.filter(pk=job.pk).update(done=30)
    expect(progress).to_contain_text("30 of 40 tables read")
    expect(progress.get_by_role("progressbar")).to_have_attribute("value", "75")
    RecomputeJob.objects.filter(pk=job.pk).update(done=40, seasons=3, status="done")
    expect(progress).to_have_attribute("data-status", "done")
    expect(progress).to_contain_text(re.compile(r"40 of 40 tables read,\s+3 seasons recomputed"))
    # Over: the block no longer asks to be polled.
    expect(progress).not_to_have_attribute("hx-trigger", re.compile(".*"))
