// Material's search worker (its address in ?worker=, set by overrides/main.html), with one change: lunr
// splits a query where the search index splits its words (mkdocs.yml, plugins.search.separator).
// Material sets that separator for the index only; lunr's query lexer keeps lunr's default, which splits
// on '-', so "P-384" was searched as "p" and "384" and found every page with a "p" on it. Without lunr
// (Zensical's worker) the worker runs as it is.
(function () {
  "use strict";

  var worker = new URL(self.location.href).searchParams.get("worker");
  if (!worker || new URL(worker, self.location.href).origin !== self.location.origin) {
    throw new Error("search-worker.js: expected ?worker= naming the theme's search worker on this site");
  }
  importScripts(new URL(worker, self.location.href).href);

  var lunr = self.lunr;
  if (!lunr || !lunr.QueryLexer || !lunr.tokenizer) {
    return;
  }
  var run = lunr.QueryLexer.prototype.run;
  lunr.QueryLexer.prototype.run = function () {
    lunr.QueryLexer.termSeparator = lunr.tokenizer.separator;
    return run.apply(this, arguments);
  };
})();
