"""Where a page's polling element opens its live stream (docs/live.md), if push is on."""

from django import template
from django.conf import settings
from django.templatetags.static import static
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


@register.simple_tag
def live_at(address: str, version: str) -> str:
    """Return the attributes that tell live.js where a night's stream is (``address``, the
    stream of the page's own access) and the version of the night the element shows, for an
    element that polls the night already; nothing when push is off."""
    if not settings.PUSH_URL:
        return ""
    return format_html(' data-live="{}" data-live-version="{}"', address, version)


@register.simple_tag(takes_context=True)
def live_region(context, address: str, element_id: str, version: str = "") -> str:
    """Return the attributes that make a part of a page that does not poll (``element_id``,
    e.g. a group's tables) follow a stream: on news, it fetches its page again and swaps
    itself for the same part. Nothing when push is off: the page stays as it was drawn, as
    it always has."""
    if not settings.PUSH_URL:
        return ""
    return format_html(
        ' data-live="{}" data-live-version="{}" hx-get="{}" hx-trigger="live"'
        ' hx-select="#{}" hx-swap="outerHTML"',
        address,
        version,
        context["request"].get_full_path(),
        element_id,
    )


@register.simple_tag
def live_script() -> str:
    """Return live.js's script tag for a page whose part may follow a stream (push on); the
    page that only polls (push off) loads nothing more than it did."""
    if not settings.PUSH_URL:
        return ""
    return format_html('<script src="{}" defer></script>', static("js/live.js"))
