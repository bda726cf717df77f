// Join links and invites carry their secret after "#" (/j/#<token>, /invite/#<token>):
// browsers send no fragment, so it reaches no server log and no Referer. This page's form
// takes it from the fragment, drops it from the address bar (and so from the history), and
// sends it, CSRF token and all. Without JavaScript the form waits for it to be pasted.
document.addEventListener("DOMContentLoaded", () => {
  const form = document.querySelector("form[data-secret-from-fragment]");
  if (!form || !location.hash) return;
  let secret = "";
  try {
    secret = decodeURIComponent(location.hash.slice(1)).trim();
  } catch (error) {
    secret = location.hash.slice(1).trim(); // malformed %-escapes: sent as they are
  }
  history.replaceState(null, "", location.pathname + location.search);
  const input = form.querySelector("[data-secret-input]");
  if (!secret || !input) return;
  input.value = secret.slice(0, 300);
  form.setAttribute("aria-busy", "true");
  form.querySelectorAll("button").forEach((button) => { button.disabled = true; });
  form.submit();
});
