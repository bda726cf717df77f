"""The accounts' background work: password-reset mail, sent by a worker.

Looking the address up and sending the mail happen here, after the page has answered, so
how long the page takes says nothing of whether an account has that address.
"""

from celery import shared_task
from django.contrib.auth.forms import PasswordResetForm


@shared_task(name="games.tasks.password_reset_mail", acks_late=True)
def password_reset_mail(email: str, domain: str, use_https: bool) -> None:
    """Mail a reset link to every active account with this address (none: nothing sent)."""
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(domain_override=domain, use_https=use_https)
