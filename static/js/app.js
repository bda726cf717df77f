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

// A refusal is never left below the fold or under the sticky board: whatever form sent it
// (an htmx answer swapped into its alert slot, or a whole page answering a POST), the first
// refusal shown is brought into view and focused, so a screen reader reads it and the eye
// finds it. Refusals are role="alert" (announced as they appear) or .error lines.
(function () {
  "use strict";
  const REFUSAL = "[data-focus-on-show], [role=alert], .error";

  // Shown and not covered: the element at its middle is the refusal itself (or inside it).
  function inView(element) {
    const box = element.getBoundingClientRect();
    const x = box.left + Math.min(box.width / 2, 40);
    const y = box.top + Math.min(box.height / 2, 20);
    if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
    const there = document.elementFromPoint(x, y);
    return there !== null && (element === there || element.contains(there));
  }

  function showRefusal(root) {
    if (!root || !root.querySelectorAll) return;
    const candidates = root.matches && root.matches(REFUSAL) ? [root] : root.querySelectorAll(REFUSAL);
    // A slot kept empty until something goes wrong (role="alert" from the start, so that
    // what comes into it is announced) is no refusal.
    const refusal = Array.from(candidates).find(
      (element) => element.textContent.trim() && element.getClientRects().length > 0
        && !element.closest("[hidden], [data-not-sent]")
    );
    if (!refusal) return;
    if (!refusal.hasAttribute("tabindex")) refusal.setAttribute("tabindex", "-1");
    if (!inView(refusal)) refusal.scrollIntoView({ block: "center", behavior: "instant" });
    refusal.focus({ preventScroll: true });
  }

  // Only what a form sent: the board's polls (GETs) never move the page or the focus.
  document.addEventListener("htmx:afterSettle", (event) => {
    const config = event.detail && event.detail.requestConfig;
    if (config && config.verb && config.verb !== "get") showRefusal(event.target);
  });
  document.addEventListener("DOMContentLoaded", () => showRefusal(document.querySelector("main") || document));
})();

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

