// Live updates (docs/live.md): the element that polls its page's news (data-live, e.g. the
// table's #board) also listens to the table's stream, and asks its usual poll ("live"
// trigger) as soon as the stream says the log moved past what it shows. While the stream
// flows the timed polls are skipped; where it cannot be opened, or while it is down, they
// go on as before. The stream says only the head seq: what changed comes from the poll,
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
  const shown = (element) => Number(element.dataset.liveSeq);

  function poll() {
    const element = watcher();
    if (element && window.htmx) window.htmx.trigger(element, "live");
  }

  function heard(event) {
    const element = watcher();
    if (!element) return;
    if (!flowing) {
      // The first event of a (re)opened stream: polls may rest now. One poll now brings what
      // was saved while the stream was being opened, before the engine held it.
      flow(true);
      poll();
      return;
    }
    // A head this page shows already (or an older one, late) changes nothing.
    if (event.type !== "head" || Number(event.data) > shown(element)) poll();
  }

  function open() {
    const element = watcher();
    if (!element || source || !window.EventSource) return;
    flow(false);
    const opened = new EventSource(element.dataset.live);
    let heardAny = false;
    ["head", "moved", "open"].forEach((name) =>
      opened.addEventListener(name, (event) => { heardAny = true; heard(event); }));
    // Dropped (the browser opens it again, sending Last-Event-ID) or refused (closed for
    // good): either way the timed polls take over until events flow again. A stream that
    // flowed and is then refused (its watch token expired overnight) is opened once more at
    // the address the board carries now; one refused from the start stays closed.
    opened.onerror = () => {
      flow(false);
      if (opened.readyState === EventSource.CLOSED && heardAny) {
        source = null;
        open();
      }
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
