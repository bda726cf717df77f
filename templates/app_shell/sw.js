{% autoescape off %}// RummyRef's service worker: pages this phone opened stay readable with no network.
// Static files: from the cache first (their deployed names change with their contents).
// Pages: from the network first; with no network, the copy kept from the last visit, or the
// offline page. Everything else (saves, polls, the API) always goes to the network.
"use strict";

const VERSION = "{{ version|escapejs }}";
const SHELL_CACHE = "rummyref-shell-" + VERSION;
const PAGES_CACHE = "rummyref-pages";
const STATIC_PREFIX = "{{ static_prefix|escapejs }}";
const OFFLINE_URL = "{% url 'offline' %}";
const SHELL_URLS = [{% for url in shell_urls %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const DEVELOPMENT = {{ development|yesno:"true,false" }};
const MAX_PAGES = 40;
// The pages worth keeping for a table with bad Wi-Fi: home, tables, rules, the referee.
const KEPT_PAGES = [/^\/$/, /^\/t\/[0-9a-f-]{36}\/$/, /^\/rules\//, /^\/referee\/$/];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL_URLS))
      .then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(
        names.filter((name) => name.startsWith("rummyref-shell-") && name !== SHELL_CACHE)
          .map((name) => caches.delete(name))
      ))
      .then(() => self.clients.claim())
  );
});

async function fromCacheFirst(request) {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) {
    const cache = await caches.open(SHELL_CACHE);
    cache.put(request, response.clone());
  }
  return response;
}

async function fromNetworkFirst(request, keep) {
  try {
    const response = await fetch(request);
    if (keep && response.ok && response.type === "basic") {
      const cache = await caches.open(PAGES_CACHE);
      await cache.put(request.url.split("#")[0], response.clone());
      trim(cache);
    }
    return response;
  } catch (error) {
    const cached = await caches.match(request.url.split("#")[0], { ignoreSearch: false });
    if (cached) return cached;
    if (request.mode === "navigate") {
      const offline = await caches.match(OFFLINE_URL);
      if (offline) return offline;
    }
    throw error;
  }
}

async function trim(cache) {
  const keys = await cache.keys();
  // Oldest first: Cache.keys() lists entries in the order they were put.
  for (const request of keys.slice(0, Math.max(0, keys.length - MAX_PAGES))) {
    await cache.delete(request);
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(STATIC_PREFIX)) {
    event.respondWith(DEVELOPMENT ? fromNetworkFirst(request, false) : fromCacheFirst(request));
    return;
  }
  if (request.mode === "navigate") {
    const keep = url.search === "" && KEPT_PAGES.some((pattern) => pattern.test(url.pathname));
    event.respondWith(fromNetworkFirst(request, keep));
  }
});

// Signing out forgets the pages kept for this account.
self.addEventListener("message", (event) => {
  if (event.data === "forget-pages") event.waitUntil(caches.delete(PAGES_CACHE));
});
{% endautoescape %}
