// Build-time math: MathJax 3 (the npm package pinned in package.json) turns TeX into CHTML once, when the site
// is built, so that readers' browsers need no MathJax script (_ext/site_assets.py drives this process).
// Protocol, one JSON object per line: {"tex": "...", "display": bool} -> {"html": "..."} or {"error": "..."};
// {"stylesheet": true} -> {"css": "..."}: the CSS for every character typeset so far (fonts from "fontURL").
// Usage: node typeset.cjs MATHJAX_PACKAGE_DIR FONT_URL
"use strict";
const readline = require("node:readline");
const [mathjaxDir, fontURL] = process.argv.slice(2);

require(mathjaxDir).init({
  loader: {load: ["input/tex", "output/chtml", "adaptors/liteDOM", "a11y/assistive-mml"]},
  chtml: {fontURL: fontURL},
  startup: {typeset: false},
}).then((MathJax) => {
  const adaptor = MathJax.startup.adaptor;
  const lines = readline.createInterface({input: process.stdin});
  lines.on("line", (line) => {
    const request = JSON.parse(line);
    let answer;
    try {
      if (request.stylesheet) {
        answer = {css: adaptor.textContent(MathJax.chtmlStylesheet())};
      } else {
        const node = MathJax.tex2chtml(request.tex, {display: request.display});
        const error = adaptor.tags(node, "mjx-merror")[0];
        answer = error ? {error: adaptor.getAttribute(error, "data-mjx-error") || adaptor.textContent(error)}
          : {html: adaptor.outerHTML(node)};
      }
    } catch (error) {
      answer = {error: String(error && error.message || error)};
    }
    process.stdout.write(JSON.stringify(answer) + "\n");
  });
}).catch((error) => {
  console.error(error);
  process.exit(1);
});
