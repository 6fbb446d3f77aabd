// Draws every .pcb-chart from its data-figure JSON with the Plotly.js shipped in this site,
// and redraws the colours when the reader toggles Material's light/dark palette.
(function () {
  "use strict";

  function palette() {
    var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    var text = dark ? "#e2e4e9" : "#1f2430";
    var grid = dark ? "rgba(226,228,233,0.15)" : "rgba(31,36,48,0.12)";
    return {
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: "rgba(0,0,0,0)",
      font: { color: text },
      "xaxis.gridcolor": grid,
      "yaxis.gridcolor": grid,
      "xaxis.zerolinecolor": grid,
      "yaxis.zerolinecolor": grid,
    };
  }

  // Error bars are drawn per trace, so the layout's colours do not reach them: restyle them too,
  // or they vanish against the dark background.
  function recolourErrorBars(element, colour) {
    var done = Promise.resolve();
    ["error_x", "error_y"].forEach(function (axis) {
      var traces = [];
      element.data.forEach(function (trace, index) {
        if (trace[axis]) { traces.push(index); }
      });
      if (traces.length) {
        var update = {};
        update[axis + ".color"] = colour;
        done = done.then(function () { return Plotly.restyle(element, update, traces); });
      }
    });
    return done;
  }

  function applyPalette(element) {
    var colours = palette();
    return Plotly.relayout(element, colours).then(function () {
      return recolourErrorBars(element, colours.font.color);
    });
  }

  function draw(element) {
    var figure = JSON.parse(element.getAttribute("data-figure"));
    var layout = Object.assign({ autosize: true, margin: { t: 60, r: 20, b: 60, l: 70 } }, figure.layout);
    Plotly.newPlot(element, figure.data, layout, { responsive: true, displaylogo: false })
      .then(function () { return applyPalette(element); })
      .then(function () { element.setAttribute("data-rendered", "true"); });
  }

  function drawAll() {
    document.querySelectorAll(".pcb-chart").forEach(draw);
  }

  function followPalette() {
    new MutationObserver(function () {
      document.querySelectorAll(".pcb-chart[data-rendered]").forEach(applyPalette);
    }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { drawAll(); followPalette(); });
  } else {
    drawAll();
    followPalette();
  }
})();
