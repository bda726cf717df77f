"""Where a page's polling element opens its live stream (docs/live.md), if push is on."""

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode

register = template.Library()


@register.simple_tag
def live_stream(table_id, watch: str, seq: int) -> str:
    """Return the attributes that tell live.js where the table's stream is (authorised by
    the same watch token as the poll) and the head the element shows; nothing when push is
    off."""
    if not settings.PUSH_URL:
        return ""
    address = f"{reverse('table-live', args=[table_id])}?{urlencode({'w': watch})}"
    return format_html(' data-live="{}" data-live-seq="{}"', address, seq)
