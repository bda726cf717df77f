// The move picker of a hand played move by move (templates/tables/_play.html). Without this
// file the picker's checkboxes, the typed fields and the meld list post the same moves; with
// it the buttons say what they will do ("Discard 7♠", "Add to #5"), the mover's known cards
// come first, a tap on a meld of the table makes it the target, and "This meld is done"
// keeps the cards tapped as one meld of several to lay at once.
(function () {
  "use strict";
  const SYMBOL = { C: "♣", S: "♠", H: "♥", D: "♦" };

  function face(card) {
    const [written, stands] = card.split("=");
    if (written.toUpperCase() === "JK") return stands ? "🃏(" + face(stands) + ")" : "🃏";
    const suit = written.slice(-1).toUpperCase();
    return SYMBOL[suit] ? written.slice(0, -1).toUpperCase() + SYMBOL[suit] : written;
  }
  const faces = (cards) => cards.map(face).join(" ");
  const fill = (template, values) =>
    template.replace(/%\((\w+)\)s/g, (whole, key) => (key in values ? values[key] : whole));

  function setUp(form) {
    if (form.dataset.ready) return;
    form.dataset.ready = "true";
    const boxes = () => Array.from(form.querySelectorAll("input[name=picked]"));
    const select = form.querySelector("[data-meld-select]");
    const meldsBox = form.querySelector("[data-melds-box]");
    const echo = form.querySelector("[data-picked-echo]");
    const done = form.querySelector("[data-meld-done]");
    const known = form.querySelector("[data-known]");
    let order = boxes().filter((b) => b.checked).map((b) => b.value);

    function picked() {
      const checked = boxes().filter((b) => b.checked).map((b) => b.value);
      order = order.filter((card) => checked.includes(card));
      checked.forEach((card) => { if (!order.includes(card)) order.push(card); });
      return order.slice();
    }

    function draw() {
      const cards = picked();
      const meld = select ? select.value : "";
      const lines = meldsBox ? meldsBox.value.split("\n").map((l) => l.trim()).filter(Boolean) : [];
      if (echo) {
        const parts = [];
        if (lines.length) parts.push(echo.dataset.melds + " " + lines.map((l) => faces(l.split(/\s+/))).join(" | "));
        if (cards.length) parts.push(faces(cards));
        if (meld && select) parts.push(echo.dataset.target + " " + select.selectedOptions[0].textContent);
        echo.textContent = parts.length ? parts.join(" · ") : echo.dataset.none;
      }
      if (done) done.hidden = cards.length < 3;
      form.querySelectorAll("button[name=move]").forEach((button) => {
        if (!button.dataset.base) button.dataset.base = button.textContent.trim();
        let label = button.dataset.base;
        if (button.dataset.oneCard && cards.length === 1) label = fill(button.dataset.oneCard, { card: face(cards[0]) });
        if (button.dataset.toMeld && meld) label = fill(button.dataset.toMeld, { meld });
        if (button.textContent !== label) button.textContent = label;
      });
      form.querySelectorAll("[data-meld-target]").forEach((target) => {
        target.setAttribute("aria-pressed", String(target.dataset.meld === meld));
      });
      form.querySelectorAll("[data-pick]").forEach((button) => {
        button.setAttribute("aria-pressed", String(cards.includes(button.dataset.pick)));
      });
    }

    form.addEventListener("change", draw);
    form.addEventListener("input", (event) => { if (event.target === meldsBox) draw(); });
    form.addEventListener("click", (event) => {
      const pick = event.target.closest("[data-pick]");
      const target = event.target.closest("[data-meld-target]");
      if (pick) {
        const box = boxes().find((b) => b.value === pick.dataset.pick);
        if (box) box.checked = !box.checked;
        draw();
      } else if (target && select) {
        // A second tap on the meld chosen lets it go.
        select.value = select.value === target.dataset.meld ? "" : target.dataset.meld;
        draw();
      } else if (event.target.closest("[data-meld-done]") && meldsBox) {
        const cards = picked();
        if (!cards.length) return;
        const text = meldsBox.value.replace(/\s+$/, "");
        meldsBox.value = (text ? text + "\n" : "") + cards.join(" ");
        boxes().forEach((b) => { b.checked = false; });
        order = [];
        draw();
      }
    });
    if (known) known.hidden = false;
    form.pickedInOrder = picked;  // for what a move said (below): the cards as tapped
    draw();
  }

  // The board at the top stays in view; what sticks below it (a picker's tabs) sits under it,
  // however tall the board is now (it shrinks while a picker is open, and polls replace it).
  let watched = null;
  const sized = new ResizeObserver(() => boardHeight());
  function boardHeight() {
    const board = document.querySelector("#main > .board");
    if (!board) return;
    if (board !== watched) {
      sized.disconnect();
      sized.observe(board);
      watched = board;
    }
    document.documentElement.style.setProperty("--board-h", board.offsetHeight + "px");
  }

  // The picker is drawn again after each move, so what a move did is said apart from it: a
  // meld laid is announced (role=status) just above the thumb's buttons, and after "Take back
  // the last move" the draw buttons, off screen above, are brought into view.
  //
  // What was sent is matched to its own answer by the request (xhr): a poll that comes back
  // while the move is on its way settles first on a loaded phone, and must not take the
  // move's turn (the draw buttons were then looked for before the move had brought them).
  let sent = null;
  function said() {
    let box = document.querySelector("[data-move-said]");
    if (!box) {
      box = document.createElement("p");
      box.className = "move-said";
      box.setAttribute("role", "status");
      box.dataset.moveSaid = "";
      box.dataset.testid = "move-said";
      document.body.appendChild(box);
    }
    return box;
  }
  function noteSent(event) {
    const form = event.detail.elt.closest && event.detail.elt.closest("[data-move-form]");
    const trigger = event.detail.triggeringEvent;
    const move = trigger && trigger.submitter ? trigger.submitter.value : "";
    if (!form || !move) return;
    const box = form.querySelector("[data-melds-box]");
    const lines = box ? box.value.split("\n").map((l) => l.trim()).filter(Boolean) : [];
    const picked = form.pickedInOrder ? form.pickedInOrder() : [];
    if (picked.length) lines.push(picked.join(" "));
    const cards = lines.map((l) => faces(l.split(/\s+/))).join(" | ");
    sent = { form, move, text: fill(form.dataset.meldLaid || "", { cards }), xhr: null };
  }
  function noteRequest(event) {
    const elt = event.detail.elt;
    if (sent && !sent.xhr && elt.closest && elt.closest("[data-move-form]") === sent.form) {
      sent.xhr = event.detail.xhr;
    }
  }
  function afterMove(event) {
    // htmx settles the answer's target and each element it swapped out of band, all with
    // the same request: the first of them takes it, with every swap already in the page.
    if (!sent || !sent.xhr || event.detail.xhr !== sent.xhr) return;
    const done = sent;
    sent = null;
    if (done.xhr.status !== 200) return;
    if (done.move === "meld") {
      const box = said();
      box.textContent = done.text;
      clearTimeout(box.timer);
      box.timer = setTimeout(() => { box.textContent = ""; }, 6000);
      return;
    }
    const box = document.querySelector("[data-move-said]");
    if (box) box.textContent = "";  // said of a move that is no longer the last
    if (done.move === "undo") {
      // Once the page is laid out again (the board's height is set on the same settle).
      requestAnimationFrame(() => {
        const draw = document.querySelector("[data-testid=draw-stock], [data-testid=take-upcard]");
        if (draw) draw.scrollIntoView({ block: "center" });
      });
    }
  }
  document.addEventListener("htmx:configRequest", noteSent);
  document.addEventListener("htmx:beforeRequest", noteRequest);
  document.addEventListener("htmx:afterSettle", afterMove);

  // The whole page each time: a save's answer brings the hand in play out of band.
  function init() {
    document.querySelectorAll("[data-move-form]").forEach(setUp);
    boardHeight();
  }
  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:afterSettle", init);
  window.addEventListener("resize", boardHeight);
})();
