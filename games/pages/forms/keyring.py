"""Forms of the /keys/ pages: a move code typed on the new phone, a recovery file loaded."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from games.tables.joining import CODE_ALPHABET, code_normalize
from games.tables.keyring import TRANSFER_CODE_LENGTH

# A recovery file holds a few hundred keys at most: far below this.
RECOVERY_MAX_BYTES = 256 * 1024


class TransferCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Move code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={
                "autocapitalize": "characters",
                "autocomplete": "off",
                "autocorrect": "off",
                "spellcheck": "false",
                "enterkeyhint": "go",
                "placeholder": "K7M4-QXTA",
                "class": "join-code",
                "data-code-from-fragment": "",
            }
        ),
    )

    def clean_code(self) -> str:
        code = code_normalize(self.cleaned_data["code"])
        if len(code) != TRANSFER_CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
            raise forms.ValidationError(
                _("A move code has %(length)d letters and digits, as the other phone shows it.")
                % {"length": TRANSFER_CODE_LENGTH}
            )
        return code


class RecoveryFileForm(forms.Form):
    file = forms.FileField(label=_("Recovery file"))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > RECOVERY_MAX_BYTES:
            raise forms.ValidationError(_("This file is too large to be a recovery file."))
        try:
            self.cleaned_data["contents"] = json.loads(upload.read(RECOVERY_MAX_BYTES))
        except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested deep
            raise forms.ValidationError(_("This is not a RummyRef recovery file.")) from None
        return upload
