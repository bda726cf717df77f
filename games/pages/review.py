"""The review of a finished hand: the replay stepper, each turn weighed, where points were lost.

One view: the whole page at a step (``?step=12``; the deal is step 0), or, for htmx (the
stepper's Previous and Next, a swipe), that step's part alone. Whoever reads the table reads
its reviews (``with_table``: a phone without the table's key gets the table page's 404);
reading one changes nothing.
"""

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games.pages.tables import with_table
from games.shared.numbers import seq_or_none
from games.tables import review as reviews
from scoring.review import PLAYED


def _step_index(request, steps) -> int:
    """Return the step ``?step=`` asks for (the deal when none); a bad one is refused,
    naming the steps there are."""
    text = request.GET.get("step")
    if text is None or not steps:
        return 0
    index = seq_or_none(text)
    if index is None or index >= len(steps):
        raise ValidationError(
            _("There is no step “%(step)s” in this hand: its steps run from 0 to %(last)s.")
            % {"step": text[:12], "last": len(steps) - 1}
        )
    return index


@require_safe
@never_cache  # private to the table's phones, like its page
@with_table()
def hand_review_page(request, table, role, number: int):
    """Show the review of hand ``number`` at the step asked for."""
    try:
        review = reviews.hand_review(table=table, number=number)
    except reviews.NoSuchHand:
        raise Http404(
            _("This table has no finished hand %(number)s.") % {"number": number}
        ) from None
    stepper = reviews.review_step(review, _step_index(request, review.steps))
    context = {
        "table": table,
        "role": role,
        "review": review.summary,
        "seats": review.summary["seats"],
        "played": review.summary["kind"] == PLAYED,
        "discard_pile": review.discard_pile,
        "stepper": stepper,
        "step": stepper.step if stepper is not None else None,
        "turn": stepper.turn if stepper is not None else None,
    }
    if request.htmx and stepper is not None:
        return render(request, "tables/review.html#step_answer", context)
    return render(request, "tables/review.html", context)
