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

// Referee: the card buttons type into the card field last touched.
(function () {
  "use strict";
  let target = null;
  document.addEventListener("focusin", (event) => {
    if (event.target.matches("[data-cards]")) target = event.target;
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-tap-picker] [data-card]");
    if (!button) return;
    const form = button.closest("form");
    const field = target && form.contains(target) && target.offsetParent !== null
      ? target
      : Array.from(form.querySelectorAll("[data-cards]")).find((el) => el.offsetParent !== null);
    if (!field) return;
    const card = button.dataset.card;
    if (card === "backspace") {
      field.value = field.value.replace(/\s*\S+\s*$/, "");
    } else if (card === "newline") {
      field.value = field.value.replace(/\s+$/, "") + "\n";
    } else {
      const sep = field.value === "" || /\s$/.test(field.value) ? "" : " ";
      field.value += sep + card;
    }
    target = field;
  });
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-tap-picker]").forEach((picker) => { picker.hidden = false; });
  });
})();

// A form swapped in by htmx brings its tap picker hidden, as without JavaScript: show it.
document.addEventListener("htmx:afterSettle", (event) => {
  event.target.querySelectorAll("[data-tap-picker]").forEach((picker) => { picker.hidden = false; });
});

// A share link selects itself on a tap, ready to copy (no inline handler: the CSP forbids them).
document.addEventListener("click", (event) => {
  if (event.target.matches("input[data-select-on-tap]")) event.target.select();
});
