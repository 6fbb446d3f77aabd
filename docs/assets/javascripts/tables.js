// Tables that carry an answer (.pcb-key-table, see pages.css): each cell is labelled with its column's
// header, and a table that does not fit the page's width, laid out as a table, is shown as cards
// (.pcb-cards). Every other table that does not fit scrolls sideways with a hint that it does
// (.pcb-scroll-hint). Measured again when the window is resized or a collapsed section opens; a table
// out of sight (in a closed section) is measured when it is shown.
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

  // Any other table wider than its column scrolls sideways in Material's wrapper: it gets a line above it
  // that says so, and a faded edge on each side that has more to show (pages.css), kept up as it scrolls.
  function wrapperOf(table) {
    return table.closest(".md-typeset__scrollwrap") || table.parentElement;
  }

  function edges(wrapper) {
    var more = wrapper.scrollWidth - wrapper.clientWidth;
    wrapper.classList.toggle("pcb-more-left", wrapper.scrollLeft > 1);
    wrapper.classList.toggle("pcb-more-right", wrapper.scrollLeft < more - 1);
  }

  function hint(table) {
    if (table.closest(".pcb-key-table")) {
      return;
    }
    var wrapper = wrapperOf(table);
    var note = wrapper.previousElementSibling;
    var has = note && note.classList.contains("pcb-scroll-hint");
    if (wrapper.clientWidth === 0) {
      return; // out of sight (a closed section): measured when it opens
    }
    var scrolls = wrapper.scrollWidth > wrapper.clientWidth + 1;
    wrapper.classList.toggle("pcb-scrolls", scrolls);
    if (scrolls && !has) {
      note = document.createElement("p");
      note.className = "pcb-scroll-hint";
      note.textContent = "The table is wider than the page: scroll it sideways \u2192";
      wrapper.parentNode.insertBefore(note, wrapper);
      wrapper.addEventListener("scroll", function () { edges(wrapper); }, { passive: true });
    } else if (!scrolls && has) {
      note.remove();
    }
    if (scrolls) {
      edges(wrapper);
    }
  }

  function hintAll(root) {
    (root || document).querySelectorAll("article table").forEach(hint);
  }

  function fitAll() {
    document.querySelectorAll(".pcb-key-table").forEach(fit);
    hintAll();
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
        hintAll(event.target);
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
