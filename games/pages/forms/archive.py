"""The import page's form: a file, and where it goes (a group managed, a club administered)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from games.tables.imports import ImportTarget


class ImportForm(forms.Form):
    file = forms.FileField(
        label=_("The exported file (.jsonl: one table; .zip: a group's or a club's archive)"),
        widget=forms.FileInput(
            attrs={
                "accept": ".jsonl,.zip,application/zip",
                # The hint and the errors the template shows under the field.
                "aria-describedby": "import-file-hint import-file-errors",
            }
        ),
    )
    target = forms.ChoiceField(label=_("Import into"))

    def __init__(self, *args, targets: list[ImportTarget], **kwargs):
        super().__init__(*args, **kwargs)
        self.targets = {target.key: target for target in targets}
        self.fields["target"].choices = [
            (
                target.key,
                _("Group: %(name)s") % {"name": target.name}
                if target.group
                else _("Club: %(name)s") % {"name": target.name},
            )
            for target in targets
        ]
        if len(targets) == 1:
            self.fields["target"].initial = targets[0].key

    def chosen(self) -> dict[str, int]:
        """Return the group or club chosen as ``log_import`` takes it (group_id= or club_id=)."""
        return self.targets[self.cleaned_data["target"]].ids()