// One card picker for both Gin hands. A tap toggles the card in the hand marked active (its
// checkbox below, so the form posts as without JavaScript); when that hand is full the
// other becomes active. A rank button takes the four of a rank; with Runs on, a second card
// of the same suit fills the run from the first. Undo takes back the last tap, whole.
(function () {
  "use strict";
  const ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  const SYMBOL = { C: "♣", S: "♠", H: "♥", D: "♦" };

  const rankOf = (card) => card.slice(0, -1);
  const suitOf = (card) => card.slice(-1);
  const shown = (card) => rankOf(card) + SYMBOL[suitOf(card)];

  function setUp(picker) {
    if (picker.dataset.ready) return;
    picker.dataset.ready = "true";
    const form = picker.closest("form");
    const tabs = Array.from(picker.querySelectorAll("[data-hand]"));
    const runs = picker.querySelector("[data-runs]");
    const echo = picker.querySelector("[data-hand-echo]");
    const undoStack = [];
    let anchor = null;

    const box = (hand, card) =>
      form.querySelector(`[data-picker="${hand}"] input[type=checkbox][value="${card}"]`);
    const active = () => tabs.find((tab) => tab.getAttribute("aria-pressed") === "true") || tabs[0];
    const held = (hand) =>
      Array.from(form.querySelectorAll(`[data-picker="${hand}"] input[type=checkbox]:checked`)).map((b) => b.value);
    const owner = (card) => tabs.map((t) => t.dataset.hand).find((hand) => box(hand, card).checked);

    // A hand holds the cards the page says, or more under an ending that keeps every card
    // (the game's rules say which, in data-expect-by-ending).
    function expected(tab) {
      const ending = form.querySelector("input[name=ending]:checked");
      const byEnding = JSON.parse(tab.dataset.expectByEnding || "{}");
      const more = ending && Object.hasOwn(byEnding, ending.value) ? byEnding[ending.value] : null;
      return Number(more ?? tab.dataset.expect);
    }

    function names() {
      // The knocker's tab carries the name chosen above; the defender is the other seat.
      const radios = Array.from(form.querySelectorAll("input[name=knocker]"));
      const chosen = radios.find((r) => r.checked);
      const nameOf = (radio) => radio.closest("label").textContent.trim();
      const other = chosen && radios.find((r) => r !== chosen);
      return [chosen ? nameOf(chosen) : "", other ? nameOf(other) : ""];
    }

    function draw() {
      const who = names();
      tabs.forEach((tab, index) => {
        const cards = held(tab.dataset.hand);
        const label = tab.dataset.roleName + (who[index] ? " · " + who[index] : "");
        tab.querySelector("[data-hand-name]").textContent = label;
        tab.querySelector("[data-hand-count]").textContent = cards.length + "/" + expected(tab);
      });
      const tab = active();
      const cards = held(tab.dataset.hand);
      echo.textContent = tab.querySelector("[data-hand-name]").textContent + ": " +
        (cards.length ? cards.map(shown).join(" ") : "—");
      picker.querySelectorAll("[data-card]").forEach((button) => {
        const hand = owner(button.dataset.card);
        button.setAttribute("aria-pressed", String(hand === tab.dataset.hand));
        button.disabled = hand !== undefined && hand !== tab.dataset.hand;
        button.classList.toggle("anchor", button.dataset.card === anchor);
      });
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }

    function choose(tab) {
      tabs.forEach((t) => t.setAttribute("aria-pressed", String(t === tab)));
      anchor = null;
      draw();
    }

    // Set each card's checkbox in the active hand; remember the change so Undo can take it back.
    function apply(cards, checked) {
      const hand = active().dataset.hand;
      const changed = cards.filter((card) => owner(card) === undefined || owner(card) === hand)
        .filter((card) => box(hand, card).checked !== checked);
      changed.forEach((card) => { box(hand, card).checked = checked; });
      if (changed.length) undoStack.push({ hand, cards: changed, checked });
      form.dataset.touched = "true";
      const tab = active();
      if (checked && held(hand).length >= expected(tab)) {
        const next = tabs.find((t) => t !== tab && held(t.dataset.hand).length < expected(t));
        if (next) { choose(next); return; }
      }
      draw();
    }

    picker.addEventListener("click", (event) => {
      const tab = event.target.closest("[data-hand]");
      const card = event.target.closest("[data-card]");
      const rank = event.target.closest("[data-rank]");
      if (tab) choose(tab);
      else if (event.target.closest("[data-runs]")) {
        runs.setAttribute("aria-pressed", String(runs.getAttribute("aria-pressed") !== "true"));
        anchor = null;
        draw();
      } else if (event.target.closest("[data-undo]")) {
        const last = undoStack.pop();
        if (last) last.cards.forEach((c) => { box(last.hand, c).checked = !last.checked; });
        anchor = null;
        draw();
      } else if (rank) {
        const four = Object.keys(SYMBOL).map((suit) => rank.dataset.rank + suit);
        const hand = active().dataset.hand;
        anchor = null;
        apply(four, !four.every((c) => owner(c) !== undefined && owner(c) !== hand ? true : box(hand, c).checked));
      } else if (card) {
        const value = card.dataset.card;
        const hand = active().dataset.hand;
        if (box(hand, value).checked) { anchor = null; apply([value], false); return; }
        const runsOn = runs.getAttribute("aria-pressed") === "true";
        if (runsOn && anchor && suitOf(anchor) === suitOf(value)) {
          const [from, to] = [ORDER.indexOf(rankOf(anchor)), ORDER.indexOf(rankOf(value))].sort((a, b) => a - b);
          const run = ORDER.slice(from, to + 1).map((r) => r + suitOf(value));
          anchor = null;
          apply(run, true);
          return;
        }
        anchor = runsOn ? value : null;
        apply([value], true);
      }
    });
    form.addEventListener("change", (event) => {
      if (event.target.name === "knocker" || event.target.name === "ending") draw();
    });
    // The form emptied after a save (or by the offline outbox): start again on the first hand.
    form.addEventListener("reset", () => {
      undoStack.length = 0;
      anchor = null;
      setTimeout(() => choose(tabs[0]));
    });
    form.classList.add("one-picker-on");
    picker.hidden = false;
    draw();
  }

  const init = (root) => root.querySelectorAll("[data-one-picker]").forEach(setUp);
  document.addEventListener("DOMContentLoaded", () => init(document));
  document.addEventListener("htmx:afterSettle", (event) => init(event.target));
})();

