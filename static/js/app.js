// Small progressive enhancements; every page works without this file.
(function () {
  "use strict";

  // A card can be in only one hand: picking it for one player greys it out for the other.
  function syncPickers(form) {
    const pickers = form.querySelectorAll("[data-picker]");
    if (pickers.length < 2) return;
    const taken = new Map();
    pickers.forEach((picker) => {
      picker.querySelectorAll("input[type=checkbox]:checked").forEach((box) => taken.set(box.value, picker));
    });
    pickers.forEach((picker) => {
      let count = 0;
      picker.querySelectorAll("input[type=checkbox]").forEach((box) => {
        const owner = taken.get(box.value);
        box.disabled = owner !== undefined && owner !== picker;
        if (box.checked) count += 1;
      });
      const out = picker.querySelector("output.count");
      if (out) out.textContent = count ? "(" + count + ")" : "";
    });
  }

  function init(root) {
    root.querySelectorAll(".hand-form").forEach((form) => {
      syncPickers(form);
      form.addEventListener("change", () => syncPickers(form));
    });
  }

  document.addEventListener("DOMContentLoaded", () => init(document));
  document.addEventListener("htmx:afterSettle", (event) => init(event.target));
})();
