// Glossary terms: a {term} link carries its definition in its title (written at build time by
// _ext/book_site.py). This script shows that definition in a tooltip when the pointer rests on the
// term or the keyboard focuses it, and hides it on leaving, on blur and on Escape.
(function () {
  "use strict";

  function place(tip, link) {
    const box = link.getBoundingClientRect();
    tip.style.top = `${window.scrollY + box.bottom + 6}px`;
    const left = Math.min(window.scrollX + box.left, window.scrollX + document.documentElement.clientWidth
      - tip.offsetWidth - 8);
    tip.style.left = `${Math.max(8, left)}px`;
  }

  function setup() {
    const terms = document.querySelectorAll("a.reference.internal[title] > .std-term");
    if (!terms.length) return;
    const tip = document.createElement("div");
    tip.id = "glossary-tooltip";
    tip.className = "glossary-tooltip";
    tip.setAttribute("role", "tooltip");
    tip.hidden = true;
    document.body.append(tip);
    let current = null;

    const hide = () => {
      if (current) current.removeAttribute("aria-describedby");
      current = null;
      tip.hidden = true;
    };
    const show = (link) => {
      hide();
      current = link;
      tip.textContent = link.dataset.definition;
      tip.hidden = false;
      place(tip, link);
      link.setAttribute("aria-describedby", tip.id);
    };

    for (const term of terms) {
      const link = term.parentElement;
      link.dataset.definition = link.title;
      link.removeAttribute("title");
      link.classList.add("glossary-term");
      link.addEventListener("mouseenter", () => show(link));
      link.addEventListener("focus", () => show(link));
      link.addEventListener("mouseleave", hide);
      link.addEventListener("blur", hide);
    }
    document.addEventListener("keydown", (event) => { if (event.key === "Escape") hide(); });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setup);
  else setup();
})();
