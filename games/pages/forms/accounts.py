"""Forms of the account pages beside Django's own."""

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.utils.translation import gettext_lazy as _


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        label=_("Email"),
        required=False,
        help_text=_("Optional: needed only to reset a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
