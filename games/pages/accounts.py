"""Account pages beside Django's own (registration/): signing up, and asking for a password
reset link. Both are throttled per client address (the reset also per email address); the
login's own guard is games.pages.login_guard."""

from django.contrib.auth import login
from django.contrib.auth.views import PasswordResetView
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from games.pages.common import next_url
from games.pages.forms.accounts import QueuedPasswordResetForm, SignupForm
from games.shared.throttles import page_status, page_write_allowed


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    """Create an account and sign in; then go where the visitor was heading (an invite)."""
    heading = next_url(request, request.POST.get("next") or request.GET.get("next") or "", "")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid() and page_write_allowed(request, form, "signup"):
        user = form.save()
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        return HttpResponseRedirect(heading or reverse("clubs"))
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": heading},
        status=page_status(form),
    )


class PasswordReset(PasswordResetView):
    """Queue a reset mail (QueuedPasswordResetForm), throttled per client address and per
    email address. Never behind the login's lock-out: it is the way back into a locked
    account."""

    form_class = QueuedPasswordResetForm

    def form_valid(self, form):
        email = form.cleaned_data["email"]
        if not page_write_allowed(self.request, form, "password_reset", email=email):
            return self.render_to_response(self.get_context_data(form=form), status=429)
        return super().form_valid(form)
