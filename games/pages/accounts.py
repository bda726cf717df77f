"""Account pages beside Django's own (registration/): signing up."""

from django.contrib.auth import login
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from games.pages.common import form_status
from games.pages.forms.accounts import SignupForm


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account and sign in; then go where the visitor was heading (an invite)."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = ""
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect(next_url or "clubs")
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": next_url},
        status=form_status(form),
    )
