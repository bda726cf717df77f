// The installable app: registers the service worker, says when the phone is offline, and
// remembers the tables opened here so the offline page can list them.
(function () {
  "use strict";
  const KEPT = "rummyref.kept-tables";
  const MAX_KEPT = 20;

  if ("serviceWorker" in navigator) {
    window.addEventListener("load", () => {
      navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
        // No worker (private mode, old browser): the site works as before, only not offline.
      });
    });
  }

  function showNetwork() {
    const badge = document.querySelector("[data-network]");
    if (!badge) return;
    badge.hidden = navigator.onLine;
    document.documentElement.classList.toggle("offline", !navigator.onLine);
  }
  window.addEventListener("online", showNetwork);
  window.addEventListener("offline", showNetwork);

  function keptTables() {
    try {
      return JSON.parse(localStorage.getItem(KEPT) || "[]");
    } catch (error) {
      return [];
    }
  }

  function rememberTable() {
    if (!/^\/t\/[0-9a-f-]{36}\/$/.test(location.pathname)) return;
    const entry = { url: location.pathname, title: document.title.replace(/ · RummyRef$/, "") };
    const kept = keptTables().filter((item) => item.url !== entry.url);
    kept.unshift(entry);
    localStorage.setItem(KEPT, JSON.stringify(kept.slice(0, MAX_KEPT)));
  }

  function listKeptTables() {
    const box = document.querySelector("[data-kept-tables]");
    if (!box) return;
    const list = box.querySelector("ul");
    keptTables().forEach((item) => {
      const link = document.createElement("a");
      link.href = item.url;
      link.textContent = item.title;
      const row = document.createElement("li");
      row.appendChild(link);
      list.appendChild(row);
    });
    box.hidden = list.children.length === 0;
  }

  // A save sent with no connection gets no answer at all: say so where the thumb is.
  function notSent(event) {
    const toast = document.querySelector("[data-not-sent]");
    if (!toast) return;
    toast.hidden = false;
    clearTimeout(notSent.timer);
    notSent.timer = setTimeout(() => { toast.hidden = true; }, 6000);
    if (event && event.detail && event.detail.elt) {
      const button = event.detail.elt.querySelector && event.detail.elt.querySelector("[type=submit]");
      if (button) button.focus();
    }
  }
  document.addEventListener("htmx:sendError", (event) => {
    const verb = event.detail && event.detail.requestConfig && event.detail.requestConfig.verb;
    const kept = "indexedDB" in window && event.detail.elt.matches("#main form[hx-post]");
    if (verb && verb !== "get" && !kept) notSent(event);  // a table's entries go to the outbox
  });

  // Signing out forgets the pages kept on this phone for the account.
  document.addEventListener("submit", (event) => {
    if (!event.target.matches("[data-sign-out]")) return;
    localStorage.removeItem(KEPT);
    if (navigator.serviceWorker && navigator.serviceWorker.controller) {
      navigator.serviceWorker.controller.postMessage("forget-pages");
    }
  });

  // A phone scoring a table (or the room's screen) must not go dark between hands: keep the
  // screen on while a table page is open, unless the player turned it off here.
  const WAKE = "rummyref.screen-on";
  let wakeLock = null;

  // Plain HTTP has no Wake Lock API (browsers keep it for HTTPS), and the first way the README gives
  // for phones is plain HTTP. There the screen is kept on as NoSleep-style libraries do it: a
  // muted, tiny video playing in a loop. Its picture is drawn here on a 2 px canvas, one
  // frame a second: no media file, nothing fetched.
  let video = null;
  function screenVideo() {
    if (video) return video;
    const canvas = document.createElement("canvas");
    canvas.width = 2;
    canvas.height = 2;
    const paint = canvas.getContext("2d");
    let odd = false;
    const frame = () => {
      odd = !odd;
      paint.fillStyle = odd ? "#000" : "#010101";
      paint.fillRect(0, 0, 2, 2);
    };
    frame();
    setInterval(() => { if (video && !video.paused) frame(); }, 1000);
    video = document.createElement("video");
    video.muted = true;
    video.loop = true;
    video.playsInline = true;
    video.setAttribute("playsinline", "");
    video.setAttribute("aria-hidden", "true");
    video.className = "screen-on-video";
    video.dataset.testid = "screen-on-video";
    video.srcObject = canvas.captureStream(1);
    document.body.appendChild(video);
    return video;
  }

  async function videoAwake(wanted) {
    const player = screenVideo();
    if (!wanted) {
      player.pause();
      return false;
    }
    try {
      await player.play();
      return true;
    } catch (error) {
      return false;  // not yet allowed: the next tap on the page starts it (setUpWakeLock)
    }
  }

  async function lockAwake(wanted) {
    if (!wanted) {
      if (wakeLock) await wakeLock.release();
      wakeLock = null;
      return false;
    }
    if (wakeLock) return true;
    if (document.visibilityState !== "visible") return false;
    try {
      wakeLock = await navigator.wakeLock.request("screen");
      wakeLock.addEventListener("release", () => { wakeLock = null; });
      return true;
    } catch (error) {
      return false;  // low battery, or the browser said no
    }
  }

  async function keepAwake(button) {
    const wanted = localStorage.getItem(WAKE) !== "off";
    button.setAttribute("aria-pressed", String(wanted));
    const held = "wakeLock" in navigator ? await lockAwake(wanted) : await videoAwake(wanted);
    if (wanted && !held && document.visibilityState === "visible") button.setAttribute("aria-pressed", "false");
  }

  function setUpWakeLock() {
    const button = document.querySelector("[data-wake-lock]");
    const onTable = /^\/t\/[0-9a-f-]{36}\/(tv\/)?$/.test(location.pathname);
    const canVideo = typeof HTMLCanvasElement !== "undefined" && "captureStream" in HTMLCanvasElement.prototype;
    if (!button || !onTable || !("wakeLock" in navigator || canVideo)) return;
    button.hidden = false;
    button.addEventListener("click", () => {
      localStorage.setItem(WAKE, button.getAttribute("aria-pressed") === "true" ? "off" : "on");
      keepAwake(button);
    });
    // The browser drops the lock when the page is hidden; take it again on return. A video
    // may need a gesture first: the first tap anywhere on the page starts it.
    document.addEventListener("visibilitychange", () => keepAwake(button));
    document.addEventListener("pointerdown", () => keepAwake(button), { once: true });
    keepAwake(button);
  }

  // Plain HTTP on another address than this machine's own (a local run reached over the
  // Wi-Fi): the browser gives such a page no service worker, so no table reopens offline and
  // the app cannot be installed. Say so once; a phone that hid the note never sees it again.
  const INSECURE_SEEN = "rummyref.insecure-notice-hidden";

  function insecureNotice() {
    const notice = document.querySelector("[data-insecure-notice]");
    // The help page it links to says all of it already.
    if (!notice || window.isSecureContext !== false || location.pathname === "/ca/") return;
    if (localStorage.getItem(INSECURE_SEEN) === "1") return;
    notice.hidden = false;
    notice.querySelector("[data-dismiss-insecure]").addEventListener("click", () => {
      localStorage.setItem(INSECURE_SEEN, "1");
      notice.hidden = true;
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    insecureNotice();
    setUpWakeLock();
    showNetwork();
    rememberTable();
    listKeptTables();
  });
})();
