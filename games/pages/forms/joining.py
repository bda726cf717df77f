"""The /join/ page's form: one table code, typed however the phone likes."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.tables.joining import CODE_LENGTH, code_normalize

NO_TABLE = _("No table with that code (codes expire when the match ends).")


class JoinCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Table code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={
                "autocapitalize": "characters",
                "inputmode": "text",
                "autocomplete": "off",
                "autocorrect": "off",
                "spellcheck": "false",
                "enterkeyhint": "go",
                "autofocus": True,
                "placeholder": "K7M-4QX",
                "class": "join-code",
            }
        ),
    )

    def clean_code(self) -> str:
        code = code_normalize(self.cleaned_data["code"])
        if len(code) != CODE_LENGTH:
            raise forms.ValidationError(
                _("A table code has 6 letters and digits, like K7M-4QX."), code="length"
            )
        return code
