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

// The tap picker types into the card field last touched, which it marks, and names above
// its buttons with what it holds so far: the thumb never has to look for where cards went.
(function () {
  "use strict";
  let target = null;

  function fieldName(field) {
    if (field.getAttribute("aria-label")) return field.getAttribute("aria-label");
    const label = field.closest("label") || document.querySelector(`label[for="${field.id}"]`);
    return label ? label.childNodes[0].textContent.trim() : field.name;
  }

  function mark(field) {
    target = field;
    document.querySelectorAll("[data-cards].picking").forEach((el) => el.classList.remove("picking"));
    if (!field) return;
    field.classList.add("picking");
    const form = field.closest("form");
    const echo = form && form.querySelector("[data-picker-target]");
    if (echo) echo.textContent = fieldName(field) + ": " + (field.value.trim() || "—");
    // Bring the buttons to the field: just below its player's row (or its label).
    const picker = form && form.querySelector("[data-tap-picker]");
    const spot = field.closest("[data-seat-row], [data-player], label");
    if (picker && spot && spot.nextElementSibling !== picker && !spot.contains(picker)) {
      spot.after(picker);
    }
  }

  function firstVisible(form) {
    return Array.from(form.querySelectorAll("[data-cards]")).find((el) => el.offsetParent !== null);
  }

  document.addEventListener("focusin", (event) => {
    if (event.target.matches("[data-cards]")) mark(event.target);
  });
  document.addEventListener("input", (event) => {
    if (event.target === target) mark(target);
  });
  function markFirst(root) {
    root.querySelectorAll("[data-tap-picker]").forEach((picker) => {
      const form = picker.closest("form");
      if (form && !(target && form.contains(target))) mark(firstVisible(form) || null);
    });
  }
  document.addEventListener("DOMContentLoaded", () => markFirst(document));
  document.addEventListener("htmx:afterSettle", (event) => markFirst(event.target));
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
    mark(field);
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

// What went wrong with a save is shown by the button that sent it: bring it into view,
// focus it so screen readers read it, and keep the thumb where it was.
function showWhatWentWrong(root) {
  const alert = root.querySelector && root.querySelector("[data-focus-on-show]");
  if (!alert) return;
  alert.scrollIntoView({ block: "center" });
  alert.focus({ preventScroll: true });
}
document.addEventListener("htmx:afterSettle", (event) => showWhatWentWrong(event.target));
document.addEventListener("DOMContentLoaded", () => showWhatWentWrong(document));

// A poll brings the table's new head with the board. A hand form nobody has touched since
// follows it, so the next save is for the hand after the one just shown; a form being
// filled in keeps the head it was drawn at (the server re-bases it if its hand is still
// the next one, or shows the conflict if another phone recorded that hand).
document.addEventListener("input", (event) => {
  const form = event.target.closest && event.target.closest("#hand-form");
  if (form) form.dataset.touched = "true";
});
document.addEventListener("htmx:afterSettle", (event) => {
  const board = event.target.id === "board" ? event.target : null;
  if (!board || !board.dataset.headSeq) return;
  const form = document.querySelector("#hand-form");
  if (!form || form.dataset.touched) return;
  const head = form.querySelector("[name=expected_seq]");
  if (head) head.value = board.dataset.headSeq;
});