// A round's clock counts down to the server's end time (the page says when it ends, too).
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll("[data-ends-at]").forEach((clock) => {
      const left = Math.round((Date.parse(clock.dataset.endsAt) - Date.now()) / 1000);
      let out = clock.querySelector("[data-countdown]");
      if (!out) {
        out = document.createElement("strong");
        out.dataset.countdown = "";
        clock.append(" · ", out);
      }
      if (left <= 0) {
        out.textContent = clock.dataset.upText;
      } else {
        const minutes = Math.floor(left / 60);
        const seconds = String(left % 60).padStart(2, "0");
        out.textContent = `${minutes}:${seconds} ${clock.dataset.leftText}`;
      }
    });
  }
  document.addEventListener("DOMContentLoaded", () => { tick(); setInterval(tick, 1000); });
  document.addEventListener("htmx:afterSettle", tick);
})();

// The hand form brought up just under the board, which sticks at the top with the totals:
// its first choice ("Who ended the hand?") right below them and, on a phone, the whole quick
// form down to its button in view, so a hand needs no scrolling. Only when some of that is
// out of view: a form already in view stays where it is.
function handFormUnderTheBoard(form) {
  const board = document.querySelector("#main > .board");
  const first = form.querySelector("fieldset");
  const button = form.querySelector("button[type=submit]");
  if (!board || !first || !button) return;
  const stuck = (parseFloat(getComputedStyle(board).top) || 0) + board.offsetHeight;
  const top = first.getBoundingClientRect().top;
  if (top >= stuck && button.getBoundingClientRect().bottom <= window.innerHeight) return;
  window.scrollTo({ top: Math.max(0, window.scrollY + top - stuck - 8), behavior: "instant" });
}

// The first choice made in a hand form brings the form up under the board: the rest of the
// hand is then in view (a Gin hand: who, how, two counts and Record, five actions).
document.addEventListener("change", (event) => {
  const form = event.target.closest && event.target.closest("#hand-form");
  if (form && event.target.type === "radio" && !form.dataset.raised) {
    form.dataset.raised = "true";
    handFormUnderTheBoard(form);
  }
});

// A hand saved: the answer brought the board, the history's news and the form's fresh keys,
// not the form again. Empty it for the next hand, entered the way this one was (counts or
// cards), and bring it up under the totals. Who ended the hand is chosen afresh: a name
// ticked from the last hand that nobody notices credits the wrong player.
document.addEventListener("htmx:afterRequest", (event) => {
  const form = event.detail.elt;
  // htmx counts the 409 and 422 this app swaps as successful: only a 200 is a stored hand.
  if (event.detail.xhr.status !== 200 || !form.matches || !form.matches("#hand-form")) return;
  if (!document.contains(form)) return;  // another form was sent in its place
  const kept = Array.from(form.querySelectorAll("input[name=mode]:checked"));
  form.reset();  // hidden keys keep the values the answer brought (their value attribute)
  kept.forEach((radio) => { radio.checked = true; });
  delete form.dataset.touched;
  const preview = form.querySelector("#preview");
  if (preview) preview.replaceChildren();
  // From a radio the form's pickers listen to, so the one picker draws its hands again.
  (kept[kept.length - 1] || form).dispatchEvent(new Event("change", { bubbles: true }));
  handFormUnderTheBoard(form);
});

// A refusal the server answers for the form's alert slot (games/pages/errors.py says where,
// with HX-Retarget) is shown even when it is a 403: other 403s (a stale CSRF token) are not.
document.addEventListener("htmx:beforeSwap", (event) => {
  const xhr = event.detail.xhr;
  if (xhr.status === 403 && xhr.getResponseHeader("HX-Retarget")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});

// The referee's upcard picker: a suit and a rank pressed write that one card into the upcard
// field, replacing it (the field stays the answer's source, typed or picked). Hidden without JS.
(function () {
  function pressed(picker, kind) {
    const button = picker.querySelector(`[data-${kind}][aria-pressed=true]`);
    return button ? button.dataset[kind] : "";
  }
  function press(button, kind) {
    button.closest("[data-upcard-picker]").querySelectorAll(`[data-${kind}]`).forEach((other) => {
      other.setAttribute("aria-pressed", String(other === button));
    });
  }
  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-upcard-picker] button");
    if (!button) return;
    const picker = button.closest("[data-upcard-picker]");
    press(button, button.dataset.suit ? "suit" : "rank");
    const suit = pressed(picker, "suit");
    const rank = pressed(picker, "rank");
    const field = document.getElementById(picker.dataset.for);
    if (field && suit && rank) field.value = rank + suit;
  });
  const show = (root) => root.querySelectorAll("[data-upcard-picker]").forEach((picker) => {
    picker.hidden = false;
  });
  document.addEventListener("DOMContentLoaded", () => show(document));
  document.addEventListener("htmx:afterSettle", (event) => show(event.target));
})();
