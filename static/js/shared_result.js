// A shared result's "Share the result": where the phone can share files, its picture goes
// with the link, so the chat shows it even where it would draw no preview of its own.
// Elsewhere share.js, which handles the same button, shares the link alone or copies it.
(function () {
  "use strict";

  // Fetched when the page opens: the share sheet must open within the tap, with no wait.
  let picture = null;

  function prepare() {
    const button = document.querySelector("button[data-share-image]");
    if (!button || !navigator.canShare || typeof File === "undefined") return;
    fetch(button.dataset.shareImage)
      .then(function (response) {
        return response.ok ? response.blob() : Promise.reject(response.status);
      })
      .then(function (blob) {
        const file = new File([blob], "rummyref-result.png", { type: "image/png" });
        if (navigator.canShare({ files: [file] })) picture = file;
      })
      .catch(function () {
        // No picture: share.js shares the link.
      });
  }

  // In the capture phase, so that share.js's listener (bubbling, on the same document)
  // does not share the link a second time.
  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-share-image]");
    if (!button || !picture) return;
    event.stopPropagation();
    // Apps that take a picture often drop the url: the text carries the link too.
    const text = button.dataset.shareText + "\n" + button.dataset.shareUrl;
    navigator.share({ files: [picture], title: button.dataset.shareTitle, text: text })
      .catch(function () {
        // Closed without sharing, or refused: nothing to undo.
      });
  }, true);

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", prepare);
  } else {
    prepare();
  }
})();
