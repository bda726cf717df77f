// The share block's buttons: the phone's own share sheet where there is one (Web Share
// API), else the link copied to the clipboard. Both need a secure context (HTTPS or
// localhost); on a plain-HTTP LAN address the link's box is selected for a manual copy.
(function () {
  "use strict";

  function copied(button) {
    const label = button.textContent;
    button.textContent = button.dataset.copied;
    setTimeout(function () { button.textContent = label; }, 2000);
  }

  function selectBox(button) {
    const box = button.parentElement.querySelector("input");
    if (!box) return;
    box.focus();
    box.select();
    try {
      if (document.execCommand("copy")) copied(button);
    } catch (error) {
      // Left selected: the phone's own copy menu takes it from here.
    }
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-share-url]");
    if (!button) return;
    const url = button.dataset.shareUrl;
    if (navigator.share) {
      navigator.share({ title: button.dataset.shareTitle, url: url }).catch(function () {});
    } else if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(function () { copied(button); },
        function () { selectBox(button); });
    } else {
      selectBox(button);
    }
  });

  // Opened before the scripts were ready (a quick thumb, a slow phone): htmx missed the
  // toggle, so ask for the codes now rather than leave the block on its fallback link.
  document.addEventListener("DOMContentLoaded", function () {
    if (!window.htmx) return;
    document.querySelectorAll("details.share[open][hx-get]").forEach(function (block) {
      if (!block.querySelector("[data-testid^=link-]")) htmx.trigger(block, "toggle");
    });
  });
})();
