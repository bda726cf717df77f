// Live updates (docs/live.md): the element that polls its page's news (data-live, e.g. the
// table's #board, a night's room board) also listens to its stream, and asks its usual poll
// ("live" trigger) as soon as the stream says the log (or the night) moved past what it
// shows. A part of a page that does not poll (a group's tables) asks its page again. While
// the stream flows the timed polls are skipped; where it cannot be opened, or while it is
// down, they go on as before. The stream says only the head seq: what changed comes from the poll,
// which checks this phone's key as always.
(function () {
  "use strict";
  let flowing = false;
  let source = null;

  // Said on <body data-live-state>, for a stylesheet (and the browser tests) to know.
  function flow(now) {
    flowing = now;
    document.body.dataset.liveState = now ? "flowing" : "polling";
  }

  const watcher = () => document.querySelector("[data-live]");
  // Whether an event tells of something the element does not show: a table's head past its
  // own, a night's version other than its own; anything else (moved, group) always does.
  function news(event, element) {
    if (event.type === "head") return Number(event.data) > Number(element.dataset.liveSeq);
    if (event.type === "night") return event.data !== element.dataset.liveVersion;
    return true;
  }

  // A field being filled in inside the element (a director's decision) is not swapped away
  // under the typing fingers: the poll waits until the field is left.
  let waiting = false;
  const typing = (element) =>
    element.contains(document.activeElement) &&
    document.activeElement.matches("input, textarea, select");

  // News heard while a request of the page is on its way: htmx would drop the poll (the
  // element's own poll in flight, or a save the board's hx-sync waits for), and the answer
  // on its way may show the table as it was before the news was committed (a save's answer
  // draws the board at that save's own head). So the poll is asked again once that request
  // is done (answered, or its new element swapped in).
  // What the poll asked again is for: the events heard meanwhile, or null when it goes
  // whatever the answer shows (a stream's first event, a failed poll asked again).
  let again = false;
  let againFor = [];
  const busy = (element) =>
    element.classList.contains("htmx-request") || document.querySelector(".htmx-request");

  function poll(event) {
    const element = watcher();
    if (!element || !window.htmx) return;
    if (typing(element)) {
      waiting = true;
      return;
    }
    if (busy(element)) {
      if (!again) againFor = [];
      again = true;
      againFor = event && againFor ? [...againFor, event] : null;
      return;
    }
    window.htmx.trigger(element, "live");
  }

  function pollIfAsked() {
    if (!again) return;
    again = false;
    // The answer that came in may show all that was heard meanwhile: most often a save's own,
    // whose head the stream told before the answer arrived. Then there is nothing to ask.
    const element = watcher();
    if (againFor && element && !againFor.some((event) => news(event, element))) return;
    // After htmx has finished with the request (its class taken off the element).
    setTimeout(poll);
  }
  // An answer that swaps nothing in (a 204, a failure) lets the poll go at once. One that
  // does is waited for until it has settled: only then has htmx wired up the new element's
  // triggers, and a "live" trigger sent to it before would be lost.
  document.addEventListener("htmx:afterRequest", (event) => {
    if (!event.detail.successful || event.detail.xhr.status === 204) pollIfAsked();
  });
  document.addEventListener("htmx:afterSettle", pollIfAsked);
  document.addEventListener("htmx:load", (event) => {
    if (event.target instanceof Element && event.target.matches("[data-live]")) pollIfAsked();
  });

  // A poll the news asked for that failed (the server busy a moment, the Wi-Fi gone) is asked
  // again, sooner first, then less often: while the stream flows no timed poll would bring
  // the news otherwise. Where no stream flows the timed polls carry on as they always do.
  const FIRST_RETRY_MS = 500;
  const LAST_RETRY_MS = 15000;
  let retryMs = FIRST_RETRY_MS;
  function pollAgainIfFailed(event) {
    if (!(event.target instanceof Element) || !event.target.matches("[data-live]")) return;
    if (event.detail.successful) {
      retryMs = FIRST_RETRY_MS;
      return;
    }
    if (!flowing) return;
    setTimeout(poll, retryMs);
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
  }
  document.addEventListener("htmx:afterRequest", pollAgainIfFailed);

  // A part swapped for its newer self keeps open what the reader opened (a director's
  // decision form, ids "decide-<table>"): the same ids open again once it is in.
  let reopen = [];
  document.addEventListener("htmx:beforeSwap", (event) => {
    if (!(event.target instanceof Element) || !event.target.matches("[data-live]")) return;
    reopen = [...event.target.querySelectorAll("details[open][id]")].map((item) => item.id);
  });
  document.addEventListener("htmx:afterSwap", () => {
    reopen.forEach((id) => document.getElementById(id)?.setAttribute("open", ""));
    reopen = [];
  });

  document.addEventListener("focusout", () => {
    if (!waiting) return;
    // After the focus has moved on: still inside a field of the element, keep waiting.
    setTimeout(() => {
      const element = watcher();
      if (waiting && element && !typing(element)) {
        waiting = false;
        poll();
      }
    });
  });

  function heard(event) {
    const element = watcher();
    if (!element) return;
    if (!flowing) {
      // The first event of a (re)opened stream: polls may rest now. One poll now brings what
      // was saved while the stream was being opened, before the engine held it.
      flow(true);
      flowedHere = true;
      reopenMs = FIRST_REOPEN_MS;
      poll();
      return;
    }
    // A head this page shows already (or an older one, late) changes nothing.
    if (news(event, element)) poll(event);
  }

  // A stream that flowed on this page and is then refused is opened again at the address the
  // board carries now: its watch token expired overnight (they last 12 hours), or the engine
  // answered an error while it restarted, maybe more than once. The waits double up to a
  // minute. A stream refused before it ever flowed (a proxy, an old token) stays closed.
  const FIRST_REOPEN_MS = 1000;
  const LAST_REOPEN_MS = 60000;
  let flowedHere = false;
  let reopenMs = FIRST_REOPEN_MS;

  function open() {
    const element = watcher();
    if (!element || source || !window.EventSource) return;
    flow(false);
    const opened = new EventSource(element.dataset.live);
    ["head", "night", "group", "moved", "open"].forEach((name) =>
      opened.addEventListener(name, heard));
    // Dropped (the browser opens it again, sending Last-Event-ID) or refused (closed for
    // good): either way the timed polls take over until events flow again.
    opened.onerror = () => {
      flow(false);
      if (opened.readyState !== EventSource.CLOSED || !flowedHere) return;
      source = null;
      setTimeout(open, reopenMs);
      reopenMs = Math.min(reopenMs * 2, LAST_REOPEN_MS);
    };
    source = opened;
  }

  // The timed poll of the watching element rests while the stream flows; the "live" trigger
  // and every other request go through.
  document.addEventListener("htmx:confirm", (event) => {
    const detail = event.detail;
    if (flowing && !detail.triggeringEvent && detail.elt.matches("[data-live]")) {
      event.preventDefault();
    }
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", open);
  else open();
})();
