"""Forms of the account pages beside Django's own."""

from django import forms
from django.contrib.auth.forms import PasswordResetForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from games.clubs.tasks import password_reset_mail
from games.shared.task_outbox import send_on_commit


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional: needed only to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class QueuedPasswordResetForm(PasswordResetForm):
    """Queue the reset mail for a worker instead of looking the address up in the request."""

    def save(self, *, request, use_https=False, **kwargs):
        email, domain = self.cleaned_data["email"], request.get_host()
        send_on_commit(password_reset_mail, email, domain, use_https)
