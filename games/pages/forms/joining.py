"""The /join/ page's form: one table code, typed however the phone likes; and the /j/
page's: a join link (its token) or a code."""

import re

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.tables.joining import CODE_LENGTH, code_normalize
from games.tables.keyring import TRANSFER_CODE_LENGTH
from games.tables.models import JoinToken

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
        if len(code) == TRANSFER_CODE_LENGTH:
            raise move_code_typed()
        if len(code) != CODE_LENGTH:
            raise forms.ValidationError(
                _("A table code has 6 letters and digits, like K7M-4QX."), code="length"
            )
        return code


def move_code_typed() -> forms.ValidationError:
    """Say that the code typed is a move code (8 characters, /keys/), which opens no table
    here: it moves another phone's tables, on the page that receives them."""
    return forms.ValidationError(
        _(
            "That looks like a move code, which brings another phone's tables to this one: "
            "type it on the page %(page)s instead."
        )
        % {"page": reverse("keys-receive")},
        code="move_code",
    )


# A link's token: new_key()'s 43 URL-safe characters (a little room either side).
LINK_TOKEN = re.compile(r"[A-Za-z0-9_-]{32,64}")
# The token of a link pasted whole: after "#", or the path of a link made before that.
PASTED_LINK = re.compile(r"#(?P<fragment>[^#]*)$|/j/(?P<path>[^/?#\s]+)")
NO_LINK = _(
    "That link opens no table any more: links expire when the match ends, or after 12 hours."
)


class JoinLinkForm(forms.Form):
    """The /j/ page's form: its script fills it from the link's fragment and sends it; a
    phone without JavaScript pastes the link (or types the code) itself."""

    link = forms.CharField(
        label=_("Paste the join link, or type the table's code"),
        max_length=300,
        widget=forms.TextInput(
            attrs={
                "autocomplete": "off",
                "autocorrect": "off",
                "autocapitalize": "off",
                "spellcheck": "false",
                "enterkeyhint": "go",
                "data-secret-input": True,
            }
        ),
    )

    def clean_link(self) -> tuple[str, str]:
        """Return what was given as (kind, secret): a link's token, or a typed code."""
        text = self.cleaned_data["link"].strip()
        found = PASTED_LINK.search(text)
        token = (found.group("fragment") or found.group("path") or "") if found else text
        token = token.strip().strip("/")
        if LINK_TOKEN.fullmatch(token):
            return JoinToken.Kind.LINK, token
        code = code_normalize(token)
        if len(code) == CODE_LENGTH:
            return JoinToken.Kind.CODE, code
        if len(code) == TRANSFER_CODE_LENGTH:
            raise move_code_typed()
        raise forms.ValidationError(
            _("Paste the whole link, or type the 6-character code (like K7M-4QX)."), code="link"
        )
