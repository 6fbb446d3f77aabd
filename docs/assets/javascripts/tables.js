// Tables that carry an answer (.pcb-key-table, see pages.css): each cell is labelled with its column's
// header, and a table that does not fit the page's width, laid out as a table, is shown as cards
// (.pcb-cards). Measured again when the window is resized or a collapsed section opens; a table out
// of sight (in a closed section) is measured when it is shown.
(function () {
  "use strict";

  function label(answer) {
    answer.querySelectorAll("table").forEach(function (table) {
      var heads = Array.prototype.map.call(table.querySelectorAll("thead th"), function (th) {
        return th.textContent.trim();
      });
      table.querySelectorAll("tbody tr").forEach(function (row) {
        Array.prototype.forEach.call(row.children, function (cell, i) {
          if (heads[i]) {
            cell.setAttribute("data-label", heads[i]);
          }
        });
      });
    });
  }

  function fit(answer) {
    var table = answer.querySelector("table");
    if (!table) {
      return;
    }
    answer.classList.remove("pcb-cards");
    var room = answer.getBoundingClientRect().width;
    if (room === 0) {
      answer.removeAttribute("data-layout");
      return;
    }
    var cards = table.getBoundingClientRect().width > room + 1;
    answer.classList.toggle("pcb-cards", cards);
    answer.setAttribute("data-layout", cards ? "cards" : "table");
  }

  function fitAll() {
    document.querySelectorAll(".pcb-key-table").forEach(fit);
  }

  function start() {
    document.querySelectorAll(".pcb-key-table").forEach(label);
    fitAll();
    var pending = 0;
    window.addEventListener("resize", function () {
      window.clearTimeout(pending);
      pending = window.setTimeout(fitAll, 100);
    });
    document.addEventListener("toggle", function (event) {
      if (event.target.open) {
        event.target.querySelectorAll(".pcb-key-table").forEach(fit);
      }
    }, true);
    window.addEventListener("load", fitAll);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
