// A hand's review (templates/tables/review.html): swipe the stepper left for the next step and
// right for the one before, or press the arrow keys. Each only taps the stepper's own Next or
// Previous link, which htmx follows without reloading the page (and, without htmx, the browser
// follows as a link: each step is an address of its own). After a step comes in, the keyboard
// stays on the link it pressed, so Next can be pressed again and again.
(function () {
  "use strict";
  // How far a finger must travel sideways, in CSS pixels, and how much more sideways than
  // up or down, for a swipe rather than a scroll or a tap.
  const SWIPE = 50;
  const SIDEWAYS = 1.5;

  function step(stepper, which) {
    const link = stepper.querySelector('[data-step-nav="' + which + '"]');
    if (link) link.click();
    return Boolean(link);
  }

  function setUp(stepper) {
    if (stepper.dataset.ready) return;
    stepper.dataset.ready = "true";
    let start = null;
    stepper.addEventListener("touchstart", (event) => {
      start = event.touches.length === 1 ? { x: event.touches[0].clientX, y: event.touches[0].clientY } : null;
    }, { passive: true });
    stepper.addEventListener("touchend", (event) => {
      if (!start || event.changedTouches.length !== 1) return;
      const dx = event.changedTouches[0].clientX - start.x;
      const dy = event.changedTouches[0].clientY - start.y;
      start = null;
      if (Math.abs(dx) < SWIPE || Math.abs(dx) < SIDEWAYS * Math.abs(dy)) return;
      step(stepper, dx < 0 ? "next" : "previous");
    }, { passive: true });
    stepper.addEventListener("touchcancel", () => { start = null; }, { passive: true });
  }

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    const stepper = document.querySelector("[data-review-stepper]");
    if (stepper && step(stepper, event.key === "ArrowRight" ? "next" : "previous")) event.preventDefault();
  });

  // The link pressed was replaced by the step's own: the keyboard goes on from the new one
  // (or, at either end, from the one still there).
  let pressed = null;
  document.addEventListener("htmx:beforeRequest", (event) => {
    const link = event.detail.elt;
    pressed = link && link.dataset && link.dataset.stepNav && document.activeElement === link ? link.dataset.stepNav : null;
  });
  document.addEventListener("htmx:afterSettle", (event) => {
    if (!pressed || !event.target.closest || !event.target.closest("[data-review-stepper]")) return;
    const stepper = event.target.closest("[data-review-stepper]");
    const again = stepper.querySelector('[data-step-nav="' + pressed + '"]') || stepper.querySelector("[data-step-nav]");
    pressed = null;
    if (again) again.focus();
  });

  const init = () => document.querySelectorAll("[data-review-stepper]").forEach(setUp);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
