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

  // Every table is measured first and changed after: a change between two measurements makes the browser
  // lay the page out again for the next one, and the Runs page has 94 tables (2 s of style work on a phone
  // when each was measured and changed in turn).
  function measureAnswer(answer) {
    var table = answer.querySelector("table");
    if (!table) {
      return null;
    }
    var room = answer.getBoundingClientRect().width;
    return { answer: answer, room: room, cards: room > 0 && table.getBoundingClientRect().width > room + 1 };
  }

  function applyAnswer(found) {
    if (found.room === 0) {
      found.answer.removeAttribute("data-layout");
      return;
    }
    found.answer.classList.toggle("pcb-cards", found.cards);
    found.answer.setAttribute("data-layout", found.cards ? "cards" : "table");
  }

  function fit(answers) {
    answers = Array.prototype.slice.call(answers);
    answers.forEach(function (answer) { answer.classList.remove("pcb-cards"); });
    answers.map(measureAnswer).filter(Boolean).forEach(applyAnswer);
  }

  // Any other table wider than its column scrolls sideways in Material's wrapper: it gets a line above it
  // that says so, and a faded edge on each side that has more to show (pages.css), kept up as it scrolls.
  function wrapperOf(table) {
    return table.closest(".md-typeset__scrollwrap") || table.parentElement;
  }

  function edges(wrapper, more, left) {
    wrapper.classList.toggle("pcb-more-left", left > 1);
    wrapper.classList.toggle("pcb-more-right", left < more - 1);
  }

  function measureScroll(table) {
    if (table.closest(".pcb-key-table")) {
      return null;
    }
    var wrapper = wrapperOf(table);
    if (wrapper.clientWidth === 0) {
      return null; // out of sight (a closed section): measured when it opens
    }
    return { wrapper: wrapper, more: wrapper.scrollWidth - wrapper.clientWidth, left: wrapper.scrollLeft };
  }

  function applyScroll(found) {
    var wrapper = found.wrapper;
    var note = wrapper.previousElementSibling;
    var has = note && note.classList.contains("pcb-scroll-hint");
    var scrolls = found.more > 1;
    wrapper.classList.toggle("pcb-scrolls", scrolls);
    if (scrolls && !has) {
      note = document.createElement("p");
      note.className = "pcb-scroll-hint";
      note.textContent = "The table is wider than the page: scroll it sideways \u2192";
      wrapper.parentNode.insertBefore(note, wrapper);
      wrapper.addEventListener("scroll", function () {
        edges(wrapper, wrapper.scrollWidth - wrapper.clientWidth, wrapper.scrollLeft);
      }, { passive: true });
    } else if (!scrolls && has) {
      note.remove();
    }
    if (scrolls) {
      edges(wrapper, found.more, found.left);
    }
  }

  function hintAll(root) {
    var tables = Array.prototype.slice.call((root || document).querySelectorAll("article table"));
    tables.map(measureScroll).filter(Boolean).forEach(applyScroll);
  }

  function fitAll() {
    fit(document.querySelectorAll(".pcb-key-table"));
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
        fit(event.target.querySelectorAll(".pcb-key-table"));
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
