// A move code's QR code carries the code after "#", which no request sends: copy it into
// the form, and drop it from the address bar so it stays in no history.
document.addEventListener("DOMContentLoaded", () => {
  const input = document.querySelector("[data-code-from-fragment]");
  const code = decodeURIComponent(location.hash.slice(1)).trim();
  if (!input || !code) return;
  input.value = code.slice(0, 20);
  history.replaceState(null, "", location.pathname);
});
