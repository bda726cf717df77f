// Entries made with no connection stay on this phone (IndexedDB) and are sent, in order and
// each exactly once, when the connection comes back. Every entry keeps the event_id it was
// given when the player tapped, so a send that reached the server before the connection
// dropped is recognised there as a retry, never stored twice. Nothing is dropped silently:
// an entry the server refuses, or one another phone overtook, waits on screen with the
// reason until the player sends it as the next entry, puts it back in the form, or drops it.
(function () {
  "use strict";
  const DB_NAME = "rummyref";
  const STORE = "outbox";
  const RETRY_MS = 10000;
  const TABLE_PAGE = /^\/t\/[0-9a-f-]{36}\/$/;
  if (!("indexedDB" in window) || !TABLE_PAGE.test(location.pathname)) return;
  const table = location.pathname;

  function database() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        const store = request.result.createObjectStore(STORE, { keyPath: "eventId" });
        store.createIndex("table", "table");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  async function run(mode, work) {
    const db = await database();
    return new Promise((resolve, reject) => {
      const transaction = db.transaction(STORE, mode);
      const result = work(transaction.objectStore(STORE));
      transaction.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      transaction.onerror = () => reject(transaction.error);
    });
  }

  async function entries() {
    const all = await run("readonly", (store) => store.index("table").getAll(table));
    return all.sort((a, b) => a.madeAt - b.madeAt);
  }
  const save = (entry) => run("readwrite", (store) => store.put(entry));
  const forget = (eventId) => run("readwrite", (store) => store.delete(eventId));

  function newEventId() {
    // crypto.randomUUID needs a secure context; a phone on the LAN reaches us over http.
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  }

  // The board's boxes (a seat's, or a side's where partners score as one) as the board's
  // data attributes give them: the name and the server's total. Never the rendered text.
  function boxes() {
    return Array.from(document.querySelectorAll("#board [data-total]"), (box) => ({
      name: box.dataset.name || "",
      total: Number.parseInt(box.dataset.total, 10) || 0,
    }));
  }

  // What a kept entry gives each box, as provisional.js scores it, or null when it cannot.
  function scoredPoints(fields, count) {
    const scored = window.rummyrefProvisional &&
      window.rummyrefProvisional.points(scoringModel(), fields, count);
    return scored && scored.length === count ? scored : null;
  }

  // The entry in words for the list of entries waiting: who gains what ("Anna +37"), in the
  // board's names; an entry this page cannot score (by cards) says its points come later.
  function summary(fields) {
    const seats = boxes();
    const scored = scoredPoints(fields, seats.length);
    if (!scored) return text("unscored");
    const parts = seats.flatMap((box, index) => (scored[index] ? [box.name + " " + signed(scored[index])] : []));
    return parts.length ? parts.join(" · ") : text("noPoints");
  }

  async function keep(form, url) {
    const pending = await entries();
    const fields = Array.from(new FormData(form).entries()).filter(([, value]) => typeof value === "string");
    const eventId = form.querySelector("[name=event_id]").value;
    const seen = Number(form.querySelector("[name=expected_seq]").value);
    // Each entry counts on the ones before it on this phone being stored first.
    const last = pending[pending.length - 1];
    const entry = {
      eventId, table, url, fields, summary: summary(fields), madeAt: Date.now(),
      expectedSeq: last ? Math.max(seen, last.expectedSeq + 1) : seen,
      state: "waiting", reason: "",
    };
    await save(entry);
    form.reset();
    form.querySelector("[name=event_id]").value = newEventId();
    form.dispatchEvent(new Event("change", { bubbles: true }));
    await show();
  }

  // The hand the other phone recorded, once the table's poll has brought it (the board's
  // head has reached the one the conflict named): its number (the history's newest) and the
  // totals it made, from the board's data. Said in the kept entry itself.
  function otherHand(entry) {
    const line = document.createElement("span");
    line.className = "other small";
    line.dataset.testid = "outbox-other-hand";
    const board = document.querySelector("#board");
    const hand = document.querySelector("#history-list li.hand");
    const shownHead = board ? Number(board.dataset.headSeq) : 0;
    if (!hand || (Number.isInteger(entry.head) && shownHead < entry.head)) return line;
    const totals = boxes().map((box) => box.name + " " + box.total).join(" · ");
    line.textContent = text("otherHand").replace("{number}", hand.dataset.hand).replace("{totals}", totals);
    return line;
  }

  // A kept entry that waits for the player (another phone's hand came first, or the referee
  // refused it) is compared with the history: the panel then stops floating over the page and
  // sits right after the history, the form above it still usable. Only waiting, it floats.
  function placeBox(box, beside) {
    box.classList.toggle("beside", beside);
    const main = document.querySelector("#main");
    if (beside && main && main.nextElementSibling !== box) main.after(box);
  }

  function text(name) {
    return document.querySelector("[data-outbox]").dataset[name] || "";
  }

  async function show() {
    const box = document.querySelector("[data-outbox]");
    if (!box) return;
    const pending = await entries();
    const list = box.querySelector("ol");
    list.replaceChildren();
    pending.forEach((entry) => {
      const item = document.createElement("li");
      item.dataset.state = entry.state;
      item.dataset.eventId = entry.eventId;
      const what = document.createElement("span");
      what.className = "what";
      what.textContent = entry.summary;
      const status = document.createElement("span");
      status.className = "status small";
      status.textContent = entry.state === "waiting" ? text("waiting") : entry.reason;
      item.append(what, status);
      if (entry.state === "conflict") item.append(otherHand(entry));
      if (entry.state !== "waiting") {
        const actions = document.createElement("div");
        actions.className = "actions";
        [["next", text("sendNext")], ["edit", text("edit")], ["drop", text("drop")]].forEach(([action, label]) => {
          if (action === "next" && entry.state !== "conflict") return;
          const button = document.createElement("button");
          button.type = "button";
          button.className = "secondary";
          button.dataset.outboxAction = action;
          button.textContent = label;
          actions.append(button);
        });
        item.append(actions);
      }
      list.append(item);
    });
    placeBox(box, pending.some((entry) => entry.state !== "waiting"));
    box.hidden = pending.length === 0;
    box.querySelector("[data-outbox-count]").textContent = String(pending.length);
    shown = pending;
    markPending();
  }

  // Provisional totals: each seat's total stays the server's, with beside it the points of
  // the hands waiting here to be sent, marked as pending ("52 (+25 pending)"). The points
  // come from provisional.js and the scoring the page carries with its hand form; an entry
  // it cannot score (by cards) leaves the marker without a number. Entries refused or
  // overtaken wait for the player and are not counted.
  let shown = [];

  function scoringModel() {
    const slot = document.querySelector("[data-provisional-scoring]");
    try {
      return slot ? JSON.parse(slot.dataset.provisionalScoring) : null;
    } catch (error) {
      return null;
    }
  }

  function signed(value) {
    return (value < 0 ? "\u2212" : "+") + String(Math.abs(value));
  }

  function markPending() {
    const markers = Array.from(document.querySelectorAll("#board [data-pending-seat]"));
    if (!markers.length) return;
    const waiting = shown.filter((entry) => entry.state === "waiting");
    const sums = markers.map(() => 0);
    let known = true;
    waiting.forEach((entry) => {
      const scored = scoredPoints(entry.fields, markers.length);
      if (!scored) known = false;
      else scored.forEach((value, seat) => { sums[seat] += value; });
    });
    markers.forEach((marker, seat) => {
      const box = marker.closest("[data-total]");
      const total = (box ? Number.parseInt(box.dataset.total, 10) || 0 : 0) + sums[seat];
      const fill = (name) => text(name).replace("{points}", signed(sums[seat])).replace("{total}", String(total));
      marker.textContent = fill(known ? "pending" : "pendingUnknown");
      marker.setAttribute("aria-label", fill(known ? "pendingLabel" : "pendingUnknownLabel"));
      if (known && waiting.length) marker.dataset.provisional = String(total);
      else delete marker.dataset.provisional;
      // A seat the waiting hands give nothing shows no "(+0 pending)" beside its total.
      marker.hidden = waiting.length === 0 || (known && sums[seat] === 0);
    });
  }
  // A poll or a save draws the board again: mark it again (and name the other phone's hand
  // again, once the poll has brought it into the history).
  document.addEventListener("htmx:afterSettle", () => {
    if (shown.some((entry) => entry.state === "conflict")) show();
    else markPending();
  });

  // The save views answer the outbox in JSON (it asks with Accept): {"ok": true, "seq",
  // "head"} once stored, or the error body the API answers too (games/shared/errors.py):
  // {"error": code, "detail": sentence, ...}, a conflict with the table's "head_seq".
  async function answerOf(response) {
    try {
      return await response.json();
    } catch (error) {
      return null;  // not the app's answer (a proxy's error page): no reason to show
    }
  }

  let sending = false;
  async function send() {
    if (sending || !navigator.onLine) return;
    sending = true;
    let stored = 0;
    try {
      for (const entry of await entries()) {
        if (entry.state !== "waiting") break;  // keep the order: later entries wait for it
        const body = new FormData();
        entry.fields.forEach(([name, value]) => body.append(name, value));
        body.set("event_id", entry.eventId);
        body.set("expected_seq", String(entry.expectedSeq));
        body.set("csrfmiddlewaretoken", csrfToken());
        let response;
        try {
          response = await fetch(entry.url, {
            method: "POST", body, credentials: "same-origin",
            headers: { "Accept": "application/json", "X-CSRFToken": csrfToken() },
          });
        } catch (error) {
          break;  // still no connection: try again later
        }
        const answer = await answerOf(response);
        // No answer from the app (a proxy's 502 while a server restarts, a 503, a timeout) or a
        // throttle: nothing was refused, so the entry waits and goes again at the next try.
        const code = answer && typeof answer.error === "string" ? answer.error : "";
        const transient = response.status === 429 || (response.status >= 500 && !code);
        if (transient) break;
        if (response.ok && answer && answer.ok) {
          await forget(entry.eventId);
          stored += 1;
          continue;
        }
        const conflict = code === "conflict";
        entry.state = conflict ? "conflict" : "refused";
        entry.reason = conflict ? text("conflict") : ((code && answer.detail) || text("refused"));
        entry.head = conflict && Number.isInteger(answer.head_seq) ? answer.head_seq : null;
        await save(entry);
        break;
      }
    } finally {
      sending = false;
      await show();
      if (stored && window.htmx) {
        htmx.ajax("GET", table, { target: "#main", select: "#main", swap: "outerHTML" });
      }
    }
  }

  async function act(action, eventId) {
    const entry = (await entries()).find((item) => item.eventId === eventId);
    if (!entry) return;
    if (action === "drop") {
      await forget(eventId);
    } else if (action === "next") {
      // The player saw the other phone's entry and wants theirs recorded after it.
      const head = entry.head !== null && entry.head !== undefined ? entry.head : entry.expectedSeq;
      const later = (await entries()).filter((item) => item.madeAt > entry.madeAt);
      entry.expectedSeq = head;
      entry.state = "waiting";
      entry.reason = "";
      await save(entry);
      for (const [index, item] of later.entries()) {
        item.expectedSeq = head + index + 1;
        await save(item);
      }
    } else if (action === "edit") {
      const form = document.querySelector("#hand-form");
      if (form) {
        entry.fields.forEach(([name, value]) => {
          if (name === "csrfmiddlewaretoken" || name === "expected_seq") return;
          form.querySelectorAll(`[name="${CSS.escape(name)}"]`).forEach((input) => {
            if (input.type === "radio" || input.type === "checkbox") input.checked = input.value === value;
            else input.value = value;
          });
        });
        form.dispatchEvent(new Event("change", { bubbles: true }));
        form.querySelector("[type=submit]").scrollIntoView({ block: "center" });
      }
      await forget(eventId);
    }
    await show();
    send();
  }

  function queueable(element) {
    return element && element.matches && element.matches("#main form[hx-post]");
  }

  // No connection at all: keep the entry at once instead of waiting for the request to fail.
  document.addEventListener("htmx:beforeRequest", (event) => {
    const form = event.detail.elt;
    if (!queueable(form) || navigator.onLine) return;
    event.preventDefault();
    keep(form, form.getAttribute("hx-post"));
  });
  // A connection that looked alive but failed (dead Wi-Fi, timeout): keep it then.
  ["htmx:sendError", "htmx:timeout"].forEach((name) => {
    document.addEventListener(name, (event) => {
      const form = event.detail.elt;
      if (queueable(form)) keep(form, form.getAttribute("hx-post"));
    });
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-outbox-action]");
    if (!button) return;
    act(button.dataset.outboxAction, button.closest("li").dataset.eventId);
  });

  window.addEventListener("online", send);
  setInterval(send, RETRY_MS);
  document.addEventListener("DOMContentLoaded", () => { show().then(send); });
})();
