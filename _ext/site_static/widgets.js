// The explorers' widget manager, loaded from this site when an explorer comes near the screen.
// The page carries each widget's state; rendering it needs require.js, the Jupyter widget manager
// (@jupyter-widgets/html-manager, AMD, ~4 MB) and anywidget, all copied into _static/vendor/ at build time
// (_ext/site_assets.py writes this file there with the vendored paths filled in). Loading them only when an
// explorer is within a screen or two of the reader keeps a chapter's first paint and main thread free.
(function () {
  "use strict";
  const PATHS = __VENDOR_PATHS__;  // module -> path under _static/vendor/, without ".js"
  const root = new URL(document.documentElement.dataset.content_root || "./", document.baseURI);
  const vendor = new URL("_static/vendor/", root).href;
  const paths = {};
  for (const [name, path] of Object.entries(PATHS.modules)) paths[name] = vendor + path;
  window.require = {paths: paths};  // require.js reads a global `require` as its configuration

  function load(path, attributes) {
    return new Promise((resolve, reject) => {
      const script = document.createElement("script");
      script.src = vendor + path;
      for (const [name, value] of Object.entries(attributes || {})) script.setAttribute(name, value);
      script.onload = resolve;
      script.onerror = () => reject(new Error(`could not load ${script.src}`));
      document.head.append(script);
    });
  }

  let started = false;
  function start() {
    if (started) return;
    started = true;
    // data-jupyter-widgets-cdn: where the manager looks for a module it was not given a path for -- this site.
    load(PATHS.requirejs)
      .then(() => load(PATHS.manager, {"data-jupyter-widgets-cdn": vendor}))
      .catch((error) => console.error(error));
  }

  function watch() {
    const views = [...document.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')];
    if (!views.length) return;
    if (!("IntersectionObserver" in window)) return start();
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        start();
      }
    }, {rootMargin: "1500px 0px"});
    for (const view of views) observer.observe(view.parentElement);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch);
  else watch();
})();
